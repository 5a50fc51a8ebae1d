import { describe, expect, it } from 'vitest';
import { maskTail, normalizePersonName, samePersonName } from './names.js';

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
