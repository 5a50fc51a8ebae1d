import { describe, expect, it } from 'vitest';
import { allocate, anchoredPath, generateIntraday, secondPath } from './intraday.js';
import { stockGrid } from './price-grid.js';
import { Rng } from './random.js';
import { CONTINUOUS_MINUTES } from './sessions.js';
import { isValidTick } from '@kabuto/contract';

const grid = stockGrid(true);
const day = { open: 371_600, high: 379_400, low: 368_000, close: 378_000, volume: 16_602_300 };

describe('anchoredPath', () => {
  it('runs from open to close, touching the high and the low and staying between them', () => {
    for (let key = 0; key < 20; key++) {
      const path = Array.from(anchoredPath(day, 100, 300, new Rng(key), grid));
      expect(path).toHaveLength(101);
      expect(path[0]).toBe(day.open);
      expect(path[100]).toBe(day.close);
      expect(Math.max(...path)).toBe(day.high);
      expect(Math.min(...path)).toBe(day.low);
      expect(path.every((p) => isValidTick(p, true))).toBe(true);
    }
  });
});

describe('generateIntraday', () => {
  const path = generateIntraday(day, 0.02, new Rng(5), grid);

  it('makes minute bars that chain and stay inside the day', () => {
    expect(path.point).toHaveLength(CONTINUOUS_MINUTES + 1);
    for (let i = 0; i < CONTINUOUS_MINUTES; i++) {
      const o = path.point[i] ?? 0;
      const c = path.point[i + 1] ?? 0;
      const h = path.high[i] ?? 0;
      const l = path.low[i] ?? 0;
      expect(l).toBeLessThanOrEqual(Math.min(o, c));
      expect(h).toBeGreaterThanOrEqual(Math.max(o, c));
      expect(h).toBeLessThanOrEqual(day.high);
      expect(l).toBeGreaterThanOrEqual(day.low);
      expect(isValidTick(h, true) && isValidTick(l, true)).toBe(true);
    }
    expect(path.prefixHigh[CONTINUOUS_MINUTES]).toBe(day.high);
    expect(path.prefixLow[CONTINUOUS_MINUTES]).toBe(day.low);
  });

  it('splits the day volume in lots with a U shape and a closing auction', () => {
    const total = Array.from(path.volume).reduce((a, b) => a + b, 0) + path.auctionVolume;
    expect(total).toBe(day.volume);
    expect(path.prefixVolume[CONTINUOUS_MINUTES]).toBe(day.volume - path.auctionVolume);
    expect(Array.from(path.volume).every((v) => v % 100 === 0)).toBe(true);
    const avg = (from: number, to: number): number =>
      Array.from(path.volume.subarray(from, to)).reduce((a, b) => a + b, 0) / (to - from);
    expect(avg(0, 10)).toBeGreaterThan(avg(60, 120));
    expect(avg(CONTINUOUS_MINUTES - 10, CONTINUOUS_MINUTES)).toBeGreaterThan(avg(200, 260));
    expect(path.auctionVolume).toBeGreaterThan(day.volume * 0.03);
  });

  it('is deterministic for its key', () => {
    expect(generateIntraday(day, 0.02, new Rng(5), grid)).toEqual(path);
    expect(generateIntraday(day, 0.02, new Rng(6), grid).point).not.toEqual(path.point);
  });
});

describe('secondPath', () => {
  it('has 60 seconds from the minute open to its close through its high and low', () => {
    const bar = { open: 375_000, high: 375_300, low: 374_800, close: 375_100 };
    const s = Array.from(secondPath(bar, new Rng(1), grid));
    expect(s).toHaveLength(60);
    expect([s[0], s[59], Math.max(...s), Math.min(...s)]).toEqual([375_000, 375_100, 375_300, 374_800]);
  });
});

describe('allocate', () => {
  it.each([
    [10, [1, 1, 1]],
    [1, [5, 1, 1]],
    [166_023, [3, 0.5, 9, 1e-9, 2]],
    [0, [1, 2]],
    [7, [0, 0, 0]],
  ])('splits %i lots exactly over %j', (lots, weights) => {
    const parts = allocate(lots, weights);
    expect(parts).toHaveLength(weights.length);
    expect(parts.reduce((a, b) => a + b, 0)).toBe(lots);
    expect(parts.every((p) => Number.isInteger(p) && p >= 0)).toBe(true);
  });
});
