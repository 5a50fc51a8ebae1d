import type { PriceGrid } from './price-grid.js';
import type { Rng } from './random.js';
import { CONTINUOUS_MINUTES, MORNING_MINUTES } from './sessions.js';

/** Share of the day's volume traded in the 15:30 closing auction. */
export const CLOSING_AUCTION_SHARE = 0.06;

export interface DayBar {
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

/**
 * A column of integer prices (grid units) or share counts: 4 bytes a value while they fit in an Int32Array
 * (prices up to about ¥10 million in sen), else 8. The simulator keeps a path per stock of its universe,
 * so this halves most of its memory.
 */
export type IntColumn = Int32Array | Float64Array;

const INT32_SAFE = 2 ** 30;

export function intColumn(length: number, largest: number): IntColumn {
  return largest < INT32_SAFE ? new Int32Array(length) : new Float64Array(length);
}

/**
 * One day's path of 1-minute bars over the CONTINUOUS_MINUTES minutes of continuous trading, plus the
 * closing auction. point[i] is the price at the start of minute i (point[0] = the day's open,
 * point[CONTINUOUS_MINUTES] = the close); minute i's bar opens at point[i] and closes at point[i+1], so
 * nothing moves between sessions (11:30 → 12:30) and the day's high and low are touched.
 * The prefix arrays give the session's running figures after k complete minutes in O(1).
 */
export interface IntradayPath {
  /** the day's bar the path was made from */
  day: DayBar;
  point: IntColumn;
  high: IntColumn;
  low: IntColumn;
  volume: IntColumn;
  auctionVolume: number;
  /** prefixHigh[k] = highest price of minutes 0..k-1 (prefixHigh[0] = open) */
  prefixHigh: IntColumn;
  prefixLow: IntColumn;
  prefixVolume: IntColumn;
  /** value traded (volume × typical price of each minute) */
  prefixTurnover: Float64Array;
}

/** The bridge's random walk (reused: the simulator is synchronous, and this saves an allocation per bridge). */
let scratch = new Float64Array(512);

/**
 * Fills `out[from..to]` with a Brownian bridge from out[from] to out[to] (which must be set), with
 * steps of standard deviation `step`, then clamps into [lower, upper] and rounds to the grid.
 */
function bridge(
  out: IntColumn,
  from: number,
  to: number,
  step: number,
  rng: Rng,
  grid: PriceGrid,
  lower: number,
  upper: number,
): void {
  const n = to - from;
  if (n <= 1) return;
  const a = out[from] ?? 0;
  const b = out[to] ?? 0;
  if (scratch.length < n + 1) scratch = new Float64Array(2 * (n + 1));
  const walk = scratch;
  walk[0] = 0;
  for (let k = 1; k <= n; k++) walk[k] = (walk[k - 1] ?? 0) + step * rng.normal();
  const end = walk[n] ?? 0;
  for (let k = 1; k < n; k++) {
    const t = k / n;
    const raw = a + (b - a) * t + (walk[k] ?? 0) - t * end;
    out[from + k] = grid.round(Math.min(upper, Math.max(lower, raw)), 'nearest');
  }
}

/**
 * A path of `length` + 1 points from `open` to `close` that touches `high` and `low` at seeded interior
 * points and stays within them. Used for the day (minutes) and for one minute (seconds).
 */
export function anchoredPath(
  bar: Omit<DayBar, 'volume'>,
  length: number,
  step: number,
  rng: Rng,
  grid: PriceGrid,
  out: IntColumn = intColumn(length + 1, bar.high),
): IntColumn {
  const anchors = new Map<number, number>([
    [0, bar.open],
    [length, bar.close],
  ]);
  if (length >= 3) {
    const tHigh = 1 + rng.int(length - 1);
    let tLow = 1 + rng.int(length - 2);
    if (tLow >= tHigh) tLow++;
    anchors.set(tHigh, bar.high);
    anchors.set(tLow, bar.low);
  }
  const times = [...anchors.keys()].sort((x, y) => x - y);
  for (const t of times) out[t] = anchors.get(t) ?? 0;
  for (let i = 1; i < times.length; i++) {
    bridge(out, times[i - 1] ?? 0, times[i] ?? 0, step, rng, grid, bar.low, bar.high);
  }
  return out;
}

/** Relative trading intensity of each continuous minute: a U shape per session. */
function intensity(i: number): number {
  if (i < MORNING_MINUTES) {
    return 1 + (i === 0 ? 8 : 0) + 3 * Math.exp(-i / 8) + 1.2 * Math.exp(-(MORNING_MINUTES - 1 - i) / 10);
  }
  const a = i - MORNING_MINUTES;
  return 1 + 1.5 * Math.exp(-a / 8) + 2 * Math.exp(-(CONTINUOUS_MINUTES - 1 - i) / 15);
}

/**
 * Splits `lots` whole lots over weights in proportion, rounding the running total, so the parts are
 * whole and sum exactly to `lots`.
 */
export function allocate(lots: number, weights: readonly number[]): number[] {
  const total = weights.reduce((a, b) => a + b, 0);
  if (!(total > 0)) return weights.map((_w, i) => (i === 0 ? lots : 0));
  let cumulative = 0;
  let given = 0;
  return weights.map((w, i) => {
    cumulative += w;
    const upTo = i === weights.length - 1 ? lots : Math.min(lots, Math.round((lots * cumulative) / total));
    const part = Math.max(0, upTo - given);
    given += part;
    return part;
  });
}

/**
 * Builds the day's minute path from its daily bar. `sigma` is the daily volatility (as a fraction).
 * Deterministic for `rng`'s key.
 */
export function generateIntraday(day: DayBar, sigma: number, rng: Rng, grid: PriceGrid): IntradayPath {
  const n = CONTINUOUS_MINUTES;
  const step = (0.8 * sigma * Math.max(day.open, day.close)) / Math.sqrt(n);
  // the integer columns share one buffer (one allocation per path instead of seven)
  const ints = intColumn(7 * (n + 1), Math.max(day.high, day.volume));
  const column = (i: number, length: number): IntColumn => ints.subarray(i * (n + 1), i * (n + 1) + length);
  const point = anchoredPath(day, n, step, rng, grid, column(0, n + 1));
  const high = column(1, n);
  const low = column(2, n);
  for (let i = 0; i < n; i++) {
    const o = point[i] ?? 0;
    const c = point[i + 1] ?? 0;
    let h = Math.max(o, c);
    let l = Math.min(o, c);
    const u = rng.float();
    const extraUp = u < 0.1 ? 2 : u < 0.45 ? 1 : 0;
    const v = rng.float();
    const extraDown = v < 0.1 ? 2 : v < 0.45 ? 1 : 0;
    for (let k = 0; k < extraUp && h < day.high; k++) h = Math.min(day.high, grid.up(h));
    for (let k = 0; k < extraDown && l > day.low; k++) l = Math.max(day.low, grid.down(l));
    high[i] = h;
    low[i] = l;
  }
  const weights: number[] = [];
  for (let i = 0; i < n; i++) weights.push(intensity(i) * Math.exp(0.5 * rng.normal()));
  const sumWeights = weights.reduce((a, b) => a + b, 0);
  weights.push((sumWeights * CLOSING_AUCTION_SHARE) / (1 - CLOSING_AUCTION_SHARE));
  const lots = allocate(Math.round(day.volume / 100), weights);
  const volume = column(3, n);
  for (let i = 0; i < n; i++) volume[i] = (lots[i] ?? 0) * 100;
  const auctionVolume = (lots[n] ?? 0) * 100;

  const prefixHigh = column(4, n + 1);
  const prefixLow = column(5, n + 1);
  const prefixVolume = column(6, n + 1);
  const prefixTurnover = new Float64Array(n + 1);
  prefixHigh[0] = day.open;
  prefixLow[0] = day.open;
  for (let i = 0; i < n; i++) {
    const h = high[i] ?? 0;
    const l = low[i] ?? 0;
    const vol = volume[i] ?? 0;
    prefixHigh[i + 1] = Math.max(prefixHigh[i] ?? 0, h);
    prefixLow[i + 1] = Math.min(prefixLow[i] ?? 0, l);
    prefixVolume[i + 1] = (prefixVolume[i] ?? 0) + vol;
    prefixTurnover[i + 1] = (prefixTurnover[i] ?? 0) + vol * Math.round((h + l + (point[i + 1] ?? 0)) / 3);
  }
  return {
    day,
    point,
    high,
    low,
    volume,
    auctionVolume,
    prefixHigh,
    prefixLow,
    prefixVolume,
    prefixTurnover,
  };
}

/** The prices second by second (0-59) inside one minute bar: opens at its open, closes at its close. */
export function secondPath(bar: Omit<DayBar, 'volume'>, rng: Rng, grid: PriceGrid): IntColumn {
  const step = Math.max(bar.high - bar.low, 1) / 6;
  return anchoredPath(bar, 59, step, rng, grid);
}
