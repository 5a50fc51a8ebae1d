import { describe, expect, it } from 'vitest';
import { amountFieldSchema, decimalSeparatorOf, parseAmountInput } from './amount';

describe('amount input', () => {
  it('knows the decimal separator of each language', () => {
    expect(decimalSeparatorOf('ja')).toBe('.');
    expect(decimalSeparatorOf('en')).toBe('.');
    expect(decimalSeparatorOf('fr')).toBe(',');
    expect(decimalSeparatorOf('es')).toBe(',');
  });

  it('reads thousands separators the way the language writes them', () => {
    expect(parseAmountInput('1,107', 'en')).toBe(110_700);
    expect(parseAmountInput('1.107', 'es')).toBe(110_700);
    expect(parseAmountInput('１０，０００', 'ja')).toBe(1_000_000);
    expect(parseAmountInput('abc', 'en')).toBeNull();
  });

  it('gives the contract messages: required, not an amount, not whole yen, positive', () => {
    const schema = amountFieldSchema('ja');
    const message = (text: string) => schema.safeParse(text).error?.issues[0]?.message;
    expect(message('')).toBe('validation.amountRequired');
    expect(message('  ')).toBe('validation.amountRequired');
    expect(message('1万')).toBe('validation.amountWholeYen');
    expect(message('100.5')).toBe('validation.amountWholeYen');
    expect(message('0')).toBe('validation.amountPositive');
    expect(schema.parse('12,345')).toBe(1_234_500);
  });
});
