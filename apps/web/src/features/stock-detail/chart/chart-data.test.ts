import { sen, type TBar, type TQuote } from '@kabuto/contract';
import { describe, expect, it } from 'vitest';
import {
  applyQuote,
  bucketStartMs,
  mergeWorkBars,
  movingAverage,
  movingAverageAt,
  tickChanges,
  toWorkBars,
  TOKYO_OFFSET_S,
  type WorkBar,
} from './chart-data';

const bar = (time: string, date: string, close: number, volume = 100): TBar => ({
  time,
  date,
  open: sen(close),
  high: sen(close),
  low: sen(close),
  close: sen(close),
  volume,
});
const quote = (time: string, last: number, volume: number, trading_date = '2026-01-05') =>
  ({
    code: '7203',
    time,
    last,
    volume,
    trading_date,
    open: 1000,
    high: last,
    low: last,
  }) as unknown as TQuote;

describe('chart data', () => {
  it('shifts minute bars to Tokyo wall time and keeps dates for daily bars', () => {
    const [m] = toWorkBars([bar('2026-01-05T00:00:00.000Z', '2026-01-05', 100)], '5m');
    expect(m?.time).toBe(Date.parse('2026-01-05T00:00:00Z') / 1000 + TOKYO_OFFSET_S);
    const [d] = toWorkBars([bar('2026-01-04T15:00:00.000Z', '2026-01-05', 100)], '1d');
    expect(d?.time).toBe('2026-01-05');
  });

  it('computes moving averages', () => {
    const bars = toWorkBars(
      [1, 2, 3, 4].map((c, i) => bar(`2026-01-0${i + 1}T00:00:00.000Z`, `2026-01-0${i + 1}`, c)),
      '1d',
    );
    expect(movingAverage(bars, 2)).toEqual([undefined, 1.5, 2.5, 3.5]);
  });

  it('aligns buckets on 9:00 and 12:30 Tokyo', () => {
    // 9:16 Tokyo = 00:16Z → 7-minute bucket 9:14
    expect(new Date(bucketStartMs(Date.parse('2026-01-05T00:16:30Z'), 7)).toISOString()).toBe(
      '2026-01-05T00:14:00.000Z',
    );
    // 12:44 Tokyo = 03:44Z → 30-minute bucket 12:30
    expect(new Date(bucketStartMs(Date.parse('2026-01-05T03:44:00Z'), 30)).toISOString()).toBe(
      '2026-01-05T03:30:00.000Z',
    );
  });

  it('updates the forming bar and starts a new one at the period boundary', () => {
    const bars: WorkBar[] = toWorkBars([bar('2026-01-05T00:00:00.000Z', '2026-01-05', 1000, 50)], '5m');
    const opts = { alwaysOpen: false, previousVolume: 1000 };
    expect(applyQuote(bars, quote('2026-01-05T00:03:00Z', 1010, 1100), '5m', opts).kind).toBe('update');
    expect(bars[0]).toMatchObject({ close: 1010, high: 1010, low: 1000, volume: 150 });
    const r = applyQuote(bars, quote('2026-01-05T00:05:01Z', 990, 1120), '5m', {
      alwaysOpen: false,
      previousVolume: 1100,
    });
    expect(r.kind).toBe('append');
    expect(bars).toHaveLength(2);
    expect(bars[1]).toMatchObject({ open: 990, close: 990, volume: 20 });
    expect(bars[1]?.startMs).toBe(Date.parse('2026-01-05T00:05:00Z'));
  });

  it('only updates the last bar in always-open mode', () => {
    const bars = toWorkBars([bar('2026-01-05T00:00:00.000Z', '2026-01-05', 1000)], '1m');
    const r = applyQuote(bars, quote('2026-01-05T14:00:00Z', 1005, 10), '1m', {
      alwaysOpen: true,
      previousVolume: null,
    });
    expect(r.kind).toBe('update');
    expect(bars).toHaveLength(1);
    expect(bars[0]?.close).toBe(1005);
  });

  it('starts a new daily bar on a new trading date', () => {
    const bars = toWorkBars([bar('2026-01-04T15:00:00.000Z', '2026-01-05', 1000)], '1d');
    expect(
      applyQuote(bars, quote('x', 1001, 500), '1d', { alwaysOpen: false, previousVolume: null }).kind,
    ).toBe('update');
    expect(bars[0]?.volume).toBe(500);
    const r = applyQuote(bars, quote('x', 1002, 10, '2026-01-06'), '1d', {
      alwaysOpen: false,
      previousVolume: 500,
    });
    expect(r.kind).toBe('append');
    expect(bars[1]?.time).toBe('2026-01-06');
  });
});

describe('mergeWorkBars', () => {
  const bar = (time: number, close: number): WorkBar => ({
    time,
    startMs: time * 1000,
    date: '2026-01-05',
    open: 100,
    high: Math.max(100, close),
    low: Math.min(100, close),
    close,
    volume: 10,
  });

  it('keeps the drawn bars in front and marks only changed and new bars', () => {
    const old = [bar(60, 100), bar(120, 101), bar(180, 102)];
    const merge = mergeWorkBars(old, [bar(120, 101), bar(180, 105), bar(240, 103)]);
    expect(merge?.work.map((b) => b.time)).toEqual([60, 120, 180, 240]);
    expect(merge?.from).toBe(2);
    expect([...(merge?.changed ?? [])]).toEqual([2, 3]);
  });

  it('gives up when a drawn bar is missing or the fetch starts earlier', () => {
    const old = [bar(120, 100), bar(180, 101)];
    expect(mergeWorkBars(old, [bar(60, 100), bar(120, 100)])).toBeNull();
    expect(mergeWorkBars(old, [bar(120, 100), bar(240, 101)])).toBeNull();
    expect(mergeWorkBars([], [bar(120, 100)])).toBeNull();
  });

  it('computes one moving average point', () => {
    const bars = [bar(60, 100), bar(120, 200), bar(180, 300)];
    expect(movingAverageAt(bars, 1, 3)).toBeUndefined();
    expect(movingAverageAt(bars, 2, 3)).toBe(200);
  });

  it('updates only the series a tick changed', () => {
    const drawn = {
      time: 100,
      open: 1000,
      high: 1010,
      low: 990,
      close: 1005,
      volume: 500,
      ma: [1001, undefined],
    };
    const all = { price: true, volume: true, ma: [true, true] };
    expect(tickChanges(null, drawn)).toEqual(all);
    expect(tickChanges(drawn, { ...drawn, time: 160 })).toEqual(all);
    // More shares at the same price: the volume only.
    expect(tickChanges(drawn, { ...drawn, volume: 600 })).toEqual({
      price: false,
      volume: true,
      ma: [false, false],
    });
    // A new price: the bar and the average that moved.
    expect(tickChanges(drawn, { ...drawn, close: 1006, volume: 600, ma: [1001.2, undefined] })).toEqual({
      price: true,
      volume: true,
      ma: [true, false],
    });
    // Nothing new.
    expect(tickChanges(drawn, { ...drawn, ma: [1001, undefined] })).toEqual({
      price: false,
      volume: false,
      ma: [false, false],
    });
    // The close crosses the open: the histogram's colour changes though the volume does not.
    expect(tickChanges(drawn, { ...drawn, close: 999, low: 990 }).volume).toBe(true);
  });
});
