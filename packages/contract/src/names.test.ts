import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isKanaName,
  maskTail,
  normalizePersonName,
  sameAccountHolder,
  samePersonName,
  zenginKana,
} from './names.js';

describe('samePersonName', () => {
  it.each([
    ['山田 太郎', '山田太郎'],
    ['山田　太郎', '山田太郎'],
    ['ヤマダ タロウ', 'ﾔﾏﾀﾞ ﾀﾛｳ'],
    ['ヤマダタロウ', 'やまだ たろう'],
    ['YAMADA Taro', 'yamada taro'],
    ['ＹＡＭＡＤＡ　ＴＡＲＯ', 'Yamada Taro'],
    ['Jean-Pierre Martin', 'JEAN PIERRE MARTIN'],
  ])('%s = %s', (a, b) => {
    expect(samePersonName(a, b)).toBe(true);
  });

  it.each([
    ['山田太郎', '山田次郎'],
    ['ヤマダタロウ', '山田太郎'],
    ['', ''],
    ['   ', ' '],
  ])('%s ≠ %s', (a, b) => {
    expect(samePersonName(a, b)).toBe(false);
  });

  it('keeps voiced marks: ダ is not タ', () => {
    expect(normalizePersonName('ﾀﾞ')).toBe('だ');
    expect(samePersonName('ダイ', 'タイ')).toBe(false);
  });
});

describe('maskTail', () => {
  it('masks all but the tail', () => {
    expect(maskTail('1234567', 3)).toBe('••••567');
    expect(maskTail('12', 3)).toBe('12');
  });
});

describe('zenginKana: an account holder name as Zengin writes it', () => {
  it.each([
    ['half-width to full-width', 'ﾔﾏﾀﾞ ﾀﾛｳ', 'ヤマダ タロウ'],
    ['hiragana to katakana', 'やまだ たろう', 'ヤマダ タロウ'],
    ['small kana to large (ッ ャ ュ ョ ァ)', 'キッカワ ジュンイチ', 'キツカワ ジユンイチ'],
    ['small half-width kana to large', 'ｷｯｶﾜ ｼｮｳ', 'キツカワ シヨウ'],
    ['small ヮ ヵ ヶ to large', 'ヮヵヶ', 'ワカケ'],
    ['ヰ ヱ as イ エ', 'ヰヱ', 'イエ'],
    ['long vowel ー kept', 'ヤマダ タロー', 'ヤマダ タロー'],
    ['half-width long vowel ｰ', 'ﾀﾛｰ', 'タロー'],
    ['ASCII hyphen after kana is the long vowel', 'ﾀﾛ-', 'タロー'],
    ['full-width hyphen after kana is the long vowel', 'タロ－', 'タロー'],
    ['minus sign after kana is the long vowel', 'タロ−', 'タロー'],
    ['spaces collapsed and trimmed', '　ヤマダ　　 タロウ ', 'ヤマダ タロウ'],
    ['ヴ from half-width ｳﾞ', 'ｳﾞｨｸﾄﾙ', 'ヴイクトル'],
    ['voiced marks composed: ﾀﾞ = ダ', 'ﾀﾞｲｽｹ', 'ダイスケ'],
    ['spacing voiced marks composed: タ゛ = ダ, ハ゜ = パ', 'タ゛イ ハ゜ン', 'ダイ パン'],
    ['Latin letters upper-cased, full-width folded', 'ｊｏｈｎ smith', 'JOHN SMITH'],
  ])('%s: %s → %s', (_rule, input, expected) => {
    expect(zenginKana(input)).toBe(expected);
  });

  it('keeps voiced and unvoiced apart: ダ is not タ, パ is not ハ', () => {
    expect(sameAccountHolder('ダイ', 'タイ')).toBe(false);
    expect(sameAccountHolder('パン', 'ハン')).toBe(false);
  });
});

describe('sameAccountHolder', () => {
  it.each([
    ['ヤマダ タロー', 'ﾔﾏﾀﾞ ﾀﾛ-'],
    ['ヤマダ タロウ', 'ﾔﾏﾀﾞ ﾀﾛｳ'],
    ['ヤマダ タロウ', 'ヤマダタロウ'],
    ['ヤマダ　タロウ', 'やまだ たろう'],
    ['キッカワ ショウコ', 'ｷﾂｶﾜ ｼﾖｳｺ'],
    ['サトウ・ハナコ', 'ｻﾄｳ ﾊﾅｺ'],
  ])('%s matches %s', (reading, holder) => {
    expect(sameAccountHolder(reading, holder)).toBe(true);
  });

  it.each([
    ['ヤマダ タロウ', 'ヤマダ ジロウ'],
    ['ヤマダ タロウ', 'ヤマダ タロー'],
    ['ヤマダ タロウ', '山田 太郎'],
    ['', ''],
    ['  ', '　'],
  ])('%s does not match %s', (reading, holder) => {
    expect(sameAccountHolder(reading, holder)).toBe(false);
  });

  it('isKanaName accepts kana in any width and refuses kanji or Latin', () => {
    expect(isKanaName('ﾔﾏﾀﾞ ﾀﾛ-')).toBe(true);
    expect(isKanaName('やまだ たろう')).toBe(true);
    expect(isKanaName('山田 太郎')).toBe(false);
    expect(isKanaName('YAMADA')).toBe(false);
    expect(isKanaName(' ')).toBe(false);
  });
});

/** Full-width katakana → half-width (the rendering banks print), for the property below. */
const HALF: Record<string, string> = Object.fromEntries(
  Array.from(
    'アイウエオカキクケコサシスセソタチツテトナニヌネノハヒフヘホマミムメモヤユヨラリルレロワヲン',
  ).map((ch, i) => [ch, 'ｱｲｳｴｵｶｷｸｹｺｻｼｽｾｿﾀﾁﾂﾃﾄﾅﾆﾇﾈﾉﾊﾋﾌﾍﾎﾏﾐﾑﾒﾓﾔﾕﾖﾗﾘﾙﾚﾛﾜｦﾝ'[i] ?? '']),
);
Object.assign(HALF, {
  ァ: 'ｧ',
  ィ: 'ｨ',
  ゥ: 'ｩ',
  ェ: 'ｪ',
  ォ: 'ｫ',
  ッ: 'ｯ',
  ャ: 'ｬ',
  ュ: 'ｭ',
  ョ: 'ｮ',
  ー: 'ｰ',
  ' ': ' ',
});
const toHalf = (s: string) =>
  Array.from(s.normalize('NFD'))
    .map((ch) => (ch === '\u3099' ? 'ﾞ' : ch === '\u309a' ? 'ﾟ' : (HALF[ch] ?? ch)))
    .join('');
const toHiragana = (s: string) =>
  Array.from(s)
    .map((ch) => {
      const c = ch.codePointAt(0) ?? 0;
      return c >= 0x30a1 && c <= 0x30f6 ? String.fromCodePoint(c - 0x60) : ch;
    })
    .join('');

const syllable = fc.constantFrom(
  ...Array.from(
    'アイウエオカキクケコガギグゲゴサシスセソザジズゼゾタチツテトダヂヅデドナニヌネノハヒフヘホバビブベボパピプペポマミムメモヤユヨラリルレロワヲンァィゥェォッャュョー',
  ),
);
const kanaName = fc
  .tuple(
    fc.array(syllable, { minLength: 1, maxLength: 8 }),
    fc.array(syllable, { minLength: 1, maxLength: 8 }),
  )
  .map(([family, given]) => `${family.join('')} ${given.join('')}`);

describe('properties', () => {
  it('zenginKana is idempotent on any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => zenginKana(zenginKana(s)) === zenginKana(s)),
    );
    fc.assert(fc.property(kanaName, (s) => zenginKana(zenginKana(s)) === zenginKana(s)));
  });

  it('the full-width, half-width and hiragana renderings of a name always match', () => {
    fc.assert(
      fc.property(kanaName, fc.constantFrom(' ', '　', '  ', ''), (name, space) => {
        const spaced = name.replace(' ', space);
        expect(sameAccountHolder(name, toHalf(spaced))).toBe(true);
        expect(sameAccountHolder(toHalf(name), toHiragana(spaced))).toBe(true);
        expect(zenginKana(toHalf(name))).toBe(zenginKana(name));
      }),
    );
  });
});
