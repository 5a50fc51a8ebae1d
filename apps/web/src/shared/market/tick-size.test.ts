import { describe, expect, it } from 'vitest';
import { isOnTick, stepDown, stepUp, TICK_TABLE, tickSize } from './tick-size';

const yen = (y: number) => Math.round(y * 100);

/** MARKET.md's table, as written there (yen): bound, TOPIX500 tick, other tick. */
const TABLE: [number | null, number, number][] = [
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

describe('tick size (TSE table)', () => {
  it('has the rows of MARKET.md', () => {
    expect(TICK_TABLE).toHaveLength(TABLE.length);
  });

  describe.each(TABLE.map((row, i) => [i, ...row] as const))(
    'row %i (≤ %s yen)',
    (i, bound, topix, other) => {
      const lower = i === 0 ? 0 : (TABLE[i - 1]?.[0] ?? 0);
      it('applies at the bound itself', () => {
        if (bound === null) return;
        expect(tickSize(yen(bound), true)).toBe(yen(topix));
        expect(tickSize(yen(bound), false)).toBe(yen(other));
      });
      it('applies one sen above the previous bound', () => {
        expect(tickSize(yen(lower) + 1, true)).toBe(yen(topix));
        expect(tickSize(yen(lower) + 1, false)).toBe(yen(other));
      });
      it('no longer applies one sen above the bound', () => {
        if (bound === null) return;
        const next = TABLE[i + 1];
        expect(next).toBeDefined();
        expect(tickSize(yen(bound) + 1, true)).toBe(yen(next?.[1] ?? 0));
        expect(tickSize(yen(bound) + 1, false)).toBe(yen(next?.[2] ?? 0));
      });
    },
  );

  it('keeps the 0.1-yen tick in whole sen', () => {
    expect(tickSize(yen(999.9), true)).toBe(10);
    expect(isOnTick(yen(999.9), true)).toBe(true);
    expect(isOnTick(yen(999.9), false)).toBe(false);
    expect(isOnTick(yen(1000.5), true)).toBe(true);
    expect(isOnTick(yen(1000.3), true)).toBe(false);
  });

  it('checks prices on the grid', () => {
    expect(isOnTick(yen(3_005), false)).toBe(true);
    expect(isOnTick(yen(3_001), false)).toBe(false);
    expect(isOnTick(yen(3_001), true)).toBe(true);
    expect(isOnTick(0, true)).toBe(false);
    expect(isOnTick(yen(60_000_000), false)).toBe(true);
    expect(isOnTick(yen(60_050_000), false)).toBe(false);
  });

  it('steps up across a row bound with the coarser tick above it', () => {
    expect(stepUp(yen(2_999), false)).toBe(yen(3_000));
    expect(stepUp(yen(3_000), false)).toBe(yen(3_005));
    expect(stepUp(yen(1_000), true)).toBe(yen(1_000.5));
    expect(stepUp(yen(999.9), true)).toBe(yen(1_000));
    expect(stepUp(yen(3_002), false)).toBe(yen(3_005));
  });

  it('steps down across a row bound with the finer tick below it', () => {
    expect(stepDown(yen(3_005), false)).toBe(yen(3_000));
    expect(stepDown(yen(3_000), false)).toBe(yen(2_999));
    expect(stepDown(yen(1_000.5), true)).toBe(yen(1_000));
    expect(stepDown(yen(1_000), true)).toBe(yen(999.9));
    expect(stepDown(yen(3_002), false)).toBe(yen(3_000));
    expect(stepDown(yen(1), false)).toBe(0);
  });
});
