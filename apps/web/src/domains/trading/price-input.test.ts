import { describe, expect, it } from 'vitest';
import { inputToPrice, inputToQuantity, priceToInput } from './price-input';

describe('price and quantity inputs', () => {
  it('shows sen as yen text without floats', () => {
    expect(priceToInput(300_000)).toBe('3000');
    expect(priceToInput(123_450)).toBe('1234.5');
    expect(priceToInput(123_405)).toBe('1234.05');
  });

  it('reads yen text as sen', () => {
    expect(inputToPrice('3000')).toBe(300_000);
    expect(inputToPrice('1,234.5')).toBe(123_450);
    expect(inputToPrice('３０００')).toBe(300_000);
    expect(inputToPrice('0')).toBeNull();
    expect(inputToPrice('abc')).toBeNull();
    expect(inputToPrice('1.234')).toBeNull();
  });

  it('reads whole share quantities', () => {
    expect(inputToQuantity('200')).toBe(200);
    expect(inputToQuantity('1,000')).toBe(1000);
    expect(inputToQuantity('0')).toBeNull();
    expect(inputToQuantity('1.5')).toBeNull();
  });
});
