import { describe, expect, it } from 'vitest';
import { tradingCalendar } from './calendar.js';
import { DailyWalk, type DailyParams } from './daily-series.js';
import { INDEX_GRID, stockGrid } from './price-grid.js';

const days = tradingCalendar().businessDaysBetween('2024-01-01', '2026-12-30');
const params: DailyParams = {
  key: 11,
  marketKey: 22,
  beta: 0.6,
  annVolatility: 0.45,
  grid: stockGrid(false),
  refDate: '2026-02-06',
  refClose: 46_300,
  prevClose: 46_800,
  avgVolume: 1_000_000,
};
const ref = days.indexOf('2026-02-06');

describe('DailyWalk', () => {
  it('keeps the calibration closes on ref_date and the day before', () => {
    const walk = new DailyWalk(days, params);
    walk.ensure(1, days.length - 1);
    expect(walk.close(ref)).toBe(46_300);
    expect(walk.close(ref - 1)).toBe(46_800);
    expect(walk.day(ref).close).toBe(46_300);
  });

  it('gives the same days whatever order they are asked in', () => {
    const whole = new Walk();
    whole.walk.ensure(1, days.length - 1);
    const pieces = new Walk();
    pieces.walk.ensure(ref + 100, ref + 110);
    pieces.walk.ensure(5, 10);
    pieces.walk.ensure(1, days.length - 1);
    expect(pieces.rows()).toEqual(whole.rows());
  });

  it('walks each close within the previous close’s limits, OHLC consistent, volumes in lots', () => {
    const walk = new DailyWalk(days, params);
    walk.ensure(1, days.length - 1);
    const bad: number[] = [];
    for (let j = 1; j < days.length; j++) {
      const limits = params.grid.limits(walk.close(j - 1));
      const { open: o, high: h, low: l, close: c, volume: v } = walk.day(j);
      if (l < limits.lower || h > limits.upper) bad.push(j);
      if (l > Math.min(o, c) || h < Math.max(o, c)) bad.push(j);
      if (v <= 0 || v % 100 !== 0) bad.push(j);
    }
    expect(bad).toEqual([]);
    const volumes = days.slice(1).map((_d, i) => walk.day(i + 1).volume);
    const mean = volumes.reduce((a, b) => a + b, 0) / (days.length - 1);
    expect(mean).toBeGreaterThan(700_000);
    expect(mean).toBeLessThan(1_400_000);
  });

  it('has roughly the calibrated volatility', () => {
    const walk = new DailyWalk(days, params);
    walk.ensure(1, days.length - 1);
    const returns = days.slice(1).map((_d, i) => Math.log(walk.close(i + 1) / walk.close(i)));
    const mean = returns.reduce((a, b) => a + b, 0) / returns.length;
    const variance = returns.reduce((a, r) => a + (r - mean) ** 2, 0) / (returns.length - 1);
    const annualised = Math.sqrt(variance * 245);
    expect(annualised).toBeGreaterThan(0.45 * 0.8);
    expect(annualised).toBeLessThan(0.45 * 1.2);
  });

  it('extends when the day list grows and works for index levels without limits', () => {
    const list = days.slice(0, ref + 5);
    const walk = new DailyWalk(list, {
      ...params,
      grid: INDEX_GRID,
      refClose: 369_900,
      prevClose: 365_241,
      avgVolume: 0,
    });
    walk.ensure(1, list.length - 1);
    list.push(...days.slice(ref + 5, ref + 10));
    walk.ensure(ref + 9, ref + 9);
    expect(walk.generated).toEqual({ first: 1, last: ref + 9 });
    expect(() => walk.close(ref + 10)).toThrow(RangeError);
    const bars = list.slice(1).map((_d, i) => walk.day(i + 1));
    expect(bars.every((b) => Number.isInteger(b.close) && b.close > 0)).toBe(true);
    expect(bars.every((b) => b.volume === 0)).toBe(true);
  });

  it('refuses a day list without the anchors', () => {
    expect(() => new DailyWalk(['2026-02-06'], params)).toThrow(RangeError);
  });
});

class Walk {
  readonly walk = new DailyWalk(days, params);
  rows(): unknown[] {
    return [this.walk.close(0), ...days.slice(1).map((_d, i) => this.walk.day(i + 1))];
  }
}
