import { describe, expect, it } from 'vitest';
import { diffJson, prettyJson } from './json-diff';

describe('diffJson', () => {
  it('finds nothing between equal values', () => {
    expect(diffJson({ a: 1, b: [1, { c: 'x' }] }, { b: [1, { c: 'x' }], a: 1 })).toEqual([]);
  });

  it('names changed, added and removed keys by their paths', () => {
    const before = { min_yen: 10000, windows: [{ start: '09:00', end: '15:00' }], old: true };
    const after = {
      min_yen: 20000,
      windows: [
        { start: '09:00', end: '16:00' },
        { start: '18:00', end: '20:00' },
      ],
    };
    expect(diffJson(before, after)).toEqual([
      { path: 'min_yen', kind: 'changed', before: 10000, after: 20000 },
      { path: 'old', kind: 'removed', before: true, after: undefined },
      { path: 'windows[0].end', kind: 'changed', before: '15:00', after: '16:00' },
      { path: 'windows[1]', kind: 'added', before: undefined, after: { start: '18:00', end: '20:00' } },
    ]);
  });

  it('treats a missing before (a creation) as one addition and a missing after as one removal', () => {
    expect(diffJson(null, { code: 'ABCD' })).toEqual([
      { path: '', kind: 'added', before: undefined, after: { code: 'ABCD' } },
    ]);
    expect(diffJson({ active: true }, null)).toEqual([
      { path: '', kind: 'removed', before: { active: true }, after: undefined },
    ]);
  });

  it('compares a value that changes type as a change', () => {
    expect(diffJson({ url: null }, { url: 'https://example.jp' })).toEqual([
      { path: 'url', kind: 'changed', before: null, after: 'https://example.jp' },
    ]);
    expect(diffJson({ a: [1] }, { a: { 0: 1 } })).toEqual([
      { path: 'a', kind: 'changed', before: [1], after: { 0: 1 } },
    ]);
  });

  it('prints null for a missing side', () => {
    expect(prettyJson(undefined)).toBe('null');
    expect(prettyJson({ a: 1 })).toBe('{\n  "a": 1\n}');
  });
});
