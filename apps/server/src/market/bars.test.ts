import { describe, expect, it } from 'vitest';
import { tokyoInstant } from '../lib/tokyo-time.js';
import {
  aggregate,
  AUCTION_INDEX,
  bucketStartMinute,
  minuteBuckets,
  monthOf,
  toBar,
  weekOf,
  type RawBar,
} from './bars.js';

const bar = (date: string, time: number, o: number, h: number, l: number, c: number, v: number): RawBar => ({
  time,
  date,
  open: o,
  high: h,
  low: l,
  close: c,
  volume: v,
});

describe('aggregate', () => {
  it('merges consecutive bars of a group: first open, extremes, last close, summed volume', () => {
    const bars = [
      bar('2026-02-02', 1, 100, 120, 90, 110, 100),
      bar('2026-02-03', 2, 110, 130, 105, 125, 200),
      bar('2026-02-09', 3, 125, 126, 80, 85, 300),
    ];
    expect(aggregate(bars, (b) => weekOf(b.date))).toEqual([
      bar('2026-02-02', 1, 100, 130, 90, 125, 300),
      bar('2026-02-09', 3, 125, 126, 80, 85, 300),
    ]);
    expect(bars[0]?.volume).toBe(100); // inputs untouched
  });

  it('brands prices as sen in toBar', () => {
    expect(toBar(bar('2026-02-06', Date.UTC(2026, 1, 6), 1, 2, 1, 2, 100))).toEqual({
      time: '2026-02-06T00:00:00.000Z',
      date: '2026-02-06',
      open: 1,
      high: 2,
      low: 1,
      close: 2,
      volume: 100,
    });
    expect(() => toBar(bar('2026-02-06', 0, 1.5, 2, 1, 2, 0))).toThrow();
  });
});

describe('weekOf and monthOf', () => {
  it.each([
    ['2026-02-09', '2026-02-09'], // Monday
    ['2026-02-13', '2026-02-09'], // Friday
    ['2026-02-15', '2026-02-09'], // Sunday
    ['2026-01-01', '2025-12-29'], // week across the year end
  ])('week of %s starts %s', (date, monday) => {
    expect(weekOf(date)).toBe(monday);
  });

  it('takes the month', () => {
    expect(monthOf('2026-02-28')).toBe('2026-02');
  });
});

describe('bucketStartMinute', () => {
  const hm = (h: number, m: number): number => h * 60 + m;
  it.each([
    [0, 1, hm(9, 0)],
    [149, 1, hm(11, 29)],
    [150, 1, hm(12, 30)],
    [324, 1, hm(15, 24)],
    [AUCTION_INDEX, 1, hm(15, 30)],
    [4, 5, hm(9, 0)],
    [5, 5, hm(9, 5)],
    [149, 5, hm(11, 25)],
    [149, 7, hm(11, 27)],
    [150, 7, hm(12, 30)],
    [324, 5, hm(15, 20)],
    [AUCTION_INDEX, 5, hm(15, 20)],
    [AUCTION_INDEX, 7, hm(15, 18)],
    [AUCTION_INDEX, 45, hm(14, 45)],
    [149, 45, hm(11, 15)],
  ])('session minute %i in %i-minute bars → starts at minute %i', (index, n, start) => {
    expect(bucketStartMinute(index, n)).toBe(start);
  });
});

describe('minuteBuckets', () => {
  it('starts each bucket at its clock time, morning and afternoon separately', () => {
    const date = '2026-02-06';
    const tagged = [148, 149, 150, 151].map((index) => ({
      index,
      bar: bar(date, index, 100 + index, 200 + index, 50, 101 + index, 100),
    }));
    const out = minuteBuckets(date, tagged, 5);
    expect(out.map((b) => b.time)).toEqual([
      tokyoInstant(date, 11 * 60 + 25).getTime(),
      tokyoInstant(date, 12 * 60 + 30).getTime(),
    ]);
    expect(out[0]).toMatchObject({ open: 248, high: 349, close: 250, volume: 200 });
    expect(out[1]).toMatchObject({ open: 250, high: 351, close: 252, volume: 200 });
  });
});
