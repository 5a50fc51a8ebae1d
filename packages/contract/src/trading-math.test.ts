import { describe, expect, it } from 'vitest';
import { collateralFor, feeFor } from './trading-math.js';

describe('feeFor', () => {
  it('is zero on the default schedule', () => {
    expect(feeFor(31_010_000, { bp: 0, min: 0, max: 0 })).toBe(0);
  });
  it.each([
    [31_010_000, 31_000], // ¥310,100 × 0.1% = ¥310.10 → ¥310
    [5_000_000, 10_000], // ¥50,000 × 0.1% = ¥50 → the ¥100 minimum
    [1_000_000_000, 50_000], // ¥10,000,000 × 0.1% = ¥10,000 → the ¥500 cap
  ])('charges %i sen a fee of %i sen (0.1%%, min ¥100, cap ¥500)', (principal, fee) => {
    expect(feeFor(principal, { bp: 10, min: 10_000, max: 50_000 })).toBe(fee);
  });
});

describe('collateralFor', () => {
  it.each([
    [93_030_000, 3, 31_010_000],
    [61_980_000, 2, 30_990_000],
    [100_001, 3, 33_400], // ¥1,000.01 / 3 = ¥333.34 → up to ¥334
    [61_980_000, 1, 61_980_000],
  ])('holds for %i sen at %ix: %i sen', (principal, leverage, collateral) => {
    expect(collateralFor(principal, leverage)).toBe(collateral);
  });
  it('never goes below 30% of the principal', () => {
    expect(collateralFor(1_000_000, 5)).toBe(300_000);
  });
});
