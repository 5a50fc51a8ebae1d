import { NAV_UNITS, PPM, PRODUCT_CUTOFF, WEIGHT_TOTAL_BP } from '@kabuto/contract';
import { isBusinessDay, nextBusinessDay, previousBusinessDay } from '../../market/calendar.js';
import type { MarketDataProvider } from '../../market/provider.js';
import { addDays, parseHHMM, tokyoInstant, tokyoParts } from '../../lib/tokyo-time.js';

/**
 * The written rules of the follow-up products' valuation (ADR 0027), kept free of the database so that the
 * scenario and property tests check them by hand.
 *
 * The fund holds its constituents in their target weights, rebalanced to them at every strike (each
 * business day's close): so from one strike to the next its value moves by the weighted average of the
 * constituents' price ratios. The annual management fee accrues daily over a 365-day year, for every
 * calendar day since the previous strike (a weekend or a holiday accrues too), inside the NAV:
 *
 *   NAV_D = round( NAV_prev × Σ_i (w_i / 10,000 × close_i,D / close_i,prev) × (1 − management_rate_ppm × days / (10^6 × 365)) )
 *
 * rounded half up to the sen (per NAV_UNITS units).
 */
export function strikeNav(input: {
  prevNav: number;
  constituents: readonly { code: string; weight_bp: number }[];
  prevCloses: Readonly<Record<string, number>>;
  closes: Readonly<Record<string, number>>;
  feePpm: number;
  days: number;
}): number {
  let growth = 0;
  for (const c of input.constituents) {
    const prev = input.prevCloses[c.code];
    const close = input.closes[c.code];
    if (!prev || !close) throw new Error(`no closing price for ${c.code}`);
    growth += (c.weight_bp / WEIGHT_TOTAL_BP) * (close / prev);
  }
  const fee = 1 - (input.feePpm * input.days) / (PPM * 365);
  return Math.round(input.prevNav * growth * fee);
}

/** Calendar days between two Tokyo dates (YYYY-MM-DD). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/**
 * Units bought with `amount` sen at `nav`: whole units, floored, and what they cost, floored to the sen, so
 * that the holder never pays more than the units' value at the NAV; the rest of the amount goes back to cash.
 */
export function unitsFor(amount: number, nav: number): { units: number; cost: number; refund: number } {
  const units = Number((BigInt(amount) * BigInt(NAV_UNITS)) / BigInt(nav));
  const cost = Number((BigInt(units) * BigInt(nav)) / BigInt(NAV_UNITS));
  return { units, cost, refund: amount - cost };
}

/** What `units` are worth at `nav`, rounded up to the sen (redemption proceeds and shown values). */
export function valueOf(units: number, nav: number): number {
  const product = BigInt(units) * BigInt(nav);
  const whole = product / BigInt(NAV_UNITS);
  return Number(product % BigInt(NAV_UNITS) === 0n ? whole : whole + 1n);
}

const CUTOFF_MINUTE = parseHHMM(PRODUCT_CUTOFF);

/**
 * The NAV date an order placed at `at` gets (blind pricing): that day's when placed on a business day before
 * the cutoff, else the next business day's.
 */
export function navDateFor(at: Date): string {
  const t = tokyoParts(at);
  if (isBusinessDay(t.date) && t.minuteOfDay < CUTOFF_MINUTE) return t.date;
  return nextBusinessDay(t.date);
}

/** The latest business date whose strike time (the cutoff, at the close) has passed at `at`. */
export function lastStrikeDate(at: Date): string {
  const t = tokyoParts(at);
  if (isBusinessDay(t.date) && t.minuteOfDay >= CUTOFF_MINUTE) return t.date;
  return previousBusinessDay(t.date);
}

/** When the NAV of `date` is struck. */
export const strikeTime = (date: string): Date => tokyoInstant(date, CUTOFF_MINUTE);

/**
 * A stock's closing price (sen) of a Tokyo date: the quote's last price when the quote's session is that
 * date (the job runs after the close), else the daily bar of that date (or the latest before it: a stock that
 * did not trade keeps its last close).
 */
export async function closeOf(market: MarketDataProvider, code: string, date: string): Promise<number> {
  const quote = market.quote(code);
  if (quote && quote.trading_date === date) return quote.last;
  const bars = await market.bars(code, '1d', { to: tokyoInstant(addDays(date, 1), 0), limit: 5 });
  const bar = [...bars].reverse().find((b) => b.date <= date);
  if (bar) return bar.close;
  if (quote) return quote.last;
  throw new Error(`no closing price for ${code} on ${date}`);
}
