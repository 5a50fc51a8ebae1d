import { describe, expect, it } from 'vitest';
import { DEFAULT_INDICATORS } from './indicator-settings';
import { futureTimes, indicatorData } from './indicator-series';
import type { WorkBar } from './chart-data';

const bar = (time: number | string, close: number): WorkBar => ({
  time,
  startMs: 0,
  date: '',
  open: close,
  high: close + 100,
  low: close - 100,
  close,
  volume: 100,
});

describe('indicator series for the chart', () => {
  it('continues minute bars at their step, daily bars by weekdays, weekly by weeks, monthly by months', () => {
    expect(futureTimes([600, 660], 2)).toEqual([720, 780]);
    // Friday 2026-11-27 → Monday 30, Tuesday 1 December
    expect(futureTimes(['2026-11-26', '2026-11-27'], 2)).toEqual(['2026-11-30', '2026-12-01']);
    expect(futureTimes(['2026-11-16', '2026-11-24'], 1)).toEqual(['2026-12-01']);
    expect(futureTimes(['2026-10-01', '2026-11-02'], 2)).toEqual(['2026-12-01', '2027-01-01']);
  });

  it('draws only what is on; the cloud 26 bars ahead of its bar, the lagging span 26 behind', () => {
    const work = Array.from({ length: 60 }, (_, i) => bar(60 * i, 100_000 + 100 * i));
    expect(indicatorData(work, DEFAULT_INDICATORS)).toEqual({});
    const all = indicatorData(work, {
      ...DEFAULT_INDICATORS,
      ichimoku: true,
      macd: true,
      rsi: true,
      bollinger: true,
    });
    const cloud = all.ichimoku;
    expect(cloud?.spanA).toHaveLength(60);
    // 先行スパン1 of bar 25 (the first with both lines) is drawn at bar 51's time
    expect(cloud?.spanA[25]).toEqual({ time: 60 * 51, value: expect.any(Number) as unknown });
    expect(cloud?.spanA[24]).toEqual({ time: 60 * 50 });
    // the last value of 先行スパン2 lands 26 bars past the last bar
    expect(cloud?.spanB.at(-1)?.time).toBe(60 * 85);
    // 遅行スパン: bar 59's close (¥1,059) drawn at bar 33's time
    expect(cloud?.lagging.at(-1)).toEqual({ time: 60 * 33, value: 1_059 });
    expect(all.rsi?.at(-1)).toEqual({ time: 60 * 59, value: 100 });
    expect(all.macd?.macd[24]).toEqual({ time: 60 * 24 });
    expect(all.bollinger?.middle.at(-1)?.value).toBeCloseTo(1_049.5, 9);
  });
});
