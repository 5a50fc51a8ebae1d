import type { IsoDate } from './calendar.js';
import type { PriceGrid } from './price-grid.js';
import { Rng, dayNumber, mixKeys } from './random.js';

/** Trading days per year used to turn annual volatility into daily volatility. */
export const SESSIONS_PER_YEAR = 245;

export interface DailyParams {
  /** stream key of the instrument (seed + code) */
  key: number;
  /** stream key of the market-wide factor shared by all instruments (seed) */
  marketKey: number;
  /** weight of the market factor in each day's shock (0: independent, 1: the market itself) */
  beta: number;
  annVolatility: number;
  grid: PriceGrid;
  /** anchors: the close on `refDate` and on the business day before it */
  refDate: IsoDate;
  refClose: number;
  prevClose: number;
  /** mean daily volume in shares (0 for an index) */
  avgVolume: number;
}

/** Daily OHLCV aligned with a list of business days; index 0 only provides the first previous close. */
export interface DailySeries {
  open: number[];
  high: number[];
  low: number[];
  close: number[];
  volume: number[];
}

interface DayDraws {
  /** log return of the close */
  ret: number;
  zOpen: number;
  zHigh: number;
  zLow: number;
  zVolume: number;
}

/** The day's draws depend only on (key, marketKey, date): any day can be recomputed alone. */
function drawsFor(date: IsoDate, p: DailyParams): DayDraws {
  const day = dayNumber(date);
  const sigma = p.annVolatility / Math.sqrt(SESSIONS_PER_YEAR);
  const market = new Rng(mixKeys(p.marketKey, day)).normal();
  const rng = new Rng(mixKeys(p.key, day, 0xda11));
  const own = rng.normal();
  const z = p.beta * market + Math.sqrt(1 - p.beta * p.beta) * own;
  return {
    ret: sigma * z - (sigma * sigma) / 2,
    zOpen: rng.normal(),
    zHigh: rng.normal(),
    zLow: rng.normal(),
    zVolume: rng.normal(),
  };
}

function clamp(value: number, lower: number, upper: number): number {
  return Math.min(upper, Math.max(lower, value));
}

/** A previous close from which `close` is reachable within the daily limits, near `raw`. */
function previousCloseFor(close: number, raw: number, grid: PriceGrid): number {
  let prev = grid.round(Math.max(raw, 1), 'nearest');
  while (close > grid.limits(prev).upper) prev = grid.up(prev);
  while (close < grid.limits(prev).lower) prev = grid.down(prev);
  return prev;
}

/** Fills open, high, low and volume of day j from its previous close and its close. */
function fillDay(s: DailySeries, j: number, d: DayDraws, p: DailyParams): void {
  const prev = s.close[j - 1] ?? 0;
  const close = s.close[j] ?? 0;
  const { lower, upper } = p.grid.limits(prev);
  const sigma = p.annVolatility / Math.sqrt(SESSIONS_PER_YEAR);
  const move = Math.log(close / prev);
  const open = p.grid.round(
    clamp(prev * Math.exp(0.3 * move + 0.25 * sigma * d.zOpen), lower, upper),
    'nearest',
  );
  const top = Math.max(open, close);
  const bottom = Math.min(open, close);
  const high = Math.max(
    top,
    p.grid.round(clamp(top * Math.exp(0.35 * sigma * Math.abs(d.zHigh)), lower, upper), 'up'),
  );
  const low = Math.min(
    bottom,
    p.grid.round(clamp(bottom * Math.exp(-0.35 * sigma * Math.abs(d.zLow)), lower, upper), 'down'),
  );
  s.open[j] = open;
  s.high[j] = high;
  s.low[j] = low;
  // busier on big moves; E|z| ≈ 0.8 keeps the mean near avgVolume; whole lots of 100 shares
  const activity = 0.7 + (0.3 * Math.abs(move)) / (0.8 * sigma);
  const shares = p.avgVolume * Math.exp(0.35 * d.zVolume - 0.06125) * activity;
  s.volume[j] = p.avgVolume > 0 ? Math.max(100, Math.round(shares / 100) * 100) : 0;
}

function fillPlaceholder(s: DailySeries, j: number): void {
  const c = s.close[j] ?? 0;
  s.open[j] = c;
  s.high[j] = c;
  s.low[j] = c;
  s.volume[j] = 0;
}

/**
 * Generates the daily series over `days` (business days, oldest first, containing refDate and the day
 * before it). Closes follow a geometric random walk with daily sigma = annVolatility / sqrt(245),
 * anchored at the two calibration closes and walked forward and backward from them; each close stays
 * within the daily limits of the previous one and on the grid.
 */
export function generateDaily(days: readonly IsoDate[], p: DailyParams): DailySeries {
  const ref = days.indexOf(p.refDate);
  if (ref < 1) throw new RangeError(`the day list must contain ${p.refDate} and the day before it`);
  const s: DailySeries = { open: [], high: [], low: [], close: [], volume: [] };
  s.close[ref] = p.refClose;
  s.close[ref - 1] = p.prevClose;
  const draws: DayDraws[] = [];
  const drawsAt = (j: number): DayDraws => (draws[j] ??= drawsFor(days[j] ?? '', p));
  for (let j = ref - 1; j >= 1; j--) {
    const close = s.close[j] ?? 0;
    s.close[j - 1] = previousCloseFor(close, close / Math.exp(drawsAt(j).ret), p.grid);
  }
  fillPlaceholder(s, 0);
  for (let j = 1; j <= ref; j++) fillDay(s, j, drawsAt(j), p);
  extendDaily(s, days, p);
  return s;
}

/** Appends days added to the end of `days` since the series was generated (forward walk). */
export function extendDaily(s: DailySeries, days: readonly IsoDate[], p: DailyParams): void {
  for (let j = s.open.length; j < days.length; j++) {
    const d = drawsFor(days[j] ?? '', p);
    const prev = s.close[j - 1] ?? 0;
    const { lower, upper } = p.grid.limits(prev);
    s.close[j] = p.grid.round(clamp(prev * Math.exp(d.ret), lower, upper), 'nearest');
    fillDay(s, j, d, p);
  }
}
