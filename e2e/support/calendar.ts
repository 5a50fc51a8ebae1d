import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The exchange's business days for flows that move the server's clock across days: weekends and the
 * holidays of the server's own calendar file (apps/server/market-data/holidays.csv, the year-end closure
 * included), so that a flow never waits on a NAV or a session that a holiday does not have.
 */
const HOLIDAYS = new Set(
  readFileSync(
    join(dirname(fileURLToPath(import.meta.url)), '../../apps/server/market-data/holidays.csv'),
    'utf8',
  )
    .split('\n')
    .slice(1)
    .map((line) => line.split(',')[0] ?? '')
    .filter((date) => /^\d{4}-\d{2}-\d{2}$/.test(date)),
);

/** The first business day on or after a date (YYYY-MM-DD) plus whole calendar days. */
export function businessDay(date: string, plusDays = 0): string {
  let d = new Date(new Date(`${date}T00:00:00Z`).getTime() + plusDays * 86_400_000);
  const closed = (x: Date) =>
    x.getUTCDay() === 0 || x.getUTCDay() === 6 || HOLIDAYS.has(x.toISOString().slice(0, 10));
  while (closed(d)) d = new Date(d.getTime() + 86_400_000);
  return d.toISOString().slice(0, 10);
}
