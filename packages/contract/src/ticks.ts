import { sen, type Sen } from './money.js';

/**
 * TSE tick sizes (呼値の単位), from the shared MARKET.md. A row applies when price ≤ its bound; the last
 * row (bound null) applies above the last bound. All amounts in sen (1 yen = 100 sen, 0.1 yen = 10 sen).
 * Each bound is a multiple of the next row's tick, and each tick divides every larger tick, so a price is
 * valid exactly when it is a positive multiple of its own row's tick.
 */
export interface TickRow {
  /** inclusive upper bound in sen; null for "above the previous bound" */
  readonly upToSen: number | null;
  readonly topix500Sen: number;
  readonly otherSen: number;
}

const Y = 100; // sen per yen

export const TICK_TABLE: readonly TickRow[] = [
  { upToSen: 1_000 * Y, topix500Sen: 10, otherSen: 1 * Y },
  { upToSen: 3_000 * Y, topix500Sen: 50, otherSen: 1 * Y },
  { upToSen: 5_000 * Y, topix500Sen: 1 * Y, otherSen: 5 * Y },
  { upToSen: 10_000 * Y, topix500Sen: 1 * Y, otherSen: 10 * Y },
  { upToSen: 30_000 * Y, topix500Sen: 5 * Y, otherSen: 10 * Y },
  { upToSen: 50_000 * Y, topix500Sen: 10 * Y, otherSen: 50 * Y },
  { upToSen: 100_000 * Y, topix500Sen: 10 * Y, otherSen: 100 * Y },
  { upToSen: 300_000 * Y, topix500Sen: 50 * Y, otherSen: 100 * Y },
  { upToSen: 500_000 * Y, topix500Sen: 100 * Y, otherSen: 500 * Y },
  { upToSen: 1_000_000 * Y, topix500Sen: 100 * Y, otherSen: 1_000 * Y },
  { upToSen: 3_000_000 * Y, topix500Sen: 500 * Y, otherSen: 1_000 * Y },
  { upToSen: 5_000_000 * Y, topix500Sen: 1_000 * Y, otherSen: 5_000 * Y },
  { upToSen: 10_000_000 * Y, topix500Sen: 1_000 * Y, otherSen: 10_000 * Y },
  { upToSen: 30_000_000 * Y, topix500Sen: 5_000 * Y, otherSen: 10_000 * Y },
  { upToSen: 50_000_000 * Y, topix500Sen: 10_000 * Y, otherSen: 50_000 * Y },
  { upToSen: null, topix500Sen: 10_000 * Y, otherSen: 100_000 * Y },
];

export type TickRounding = 'down' | 'up' | 'nearest';

/** The tick (sen) of the row a price falls in; no validation (hot path of the simulator). */
function tickOf(priceSen: number, isTopix500: boolean): number {
  for (const row of TICK_TABLE) {
    if (row.upToSen === null || priceSen <= row.upToSen) {
      return isTopix500 ? row.topix500Sen : row.otherSen;
    }
  }
  /* c8 ignore next */
  throw new RangeError('unreachable: the tick table ends with an open row');
}

function checkPrice(priceSen: number): void {
  if (!Number.isFinite(priceSen) || priceSen <= 0) {
    throw new RangeError(`not a positive price: ${priceSen}`);
  }
}

/** The tick size for a price (sen), by the table for TOPIX500 stocks or for other stocks. */
export function tickSize(priceSen: number, isTopix500: boolean): Sen {
  checkPrice(priceSen);
  return sen(tickOf(priceSen, isTopix500));
}

/** The lowest valid price: one tick of the lowest row. */
export function minimumPrice(isTopix500: boolean): Sen {
  return sen(tickOf(1, isTopix500));
}

/** True when the price is a positive integer of sen on a valid tick. */
export function isValidTick(priceSen: number, isTopix500: boolean): boolean {
  if (!Number.isSafeInteger(priceSen) || priceSen <= 0) return false;
  return priceSen % tickOf(priceSen, isTopix500) === 0;
}

/**
 * Rounds a price (sen; any positive finite number, e.g. a float from a random walk) to a valid tick:
 * 'down' gives the largest valid price ≤ the input, 'up' the smallest valid price ≥ it, 'nearest' the
 * closer of the two (a tie goes up). The result is never below the lowest valid price.
 */
export function roundToTick(priceSen: number, isTopix500: boolean, mode: TickRounding): Sen {
  checkPrice(priceSen);
  const tick = tickOf(priceSen, isTopix500);
  const down = Math.max(Math.floor(priceSen / tick) * tick, tickOf(1, isTopix500));
  const up = Math.ceil(priceSen / tick) * tick;
  const result = mode === 'down' ? down : mode === 'up' ? up : priceSen - down < up - priceSen ? down : up;
  return sen(result);
}

/** The next valid price above. */
export function tickUp(priceSen: number, isTopix500: boolean): Sen {
  return roundToTick(Math.floor(priceSen) + 1, isTopix500, 'up');
}

/** The next valid price below (never below the lowest valid price). */
export function tickDown(priceSen: number, isTopix500: boolean): Sen {
  return roundToTick(Math.max(Math.ceil(priceSen) - 1, 1), isTopix500, 'down');
}
