/**
 * The Tokyo Stock Exchange tick table (MARKET.md "Tick sizes"): a price at or below a row's bound moves
 * by that row's tick. TOPIX500 members (instrument.topix500) have the finer column. Everything is in
 * integer sen (1 yen = 100 sen), so the 0.1-yen tick is 10 sen and no fraction ever appears.
 */
interface TickRow {
  /** the row applies to prices ≤ this bound, in sen (null: every higher price) */
  upToSen: number | null;
  topix500Sen: number;
  otherSen: number;
}

const Y = 100;

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

/** The tick (sen) of a price (sen) for a TOPIX500 member or another stock. */
export function tickSize(priceSen: number, topix500: boolean): number {
  for (const row of TICK_TABLE) {
    if (row.upToSen === null || priceSen <= row.upToSen) return topix500 ? row.topix500Sen : row.otherSen;
  }
  // Unreachable: the last row has no bound.
  return topix500 ? 10_000 * Y : 100_000 * Y;
}

/** Whether a price lies on its tick. */
export function isOnTick(priceSen: number, topix500: boolean): boolean {
  return Number.isSafeInteger(priceSen) && priceSen > 0 && priceSen % tickSize(priceSen, topix500) === 0;
}

/**
 * The next valid price one tick up. The tick of the current price applies, except at a row's bound where
 * the next row's (coarser) tick starts: 3,000 → 3,005 for a non-TOPIX500 stock, since 3,001 is not a tick.
 * A price off the grid moves to the next grid price above it.
 */
export function stepUp(priceSen: number, topix500: boolean): number {
  const tick = tickSize(priceSen + 1, topix500);
  return Math.floor(priceSen / tick) * tick + tick;
}

/** The next valid price one tick down (a price off the grid moves to the grid price below it). */
export function stepDown(priceSen: number, topix500: boolean): number {
  if (priceSen <= 0) return 0;
  const tick = tickSize(priceSen - 1, topix500);
  const below = Math.ceil(priceSen / tick) * tick - tick;
  return Math.max(below, 0);
}
