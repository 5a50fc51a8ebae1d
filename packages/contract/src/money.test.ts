import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_SEN,
  MoneyError,
  addSen,
  floorToYen,
  formatYen,
  parseYenInput,
  sen,
  senToDecimalString,
  yen,
  type Sen,
} from './money.js';
import { z } from 'zod';
import { ZSenAmount } from './api/account.js';

describe('sen()', () => {
  it('accepts safe integers and rejects fractions, NaN and huge values', () => {
    expect(sen(123)).toBe(123);
    expect(sen(10n)).toBe(10);
    for (const bad of [0.1, Number.NaN, Number.POSITIVE_INFINITY, MAX_SEN + 1, 2 ** 60]) {
      expect(() => sen(bad)).toThrow(MoneyError);
    }
  });
});

describe('parseYenInput', () => {
  it.each([
    ['1234', 123_400],
    ['1,234', 123_400],
    ['1,234.5', 123_450],
    ['１２３４', 123_400],
    ['¥10,000', 1_000_000],
    ['0.01', 1],
    [' 7 ', 700],
  ])('reads %s as %i sen', (text, expected) => {
    expect(parseYenInput(text)).toBe(expected);
  });

  it('reads the comma decimal separator of es and fr', () => {
    expect(parseYenInput('1.234,5', ',')).toBe(123_450);
    expect(parseYenInput('1 234,05', ',')).toBe(123_405);
  });

  it.each(['', 'abc', '1.234', '-5', '1e3', '0.001', '12..3'])('refuses %j', (text) => {
    expect(parseYenInput(text)).toBeNull();
  });

  it('round-trips every amount through its decimal string (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 15 }), (n) => {
        expect(parseYenInput(senToDecimalString(sen(n)))).toBe(n);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('rounding and formatting', () => {
  it('floors to the yen toward negative infinity', () => {
    expect(floorToYen(sen(12_399))).toBe(12_300);
    expect(floorToYen(sen(-1))).toBe(-100);
  });

  it('adds exactly', () => {
    expect(addSen(sen(10), sen(20), sen(-5))).toBe(25);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -(10 ** 12), max: 10 ** 12 }), { maxLength: 50 }), (values) => {
        expect(addSen(...values.map((v) => sen(v)))).toBe(values.reduce((a, b) => a + b, 0));
      }),
    );
  });

  it('formats whole yen by default and prices with decimals, in the locale', () => {
    expect(formatYen(yen(1_234_567), 'ja')).toBe('￥1,234,567');
    expect(formatYen(yen(1_234_567), 'en')).toBe('¥1,234,567');
    expect(formatYen(sen(123_456), 'en', 1)).toBe('¥1,234.5');
    expect(formatYen(sen(199), 'en')).toBe('¥1');
  });
});

describe('ZSenAmount (money on the wire)', () => {
  it('parses what sen() accepts, as Sen, and refuses what it refuses', () => {
    const parsed: Sen = ZSenAmount.parse(123_456);
    expect(parsed).toBe(sen(123_456));
    expect(ZSenAmount.parse(-MAX_SEN)).toBe(sen(-MAX_SEN));
    for (const bad of [1.5, MAX_SEN + 1, -MAX_SEN - 1, Number.NaN, 2 ** 60]) {
      expect(ZSenAmount.safeParse(bad).success, String(bad)).toBe(false);
      expect(() => sen(bad)).toThrow(MoneyError);
    }
    // A number as text is not money on the wire.
    expect(ZSenAmount.safeParse('100').success).toBe(false);
  });

  it('stays a plain integer in JSON Schema: the wire format does not change', () => {
    expect(z.toJSONSchema(ZSenAmount)).toMatchObject({
      type: 'integer',
      minimum: -MAX_SEN,
      maximum: MAX_SEN,
    });
  });
});
