import { describe, expect, it } from 'vitest';
import { clampToLimits, limitWidth, priceLimits } from './limits.js';
import { isValidTick } from '@kabuto/contract';

/** MARKET.md's daily limit table (base < bound → limit), in yen, plus the TSE rows above it. */
const TABLE: readonly [below: number | null, limit: number][] = [
  [100, 30],
  [200, 50],
  [500, 80],
  [700, 100],
  [1_000, 150],
  [1_500, 300],
  [2_000, 400],
  [3_000, 500],
  [5_000, 700],
  [7_000, 1_000],
  [10_000, 1_500],
  [15_000, 3_000],
  [20_000, 4_000],
  [30_000, 5_000],
  [50_000, 7_000],
  [70_000, 10_000],
  [100_000, 15_000],
  [150_000, 30_000],
  [200_000, 40_000],
  [300_000, 50_000],
  [500_000, 70_000],
  [700_000, 100_000],
  [1_000_000, 150_000],
  [1_500_000, 300_000],
  [2_000_000, 400_000],
  [3_000_000, 500_000],
  [5_000_000, 700_000],
  [7_000_000, 1_000_000],
  [10_000_000, 1_500_000],
  [15_000_000, 3_000_000],
  [20_000_000, 4_000_000],
  [30_000_000, 5_000_000],
  [50_000_000, 7_000_000],
  [null, 10_000_000],
];

const s = (yen: number): number => Math.round(yen * 100);

const rows = TABLE.map(([below, limit], i) => ({
  from: i === 0 ? 0.01 : (TABLE[i - 1]?.[0] ?? 0),
  below,
  limit,
}));

describe('limitWidth', () => {
  it.each(rows)('base $from to below $below yen → ±$limit', ({ from, below, limit }) => {
    expect(limitWidth(Math.max(1, s(from)))).toBe(s(limit));
    if (below !== null) {
      expect(limitWidth(s(below) - 1)).toBe(s(limit)); // 0.01 yen under the bound
      expect(limitWidth(s(below) - 10)).toBe(s(limit)); // 0.1 yen under the bound
    } else {
      expect(limitWidth(s(from) * 3)).toBe(s(limit));
    }
  });

  it('rejects non-positive or fractional bases', () => {
    expect(() => limitWidth(0)).toThrow(RangeError);
    expect(() => limitWidth(100.5)).toThrow(RangeError);
  });
});

describe('priceLimits', () => {
  it.each([
    // base (yen), TOPIX500, lower, upper
    [1_000, true, 700, 1_300],
    [999.9, true, 849.9, 1_149.5], // 1,149.9 is not a 0.5-yen tick: rounded inward
    [1_000, false, 700, 1_300],
    [2_993, false, 2_493, 3_490], // 3,493 is not a 5-yen tick: rounded inward
    [99, false, 69, 129],
    [100, false, 50, 150],
    [463, false, 383, 543],
    [3_780, true, 3_080, 4_480],
    [152.5, true, 102.5, 202.5],
    [63_500, true, 53_500, 73_500],
    [65_800, true, 55_800, 75_800],
    [9_990, false, 8_490, 11_490],
    [29_990, false, 24_990, 34_950], // 34,990 is not a 50-yen tick
  ])('base %d yen (TOPIX500=%s) → %d to %d', (base, t5, lower, upper) => {
    expect(priceLimits(s(base), t5)).toEqual({ lower: s(lower), upper: s(upper) });
  });

  it('floors the lower limit at the lowest valid price', () => {
    expect(priceLimits(s(20), false)).toEqual({ lower: s(1), upper: s(50) });
    expect(priceLimits(s(20), true)).toEqual({ lower: s(0.1), upper: s(50) });
  });

  it('gives valid ticks never wider than the table for every row', () => {
    const bad: string[] = [];
    for (const { from, below, limit } of rows) {
      const mid = Math.round(((below ?? from * 3) + from) / 2);
      for (const base of [s(Math.max(from, 1)), s(Math.max(from, 1)) + 70, s(mid)]) {
        for (const t5 of [true, false]) {
          const { lower, upper } = priceLimits(base, t5);
          if (!isValidTick(lower, t5) || !isValidTick(upper, t5)) bad.push(`${base} ticks`);
          if (upper - base > s(limit) || (base - lower > s(limit) && lower > s(1))) {
            bad.push(`${base} width`);
          }
          // at 1 yen the lower limit is the base itself: there is no lower price
          if (!(lower <= base && base < upper && (lower < base || base <= s(1)))) {
            bad.push(`${base} order`);
          }
        }
      }
    }
    expect(bad).toEqual([]);
  });

  it('clampToLimits keeps a price inside', () => {
    const limits = priceLimits(s(1_000), true);
    expect(clampToLimits(s(2_000), limits)).toBe(s(1_300));
    expect(clampToLimits(s(10), limits)).toBe(s(700));
    expect(clampToLimits(s(1_010), limits)).toBe(s(1_010));
  });
});
