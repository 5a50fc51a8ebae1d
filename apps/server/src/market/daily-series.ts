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

/** A previous close on the grid, near `raw`, from which `close` is inside the daily limits. */
export function reachablePreviousClose(grid: PriceGrid, close: number, raw: number): number {
  let prev = grid.round(Math.max(raw, 1), 'nearest');
  while (close > grid.limits(prev).upper) prev = grid.up(prev);
  while (close < grid.limits(prev).lower) prev = grid.down(prev);
  return prev;
}

function clamp(value: number, lower: number, upper: number): number {
  return Math.min(upper, Math.max(lower, value));
}

/**
 * A daily OHLCV series aligned with a list of business days (oldest first; the list may grow at its end).
 * Closes follow a geometric random walk with daily sigma = annVolatility / sqrt(245), anchored at the two
 * calibration closes (refDate and the business day before it) and walked forward and backward from
 * them; each close stays within the daily limits of the one before and on the grid. Days are generated
 * on demand, outward from the anchors, so asking for recent days does not generate old ones; each day's
 * draws depend only on its date, so the result never depends on the order of the requests.
 */
export class DailyWalk {
  readonly open: number[] = [];
  readonly high: number[] = [];
  readonly low: number[] = [];
  readonly close: number[] = [];
  readonly volume: number[] = [];
  /** OHLCV is known for days first..last; closes for first-1..last */
  private first: number;
  private last: number;
  private readonly sigma: number;

  constructor(
    private readonly days: readonly IsoDate[],
    private readonly p: DailyParams,
  ) {
    const ref = days.indexOf(p.refDate);
    if (ref < 1) throw new RangeError(`the day list must contain ${p.refDate} and the day before it`);
    this.sigma = p.annVolatility / Math.sqrt(SESSIONS_PER_YEAR);
    this.grow();
    this.close[ref] = p.refClose;
    this.close[ref - 1] = p.prevClose;
    this.fillDay(ref, this.draws(ref));
    this.first = ref;
    this.last = ref;
  }

  /** Makes days from..to (indices into the day list, from ≥ 1) available. */
  ensure(from: number, to: number): void {
    this.grow();
    const lowest = Math.max(1, from);
    while (this.first > lowest) {
      const j = this.first - 1;
      const d = this.draws(j);
      const close = this.close[j] ?? 0;
      this.close[j - 1] = reachablePreviousClose(this.p.grid, close, close / Math.exp(d.ret));
      this.fillDay(j, d);
      this.first = j;
    }
    const highest = Math.min(to, this.days.length - 1);
    while (this.last < highest) {
      const j = this.last + 1;
      const d = this.draws(j);
      const prev = this.close[j - 1] ?? 0;
      const { lower, upper } = this.p.grid.limits(prev);
      this.close[j] = this.p.grid.round(clamp(prev * Math.exp(d.ret), lower, upper), 'nearest');
      this.fillDay(j, d);
      this.last = j;
    }
  }

  private grow(): void {
    for (const column of [this.open, this.high, this.low, this.close, this.volume]) {
      while (column.length < this.days.length) column.push(0);
    }
  }

  private draws(j: number): DayDraws {
    return drawsFor(this.days[j] ?? '', this.p);
  }

  /** Fills open, high, low and volume of day j from its previous close and its close. */
  private fillDay(j: number, d: DayDraws): void {
    const { grid, avgVolume } = this.p;
    const sigma = this.sigma;
    const prev = this.close[j - 1] ?? 0;
    const close = this.close[j] ?? 0;
    const { lower, upper } = grid.limits(prev);
    const move = Math.log(close / prev);
    const open = grid.round(
      clamp(prev * Math.exp(0.3 * move + 0.25 * sigma * d.zOpen), lower, upper),
      'nearest',
    );
    const top = Math.max(open, close);
    const bottom = Math.min(open, close);
    this.open[j] = open;
    this.high[j] = Math.max(
      top,
      grid.round(clamp(top * Math.exp(0.35 * sigma * Math.abs(d.zHigh)), lower, upper), 'up'),
    );
    this.low[j] = Math.min(
      bottom,
      grid.round(clamp(bottom * Math.exp(-0.35 * sigma * Math.abs(d.zLow)), lower, upper), 'down'),
    );
    // busier on big moves; E|z| ≈ 0.8 keeps the mean near avgVolume; whole lots of 100 shares
    const activity = 0.7 + (0.3 * Math.abs(move)) / (0.8 * sigma);
    const shares = avgVolume * Math.exp(0.35 * d.zVolume - 0.06125) * activity;
    this.volume[j] = avgVolume > 0 ? Math.max(100, Math.round(shares / 100) * 100) : 0;
  }
}
