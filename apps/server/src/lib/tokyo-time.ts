import { MARKET_TIME_ZONE } from '@kabuto/contract';

/** Calendar fields of an instant as seen in Asia/Tokyo (UTC+9 all year: Japan has no daylight saving). */
export interface TokyoParts {
  /** YYYY-MM-DD */
  date: string;
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** 0 = Sunday … 6 = Saturday */
  weekday: number;
  /** minutes since Tokyo midnight */
  minuteOfDay: number;
}

const TOKYO_OFFSET_MS = 9 * 60 * 60 * 1000;

export function tokyoParts(at: Date): TokyoParts {
  const shifted = new Date(at.getTime() + TOKYO_OFFSET_MS);
  const year = shifted.getUTCFullYear();
  const month = shifted.getUTCMonth() + 1;
  const day = shifted.getUTCDate();
  const hour = shifted.getUTCHours();
  const minute = shifted.getUTCMinutes();
  return {
    date: `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
    year,
    month,
    day,
    hour,
    minute,
    second: shifted.getUTCSeconds(),
    weekday: shifted.getUTCDay(),
    minuteOfDay: hour * 60 + minute,
  };
}

/** The UTC instant of a Tokyo wall-clock time on a Tokyo date (YYYY-MM-DD). */
export function tokyoInstant(date: string, minuteOfDay: number): Date {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d, 0, minuteOfDay) - TOKYO_OFFSET_MS);
}

/** Adds whole days to a Tokyo date string. */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const t = new Date(Date.UTC(y, m - 1, d + days));
  return t.toISOString().slice(0, 10);
}

export function parseHHMM(hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number) as [number, number];
  return h * 60 + m;
}

export const TIME_ZONE = MARKET_TIME_ZONE;
