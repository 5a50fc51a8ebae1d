import { tradingCalendar } from './calendar.js';
import type { MarketDataProvider } from './provider.js';
import { PTS_HOURS, nextOpen, sessionState } from './sessions.js';
import { tokyoInstant, tokyoParts } from '../lib/tokyo-time.js';

/**
 * When each venue trades: the exchange's continuous session (sessions.ts) or the PTS session (8:20 to 16:00
 * on business days), and from when a waiting order can fill.
 */

/** Whether a venue trades now: the exchange's continuous session, or the PTS session. */
export function venueOpen(
  venue: 'exchange' | 'pts',
  session: { continuous: boolean; pts_open: boolean },
): boolean {
  return venue === 'pts' ? session.pts_open : session.continuous;
}

/** When a waiting order can fill next (null while its venue is open). */
export function fillsFrom(
  market: Pick<MarketDataProvider, 'clockMode'>,
  now: Date,
  venue: 'exchange' | 'pts' = 'exchange',
): Date | null {
  const options = { mode: market.clockMode };
  const session = sessionState(now, options);
  if (venueOpen(venue, session)) return null;
  return venue === 'pts' ? nextPtsOpen(now) : nextOpen(now, options);
}

/** The next start of the PTS session (8:20 on a business day) after `now`. */
export function nextPtsOpen(now: Date): Date {
  const p = tokyoParts(now);
  const calendar = tradingCalendar();
  const today = calendar.isBusinessDay(p.date) && p.minuteOfDay < PTS_HOURS.open;
  return tokyoInstant(today ? p.date : calendar.nextBusinessDay(p.date), PTS_HOURS.open);
}

/** When a PTS application placed at `placedAt` expires: the end (16:00) of the PTS session it waits for. */
export function ptsSessionEnd(placedAt: Date): Date {
  const p = tokyoParts(placedAt);
  const calendar = tradingCalendar();
  const sameDay = calendar.isBusinessDay(p.date) && p.minuteOfDay < PTS_HOURS.close;
  return tokyoInstant(sameDay ? p.date : calendar.nextBusinessDay(p.date), PTS_HOURS.close);
}
