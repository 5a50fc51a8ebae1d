import { dateTimeFormat, MARKET_TIME_ZONE } from '@kabuto/contract';

/** Statement periods as Tokyo calendar dates (YYYY-MM-DD); '' means unbounded. */
export type PeriodPreset = 'today' | 'week' | 'month' | 'all' | 'custom';

export interface Period {
  from: string;
  to: string;
}

/** The Tokyo calendar date of an instant. */
export function tokyoDate(at: Date): string {
  return dateTimeFormat('en-CA', {
    timeZone: MARKET_TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at);
}

/** A calendar date moved by whole days (pure date arithmetic in UTC, no time zone involved). */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number);
  const utc = new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1));
  utc.setUTCDate(utc.getUTCDate() + days);
  return utc.toISOString().slice(0, 10);
}

/** The period of a preset, relative to now in Tokyo: today; the last 7 days including today; this month. */
export function presetPeriod(preset: Exclude<PeriodPreset, 'custom'>, now: Date): Period {
  const today = tokyoDate(now);
  switch (preset) {
    case 'today':
      return { from: today, to: today };
    case 'week':
      return { from: addDays(today, -6), to: today };
    case 'month':
      return { from: `${today.slice(0, 8)}01`, to: today };
    case 'all':
      return { from: '', to: '' };
  }
}

export function isIsoDate(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(value);
}
