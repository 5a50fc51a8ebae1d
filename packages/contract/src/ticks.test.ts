import { describe, expect, it } from 'vitest';
import { isValidTick, minimumPrice, roundToTick, tickDown, tickSize, tickUp } from './ticks.js';

/** MARKET.md's tick table, in yen, written out again so the test does not trust the code's table. */
const TABLE: readonly [bound: number | null, topix500: number, other: number][] = [
  [1_000, 0.1, 1],
  [3_000, 0.5, 1],
  [5_000, 1, 5],
  [10_000, 1, 10],
  [30_000, 5, 10],
  [50_000, 10, 50],
  [100_000, 10, 100],
  [300_000, 50, 100],
  [500_000, 100, 500],
  [1_000_000, 100, 1_000],
  [3_000_000, 500, 1_000],
  [5_000_000, 1_000, 5_000],
  [10_000_000, 1_000, 10_000],
  [30_000_000, 5_000, 10_000],
  [50_000_000, 10_000, 50_000],
  [null, 10_000, 100_000],
];

const s = (yen: number): number => Math.round(yen * 100);

/** Both sides of every bound, for both tables. */
const boundaryCases = TABLE.flatMap(([bound, t5, other], row) => {
  if (bound === null) return [];
  const next = TABLE[row + 1];
  if (!next) return [];
  return ([true, false] as const).map((isTopix500) => ({
    isTopix500,
    bound,
    tick: isTopix500 ? t5 : other,
    nextTick: isTopix500 ? next[1] : next[2],
  }));
});

describe('tickSize', () => {
  it.each(boundaryCases)(
    'TOPIX500=$isTopix500: ≤ $bound yen → $tick, above → $nextTick',
    ({ isTopix500, bound, tick, nextTick }) => {
      expect(tickSize(s(bound), isTopix500)).toBe(s(tick));
      expect(tickSize(s(bound) - 1, isTopix500)).toBe(s(tick));
      expect(tickSize(s(bound) + 1, isTopix500)).toBe(s(nextTick));
      expect(tickSize(s(bound) + s(nextTick), isTopix500)).toBe(s(nextTick));
    },
  );

  it('uses the first row down to the smallest price and the last row above 50,000,000 yen', () => {
    expect(tickSize(1, true)).toBe(10);
    expect(tickSize(1, false)).toBe(100);
    expect(tickSize(s(80_000_000), true)).toBe(s(10_000));
    expect(tickSize(s(80_000_000), false)).toBe(s(100_000));
  });

  it('rejects non-positive prices', () => {
    expect(() => tickSize(0, true)).toThrow(RangeError);
    expect(() => tickSize(-10, false)).toThrow(RangeError);
    expect(() => tickSize(Number.NaN, false)).toThrow(RangeError);
  });
});

describe('isValidTick', () => {
  it.each(boundaryCases)(
    'TOPIX500=$isTopix500 around $bound yen',
    ({ isTopix500, bound, tick, nextTick }) => {
      expect(isValidTick(s(bound), isTopix500)).toBe(true);
      expect(isValidTick(s(bound) - s(tick), isTopix500)).toBe(true);
      expect(isValidTick(s(bound) + s(nextTick), isTopix500)).toBe(true);
      // one small tick above the bound is on the old grid but not on the new, coarser one
      if (nextTick > tick) expect(isValidTick(s(bound) + s(tick), isTopix500)).toBe(false);
      if (tick > 0.01) expect(isValidTick(s(bound) - 1, isTopix500)).toBe(false);
    },
  );

  it('needs a positive integer of sen', () => {
    expect(isValidTick(15250, true)).toBe(true); // 152.5 yen, 0.1-yen ticks
    expect(isValidTick(15250, false)).toBe(false); // other stocks trade in whole yen there
    expect(isValidTick(0, true)).toBe(false);
    expect(isValidTick(-100, false)).toBe(false);
    expect(isValidTick(100.5, false)).toBe(false);
  });
});

describe('roundToTick', () => {
  it.each(boundaryCases)(
    'TOPIX500=$isTopix500 just above $bound yen rounds to the bound or the next coarse tick',
    ({ isTopix500, bound, nextTick }) => {
      const above = s(bound) + 1;
      expect(roundToTick(above, isTopix500, 'down')).toBe(s(bound));
      expect(roundToTick(above, isTopix500, 'up')).toBe(s(bound) + s(nextTick));
      expect(roundToTick(above, isTopix500, 'nearest')).toBe(s(bound));
      const nearUp = s(bound) + s(nextTick) - 1;
      expect(roundToTick(nearUp, isTopix500, 'nearest')).toBe(s(bound) + s(nextTick));
      for (const mode of ['down', 'up', 'nearest'] as const) {
        expect(roundToTick(s(bound), isTopix500, mode)).toBe(s(bound));
      }
    },
  );

  it('rounds floats from a random walk to valid ticks, ties up', () => {
    expect(roundToTick(15_234.7, true, 'nearest')).toBe(15_230);
    expect(roundToTick(15_235, true, 'nearest')).toBe(15_240);
    expect(roundToTick(15_234.7, true, 'up')).toBe(15_240);
    expect(roundToTick(46_349.9, false, 'nearest')).toBe(46_300);
    expect(roundToTick(46_350, false, 'nearest')).toBe(46_400);
    expect(roundToTick(430_040, false, 'nearest')).toBe(430_000); // 4,300.4 yen, 5-yen ticks
    expect(roundToTick(430_260, false, 'nearest')).toBe(430_500);
  });

  it('never goes below the lowest valid price', () => {
    expect(roundToTick(3, true, 'down')).toBe(10);
    expect(roundToTick(40, false, 'down')).toBe(100);
    expect(minimumPrice(true)).toBe(10);
    expect(minimumPrice(false)).toBe(100);
  });

  it('produces valid ticks for many prices', () => {
    const invalid: number[] = [];
    for (let p = 1; p < 2e9; p = Math.ceil(p * 1.37) + 7) {
      for (const t5 of [true, false]) {
        for (const mode of ['down', 'up', 'nearest'] as const) {
          const r = roundToTick(p, t5, mode);
          if (!isValidTick(r, t5)) invalid.push(p);
          if (mode === 'down' && r > p && p >= minimumPrice(t5)) invalid.push(p);
          if (mode === 'up' && r < p) invalid.push(p);
        }
      }
    }
    expect(invalid).toEqual([]);
  });
});

describe('tickUp and tickDown', () => {
  it('step to the neighbouring valid prices across a band bound', () => {
    expect(tickUp(s(1_000), true)).toBe(s(1_000.5));
    expect(tickDown(s(1_000), true)).toBe(s(999.9));
    expect(tickUp(s(3_000), false)).toBe(s(3_005));
    expect(tickDown(s(3_005), false)).toBe(s(3_000));
    expect(tickDown(minimumPrice(false), false)).toBe(minimumPrice(false));
  });
});
