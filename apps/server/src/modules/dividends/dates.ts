import { isBusinessDay, nextBusinessDay, previousBusinessDay } from '../../market/calendar.js';
import { addDays, tokyoInstant } from '../../lib/tokyo-time.js';

/**
 * A dividend's dates on the exchange calendar (MARKET.md, ADR 0027). With T+2 settlement the last day to
 * buy with the right (権利付最終日, the cum date) is two business days before the record date (権利確定日);
 * a record date that is not a business day counts from the business day before it (the register closes
 * on it). The ex date (権利落ち日) is the next business day after the cum date.
 */
export function dividendDates(recordDate: string): { cumDate: string; exDate: string } {
  const effective = isBusinessDay(recordDate) ? recordDate : previousBusinessDay(recordDate);
  const cumDate = previousBusinessDay(previousBusinessDay(effective));
  return { cumDate, exDate: nextBusinessDay(cumDate) };
}

/**
 * The end of the cum date: holdings as they stand then are entitled. A trade executed on a Tokyo date after
 * the cum date (the ex date or later) does not change who is entitled.
 */
export const entitlementCutoff = (cumDate: string): Date => tokyoInstant(addDays(cumDate, 1), 0);

/** Business days from `today` to `cumDate` (0 when today is the cum date); null once it has passed. */
export function businessDaysUntil(today: string, cumDate: string): number | null {
  if (cumDate < today) return null;
  let n = 0;
  for (let d = today; d < cumDate; d = addDays(d, 1)) if (isBusinessDay(addDays(d, 1))) n += 1;
  return n;
}

/**
 * 配当落調整金 of a margin position over `gross` = shares × dividend per share (sen): a long receives, and a
 * 制度信用 short pays, the dividend less the 15.315% national rate (gross − floor(gross × 15.315%)); a 一般信用
 * short pays the full dividend, as brokers commonly charge. Answers the signed change of the user's cash.
 */
export function adjustmentOf(
  gross: number,
  direction: 'long' | 'short',
  marginType: 'standard' | 'general',
  nationalRatePcm: number,
): number {
  const net = gross - Number((BigInt(gross) * BigInt(nationalRatePcm)) / 100_000n);
  if (direction === 'long') return net;
  return marginType === 'general' ? -gross : -net;
}
