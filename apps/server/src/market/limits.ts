import { sen, type Sen } from '@kabuto/contract';
import { minimumPrice, roundToTick } from '@kabuto/contract';

/**
 * TSE daily price limits (値幅制限). A row applies when base < its bound (null: no bound). Rows up to a
 * base of 3,000,000 yen are MARKET.md's table; the rows above continue the TSE's published table (the
 * same pattern ×100) so that no base price is left without a limit. Amounts in sen.
 */
export interface LimitRow {
  /** exclusive upper bound of the base price in sen; null for the last row */
  readonly belowSen: number | null;
  readonly limitSen: number;
}

const Y = 100; // sen per yen

export const PRICE_LIMIT_TABLE: readonly LimitRow[] = [
  { belowSen: 100 * Y, limitSen: 30 * Y },
  { belowSen: 200 * Y, limitSen: 50 * Y },
  { belowSen: 500 * Y, limitSen: 80 * Y },
  { belowSen: 700 * Y, limitSen: 100 * Y },
  { belowSen: 1_000 * Y, limitSen: 150 * Y },
  { belowSen: 1_500 * Y, limitSen: 300 * Y },
  { belowSen: 2_000 * Y, limitSen: 400 * Y },
  { belowSen: 3_000 * Y, limitSen: 500 * Y },
  { belowSen: 5_000 * Y, limitSen: 700 * Y },
  { belowSen: 7_000 * Y, limitSen: 1_000 * Y },
  { belowSen: 10_000 * Y, limitSen: 1_500 * Y },
  { belowSen: 15_000 * Y, limitSen: 3_000 * Y },
  { belowSen: 20_000 * Y, limitSen: 4_000 * Y },
  { belowSen: 30_000 * Y, limitSen: 5_000 * Y },
  { belowSen: 50_000 * Y, limitSen: 7_000 * Y },
  { belowSen: 70_000 * Y, limitSen: 10_000 * Y },
  { belowSen: 100_000 * Y, limitSen: 15_000 * Y },
  { belowSen: 150_000 * Y, limitSen: 30_000 * Y },
  { belowSen: 200_000 * Y, limitSen: 40_000 * Y },
  { belowSen: 300_000 * Y, limitSen: 50_000 * Y },
  { belowSen: 500_000 * Y, limitSen: 70_000 * Y },
  { belowSen: 700_000 * Y, limitSen: 100_000 * Y },
  { belowSen: 1_000_000 * Y, limitSen: 150_000 * Y },
  { belowSen: 1_500_000 * Y, limitSen: 300_000 * Y },
  { belowSen: 2_000_000 * Y, limitSen: 400_000 * Y },
  { belowSen: 3_000_000 * Y, limitSen: 500_000 * Y },
  // continuation of the TSE table beyond MARKET.md
  { belowSen: 5_000_000 * Y, limitSen: 700_000 * Y },
  { belowSen: 7_000_000 * Y, limitSen: 1_000_000 * Y },
  { belowSen: 10_000_000 * Y, limitSen: 1_500_000 * Y },
  { belowSen: 15_000_000 * Y, limitSen: 3_000_000 * Y },
  { belowSen: 20_000_000 * Y, limitSen: 4_000_000 * Y },
  { belowSen: 30_000_000 * Y, limitSen: 5_000_000 * Y },
  { belowSen: 50_000_000 * Y, limitSen: 7_000_000 * Y },
  { belowSen: null, limitSen: 10_000_000 * Y },
];

export interface PriceLimits {
  /** lowest price allowed today (ストップ安) */
  readonly lower: Sen;
  /** highest price allowed today (ストップ高) */
  readonly upper: Sen;
}

/** The limit width (±) for a base price (sen). */
export function limitWidth(baseSen: number): Sen {
  if (!Number.isSafeInteger(baseSen) || baseSen <= 0) {
    throw new RangeError(`not a positive base price: ${baseSen}`);
  }
  const row = PRICE_LIMIT_TABLE.find((r) => r.belowSen === null || baseSen < r.belowSen);
  /* c8 ignore next */
  if (!row) throw new RangeError('unreachable: the limit table ends with an open row');
  return sen(row.limitSen);
}

/**
 * Today's price limits from the previous close (the base price). A limit that is not on a valid tick
 * is rounded inward (upper down, lower up) so that it never allows more than the limit width; the lower
 * limit never goes below the lowest valid price (0.1 or 1 yen, by the stock's tick table).
 */
export function priceLimits(prevCloseSen: number, isTopix500: boolean): PriceLimits {
  const width = limitWidth(prevCloseSen);
  const upper = roundToTick(prevCloseSen + width, isTopix500, 'down');
  const rawLower = prevCloseSen - width;
  const lower = rawLower > 0 ? roundToTick(rawLower, isTopix500, 'up') : minimumPrice(isTopix500);
  return { lower, upper };
}

/** Clamps a price into [lower, upper]. */
export function clampToLimits(priceSen: number, limits: PriceLimits): number {
  return Math.min(limits.upper, Math.max(limits.lower, priceSen));
}
