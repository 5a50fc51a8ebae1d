import { dateTimeFormat, MARKET_TIME_ZONE } from '@kabuto/contract';

/** The calendar date in Japan ("2026-11-23"), which is what a transfer date means. */
export function tokyoToday(now: Date = new Date()): string {
  return dateTimeFormat('en-CA', {
    timeZone: MARKET_TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}
