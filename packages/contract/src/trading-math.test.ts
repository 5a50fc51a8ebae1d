import { describe, expect, it } from 'vitest';
import { collateralFor, feeFor, floorBp, proportionalPart } from './trading-math.js';
import { sen } from './money.js';

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

/**
 * Amounts where a float goes wrong and BigInt does not (each was found by comparing the float formula with
 * the exact one): the products pass 2^53.
 */
describe('exact where a float rounds', () => {
  it('collateral: 30% of ¥8 trillion is exactly 30%, not a yen more', () => {
    const principal = 804_964_808_772_000;
    // (principal × 3,000 / 10,000 / 100) as floats: 2,414,894,426,317.0000002 → ceil adds ¥1
    expect(Math.ceil((principal * 3_000) / 10_000 / 100) * 100).toBe(241_489_442_631_700);
    expect(collateralFor(principal, 5)).toBe(241_489_442_631_600);
    expect(BigInt(collateralFor(principal, 5)) * 10n).toBe(BigInt(principal) * 3n);
  });

  it('collateral: a third of a lot rounds up to the yen, never down', () => {
    expect(collateralFor(100, 3)).toBe(100);
    expect(collateralFor(30_000_000_000_100, 3)).toBe(10_000_000_000_100);
    expect(collateralFor(999_999_999_999_900, 3)).toBe(333_333_333_333_300);
  });

  it("a partial close's share of the collateral is rounded down to the sen, exactly", () => {
    // 637,251,462,768,647 × 1,000 / 1,100 = 579,319,511,607,860.9…; the float product rounds to …861
    expect(Math.floor((637_251_462_768_647 * 1_000) / 1_100)).toBe(579_319_511_607_861);
    expect(proportionalPart(sen(637_251_462_768_647), 1_000, 1_100)).toBe(579_319_511_607_860);
    expect(proportionalPart(sen(856_072_395_322_362), 800, 900)).toBe(760_953_240_286_544);
    // a third of a lot, twice, leaves the rest with the position: nothing lost or made
    const third = proportionalPart(sen(100_000_01), 100, 300);
    expect(third).toBe(33_333_33);
    const nextThird = proportionalPart(sen(100_000_01 - third), 100, 200);
    expect(third + nextThird + (100_000_01 - third - nextThird)).toBe(100_000_01);
    expect(proportionalPart(sen(100_000_01), 300, 300)).toBe(100_000_01);
    expect(() => proportionalPart(sen(1), 1, 0)).toThrow(RangeError);
  });

  it('basis points are floored exactly, losses included', () => {
    expect(floorBp(-1, 3)).toBe(-3_334); // -3,333.3 bp → -3,334, as Math.floor
    expect(floorBp(1, 3)).toBe(3_333);
    expect(floorBp(5, 0)).toBe(0);
    // ¥100 billion and a sen of market value, a hair under 100.01% covered: the float says 10,001 bp
    const value = 10_000_000_000_001;
    const covered = 10_001_000_000_001;
    expect(Math.floor((covered * 10_000) / value)).toBe(10_001);
    expect(floorBp(covered, value)).toBe(10_000);
  });
});
