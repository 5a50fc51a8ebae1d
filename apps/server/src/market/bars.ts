import { sen } from '@kabuto/contract';
import { addDays, tokyoInstant } from '../lib/tokyo-time.js';
import type { IsoDate } from './calendar.js';
import type { Bar } from './provider.js';
import { CONTINUOUS_MINUTES, MORNING_MINUTES, TSE_HOURS } from './sessions.js';

/** A bar before branding: prices are integers on the instrument's grid, time in epoch ms. */
export interface RawBar {
  time: number;
  date: IsoDate;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

export function toBar(raw: RawBar): Bar {
  return {
    time: new Date(raw.time).toISOString(),
    date: raw.date,
    open: sen(raw.open),
    high: sen(raw.high),
    low: sen(raw.low),
    close: sen(raw.close),
    volume: raw.volume,
  };
}

/**
 * Merges consecutive bars with the same group into one: first open, highest high, lowest low, last
 * close, summed volume; time and date are the group's start (from `startOf`, default the first bar's).
 */
export function aggregate(
  bars: readonly RawBar[],
  groupOf: (bar: RawBar, i: number) => string,
  startOf: (bar: RawBar, i: number) => number = (bar) => bar.time,
): RawBar[] {
  const out: RawBar[] = [];
  let group: string | undefined;
  let current: RawBar | undefined;
  for (const [i, bar] of bars.entries()) {
    const g = groupOf(bar, i);
    if (current && g === group) {
      current.high = Math.max(current.high, bar.high);
      current.low = Math.min(current.low, bar.low);
      current.close = bar.close;
      current.volume += bar.volume;
    } else {
      current = { ...bar, time: startOf(bar, i) };
      group = g;
      out.push(current);
    }
  }
  return out;
}

/** Monday of the week of a date (weeks run Monday to Sunday). */
export function weekOf(date: IsoDate): IsoDate {
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
  return addDays(date, -((weekday + 6) % 7));
}

export function monthOf(date: IsoDate): string {
  return date.slice(0, 7);
}

/**
 * Index of the closing-auction bar in a day's minute bars (after the CONTINUOUS_MINUTES continuous
 * minutes). As a 1-minute bar it stands alone at 15:30; longer bars fold it into the last bucket.
 */
export const AUCTION_INDEX = CONTINUOUS_MINUTES;

/**
 * Tokyo minute-of-day at which the N-minute bucket holding session minute `index` starts. Buckets are
 * aligned on each session's open (9:00 and 12:30), so the last bucket of a session may be shorter.
 */
export function bucketStartMinute(index: number, minutes: number): number {
  if (index < MORNING_MINUTES) {
    return TSE_HOURS.morningOpen + Math.floor(index / minutes) * minutes;
  }
  const auctionOffset = TSE_HOURS.afternoonClose - TSE_HOURS.afternoonOpen;
  const offset =
    index >= AUCTION_INDEX
      ? minutes === 1
        ? auctionOffset
        : CONTINUOUS_MINUTES - MORNING_MINUTES - 1
      : index - MORNING_MINUTES;
  return TSE_HOURS.afternoonOpen + Math.floor(offset / minutes) * minutes;
}

/** Aggregates one day's 1-minute bars (tagged with their session index) into N-minute bars. */
export function minuteBuckets(
  date: IsoDate,
  bars: readonly { index: number; bar: RawBar }[],
  minutes: number,
): RawBar[] {
  const starts = bars.map((b) => bucketStartMinute(b.index, minutes));
  return aggregate(
    bars.map((b) => b.bar),
    (_bar, i) => String(starts[i]),
    (_bar, i) => tokyoInstant(date, starts[i] ?? 0).getTime(),
  );
}
