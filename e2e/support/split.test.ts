import { describe, expect, it } from 'vitest';
import { splitByDuration } from './split.js';

describe('splitByDuration', () => {
  it('puts every file in exactly one group, each group in name order', () => {
    const files = ['c.spec.ts', 'a.spec.ts', 'e.spec.ts', 'b.spec.ts', 'd.spec.ts'];
    const groups = splitByDuration(files, { 'a.spec.ts': 5, 'b.spec.ts': 1, 'c.spec.ts': 3 }, 2);
    expect(groups.flat().sort()).toEqual([...files].sort());
    for (const group of groups) expect(group).toEqual([...group].sort());
  });

  it('balances the recorded time: longest first, each to the lightest group', () => {
    const durations = {
      'a.spec.ts': 60,
      'b.spec.ts': 50,
      'c.spec.ts': 40,
      'd.spec.ts': 30,
      'e.spec.ts': 20,
    };
    // 60 → 1; 50 → 2; 40 → 2 (90); 30 → 1 (90); 20 → 1 (110) against 90
    expect(splitByDuration(Object.keys(durations), durations, 2)).toEqual([
      ['a.spec.ts', 'd.spec.ts', 'e.spec.ts'],
      ['b.spec.ts', 'c.spec.ts'],
    ]);
  });

  it('counts a file with no recorded duration (a new spec) at the mean of the recorded ones', () => {
    const durations = { 'a.spec.ts': 100, 'b.spec.ts': 20 };
    // new.spec.ts counts 60: a → 1 (100); new → 2 (60); b → 2 (80)
    expect(splitByDuration(['a.spec.ts', 'b.spec.ts', 'new.spec.ts'], durations, 2)).toEqual([
      ['a.spec.ts'],
      ['b.spec.ts', 'new.spec.ts'],
    ]);
  });

  it('gives the same groups whatever order the files are listed in', () => {
    const durations = {
      'a.spec.ts': 10,
      'b.spec.ts': 10,
      'c.spec.ts': 10,
      'd.spec.ts': 10,
    };
    const files = Object.keys(durations);
    expect(splitByDuration([...files].reverse(), durations, 3)).toEqual(splitByDuration(files, durations, 3));
  });

  it('keeps everything in one group for one server, and leaves groups empty when there are more servers than files', () => {
    expect(splitByDuration(['b.spec.ts', 'a.spec.ts'], {}, 1)).toEqual([['a.spec.ts', 'b.spec.ts']]);
    expect(splitByDuration(['a.spec.ts'], {}, 3)).toEqual([['a.spec.ts'], [], []]);
  });
});
