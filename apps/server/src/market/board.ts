import { BOARD_DEPTH, sen, type Sen } from '@kabuto/contract';
import type { PriceGrid } from './price-grid.js';
import type { Board, BoardLevel, Quote } from './provider.js';
import { dayNumber, mixKeys, Rng } from './random.js';

/**
 * The order book (板, ADR 0024): the levels a quote's stock shows on each side, and the rule by which an
 * order executes against them. Prices are integer sen on valid ticks; quantities are shares in lots of 100.
 */

export const LOT = 100;

/** What the simulated sizes are calibrated on: the stock's typical daily volume and daily volatility. */
export interface BoardCalibration {
  /** typical shares traded a day */
  avgVolume: number;
  /** daily volatility (a fraction: 0.02 = 2%) */
  sigma: number;
  /** the seeded key of the stock (the same seed gives the same book) */
  key: number;
}

/** Sizes grow away from the touch: the tenth level is on average 1 + 9 × LEVEL_GROWTH times the first. */
export const LEVEL_GROWTH = 0.15;
/** Spread of each level's size around its mean (log-normal). */
export const SIZE_DISPERSION = 0.45;
/** Mean touch size as a share of (daily volume × tick ÷ price ÷ daily volatility). */
export const TOUCH_SCALE = 0.25;
/** How long (ms) a level's simulated size holds before the queue is drawn afresh. */
export const SIZE_PERIOD_MS = 3_000;
/** OVER and UNDER count at most this many ticks beyond the shown levels. */
const HIDDEN_TICKS = 200;

/**
 * The mean size (shares) of the level at the touch: a day's volume spread over the ticks a day's move
 * crosses, so a stock whose tick is coarse for its price (few ticks a day) queues more at each tick.
 */
export function touchMeanShares(price: number, tick: number, calibration: BoardCalibration): number {
  const ticksPerDay = Math.max(1, (calibration.sigma * price) / tick);
  return Math.max(LOT, (TOUCH_SCALE * calibration.avgVolume) / ticksPerDay);
}

/** The levels from `first` outward (`step` is grid.up or grid.down), within [lower, upper]. */
function ladder(first: number, step: (p: number) => number, lower: number, upper: number): number[] {
  const prices: number[] = [];
  let p = first;
  while (prices.length < BOARD_DEPTH && p >= lower && p <= upper) {
    prices.push(p);
    const next = step(p);
    if (next === p) break;
    p = next;
  }
  return prices;
}

/**
 * The simulated book of a quote: ten levels a side from the quote's bid and ask, one tick apart by the
 * stock's tick table, none beyond the day's limits; each level's size is drawn (seeded by the stock, the
 * trading day, the SIZE_PERIOD_MS period of the quote's time, the side and the price) around a mean that
 * grows away from the touch, in whole lots.
 */
export function simulatedBoard(quote: Quote, grid: PriceGrid, calibration: BoardCalibration): Board {
  const period = Math.floor(Date.parse(quote.time) / SIZE_PERIOD_MS);
  const day = dayNumber(quote.trading_date);
  const askPrices = ladder(quote.ask, (p) => grid.up(p), quote.limit_down, quote.limit_up);
  const bidPrices = ladder(quote.bid, (p) => grid.down(p), quote.limit_down, quote.limit_up);
  const side = (prices: number[], sideKey: number): BoardLevel[] =>
    prices.map((price, i) => {
      const mean = touchMeanShares(price, Math.abs(grid.up(price) - price) || 1, calibration);
      const rng = new Rng(mixKeys(calibration.key, day, period, sideKey, price));
      const size = mean * (1 + LEVEL_GROWTH * i) * Math.exp(SIZE_DISPERSION * rng.normal());
      return { price: sen(price), quantity: Math.max(1, Math.round(size / LOT)) * LOT };
    });
  const asks = side(askPrices, 0xa5);
  const bids = side(bidPrices, 0xb1);
  const inside = (p: number) => p >= quote.limit_down && p <= quote.limit_up;
  /** OVER / UNDER: the ticks beyond the tenth level up to the limit (at most HIDDEN_TICKS), each a thin queue */
  const hidden = (levels: BoardLevel[], step: (p: number) => number, sideKey: number): number => {
    const outer = levels[levels.length - 1];
    if (levels.length < BOARD_DEPTH || outer === undefined) return 0;
    let ticks = 0;
    for (let p = step(outer.price); ticks < HIDDEN_TICKS && inside(p) && p !== outer.price; p = step(p)) {
      ticks += 1;
      if (step(p) === p) break;
    }
    const rng = new Rng(mixKeys(calibration.key, day, period, sideKey, 0x0e));
    const perTick = (outer.quantity / (1 + LEVEL_GROWTH * (BOARD_DEPTH - 1))) * (0.5 + rng.float());
    return Math.round((ticks * perTick) / LOT) * LOT;
  };
  return {
    code: quote.code,
    last: quote.last,
    asks,
    bids,
    over: hidden(asks, (p) => grid.up(p), 0x0a),
    under: hidden(bids, (p) => grid.down(p), 0x0b),
    trading_date: quote.trading_date,
    time: quote.time,
    simulated: quote.simulated,
  };
}

/** An execution against the book: the shares taken at each level, their total (sen) and average price. */
export interface Execution {
  /** Σ level price × shares taken there: the exact principal (sen) */
  principal: Sen;
  /** the average price, principal ÷ shares rounded half up to the sen (what the order and position show) */
  price: Sen;
  /** the levels taken, from the touch outward */
  fills: BoardLevel[];
}

/**
 * Walks `levels` (the side an order takes: asks for a buy, bids for a sell) from the touch, taking each
 * level's shares until `quantity` is filled, never past `limit` (a buy takes no ask above it, a sell no bid
 * below it; null for a market order). Null when the levels within the limit hold fewer than `quantity`
 * shares: the order does not fill now (all or nothing, ADR 0024).
 */
export function walkBook(
  levels: readonly BoardLevel[],
  quantity: number,
  side: 'buy' | 'sell',
  limit: number | null,
): Execution | null {
  if (!(quantity > 0)) return null;
  let left = quantity;
  let principal = 0;
  const fills: BoardLevel[] = [];
  for (const level of levels) {
    if (left === 0) break;
    if (limit !== null && (side === 'buy' ? level.price > limit : level.price < limit)) break;
    const take = Math.min(left, level.quantity);
    if (take <= 0) continue;
    principal += level.price * take;
    left -= take;
    fills.push({ price: level.price, quantity: take });
  }
  if (left > 0) return null;
  return { principal: sen(principal), price: averagePrice(principal, quantity), fills };
}

/** principal ÷ quantity rounded half up to the sen (both positive integers, so exact in integers). */
export function averagePrice(principal: number, quantity: number): Sen {
  return sen(Math.floor((2 * principal + quantity) / (2 * quantity)));
}

/** The shares the levels within `limit` hold (all of them for null). */
export function depthWithin(
  levels: readonly BoardLevel[],
  side: 'buy' | 'sell',
  limit: number | null,
): number {
  let total = 0;
  for (const level of levels) {
    if (limit !== null && (side === 'buy' ? level.price > limit : level.price < limit)) break;
    total += level.quantity;
  }
  return total;
}
