import { describe, expect, it } from 'vitest';
import { catalogueProblems, leaves, placeholdersOf } from './catalogue-check.js';

const en = { a: { b: 'Hello {{name}}', c: 'Plain' }, d: '{{n}} of {{total}}' };
const same = { ja: en, 'zh-Hans': en, 'zh-Hant': en, en, es: en, fr: en };

describe('catalogue checker', () => {
  it('flattens nested keys and sorts placeholders', () => {
    expect(leaves(en).map(([k]) => k)).toEqual(['a.b', 'a.c', 'd']);
    expect(placeholdersOf('{{ total }} / {{n}}')).toEqual(['n', 'total']);
    expect(placeholdersOf(3)).toEqual([]);
  });

  it('finds nothing wrong in a faithful catalogue', () => {
    expect(catalogueProblems(same, 'ja')).toEqual([]);
  });

  it('names a missing key, an extra key, an empty text and a lost placeholder', () => {
    const ja = { a: { b: 'こんにちは {{who}}', c: '  ' }, e: '余分' };
    expect(catalogueProblems({ ...same, ja }, 'ja')).toEqual([
      'ja: missing d',
      'ja: a.b has placeholders [who], en has [name]',
      'ja: a.c is empty or not a text',
      'ja: e is not in en',
    ]);
  });

  it('refuses a value that is not a text', () => {
    expect(catalogueProblems({ ...same, fr: { ...en, d: 4 } }, 'fr')).toEqual([
      'fr: d is empty or not a text',
    ]);
  });
});
