import { describe, expect, it } from 'vitest';
import {
  changeClass,
  formatChangeBp,
  formatPlainPrice,
  formatPoints,
  formatPrice,
  formatPriceAuto,
  formatSignedPrice,
} from './price';

describe('price formatting', () => {
  it('shows prices with the instrument decimals, truncating', () => {
    expect(formatPrice(301_200, 0, 'en')).toBe('¥3,012');
    expect(formatPrice(123_450, 1, 'en')).toBe('¥1,234.5');
    expect(formatPrice(123_459, 1, 'en')).toBe('¥1,234.5');
    expect(formatPlainPrice(123_450, 1, 'ja')).toBe('1,234.5');
    expect(formatPlainPrice(301_299, 0, 'ja')).toBe('3,012');
  });

  it('signs changes', () => {
    expect(formatSignedPrice(1_200, 0, 'en')).toBe('+12');
    expect(formatSignedPrice(-350, 1, 'en')).toBe('-3.5');
    expect(formatSignedPrice(0, 0, 'en')).toBe('0');
    expect(formatChangeBp(123, 'en')).toBe('+1.23%');
    expect(formatChangeBp(-5, 'en')).toBe('-0.05%');
    expect(formatChangeBp(0, 'en')).toBe('0.00%');
    expect(formatChangeBp(-1000, 'fr')).toMatch(/^-10,00\s?%$/u);
    expect(formatPoints(38_123.456, 'en')).toBe('38,123.46');
    expect(formatPoints(-12.5, 'en', true)).toBe('-12.50');
    expect(formatPoints(12.5, 'en', true)).toBe('+12.50');
  });

  it('classes rises and falls', () => {
    expect(changeClass(1)).toBe('price-rise');
    expect(changeClass(-1)).toBe('price-fall');
    expect(changeClass(0)).toBe('price-flat');
  });

  it('shows a price with the decimals it needs: whole yen, a 0.1-yen tick, an average to the sen', () => {
    expect(formatPriceAuto(310_100, 'en')).toBe('¥3,101');
    expect(formatPriceAuto(310_150, 'en')).toBe('¥3,101.5');
    expect(formatPriceAuto(310_163, 'en')).toBe('¥3,101.63');
  });
});
