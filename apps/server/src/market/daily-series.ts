import type { IsoDate } from './calendar.js';
import type { DayBar } from './intraday.js';
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
  /**
   * The amount (grid units) the day's base price is lowered by from the previous close: a dividend on its
   * ex date (権利落ち日). Undefined or 0 on other days.
   */
  adjustment?: (date: IsoDate) => number;
  /**
   * The whole bar of `refDate`, when it is given rather than drawn: a new listing's first day (listing.ts),
   * whose close is refClose and whose base is prevClose, the offer price.
   */
  anchorDay?: DayBar;
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

/** The base price of a day (its limits' and change's reference): the previous close less the adjustment. */
export function basePrice(prevClose: number, adjustment: number): number {
  return Math.max(1, prevClose - adjustment);
}

/**
 * A previous close on the grid, near `raw`, from which `close` is inside the daily limits (of the base price
 * the previous close less `adjustment` gives, on an ex date).
 */
export function reachablePreviousClose(grid: PriceGrid, close: number, raw: number, adjustment = 0): number {
  let prev = grid.round(Math.max(raw, 1), 'nearest');
  while (close > grid.limits(basePrice(prev, adjustment)).upper) prev = grid.up(prev);
  while (close < grid.limits(basePrice(prev, adjustment)).lower) prev = grid.down(prev);
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
 *
 * Only the closes are kept (8 bytes a day over the days generated so far): a day's open, high, low and
 * volume follow from its close, the close before and the day's draws, and are recomputed when asked.
 *
 * On a day with an adjustment (a dividend's ex date) the walk starts from the base price, the previous close
 * less the dividend, as the exchange lowers the reference price: the day's return, open, limits and change
 * are measured from it, so the whole path from the ex date on is lower by the dividend.
 */
export class DailyWalk {
  /** closes of days base..base + closes.length - 1; known for first-1..last */
  private closes = new Float64Array(64);
  private base: number;
  /** OHLCV is known for days first..last; closes for first-1..last */
  private first: number;
  private last: number;
  private readonly sigma: number;
  private readonly ref: number;

  constructor(
    private readonly days: readonly IsoDate[],
    private readonly p: DailyParams,
  ) {
    const ref = days.indexOf(p.refDate);
    if (ref < 1) throw new RangeError(`the day list must contain ${p.refDate} and the day before it`);
    this.sigma = p.annVolatility / Math.sqrt(SESSIONS_PER_YEAR);
    this.ref = ref;
    if (p.anchorDay && p.anchorDay.close !== p.refClose)
      throw new RangeError('the anchor day must close at refClose');
    this.base = Math.max(0, ref - 32);
    this.setClose(ref, p.refClose);
    this.setClose(ref - 1, p.prevClose);
    this.first = ref;
    this.last = ref;
  }

  /** Makes days from..to (indices into the day list, from ≥ 1) available. */
  ensure(from: number, to: number): void {
    const lowest = Math.max(1, from);
    while (this.first > lowest) {
      const j = this.first - 1;
      const close = this.close(j);
      const adjustment = this.adjustment(j);
      const raw = close / Math.exp(this.draws(j).ret) + adjustment;
      this.setClose(j - 1, reachablePreviousClose(this.p.grid, close, raw, adjustment));
      this.first = j;
    }
    const highest = Math.min(to, this.days.length - 1);
    while (this.last < highest) {
      const j = this.last + 1;
      const base = this.baseOf(j);
      const { lower, upper } = this.p.grid.limits(base);
      this.setClose(j, this.p.grid.round(clamp(base * Math.exp(this.draws(j).ret), lower, upper), 'nearest'));
      this.last = j;
    }
  }

  /** The close of day j (j from first - 1 to last: call ensure first). */
  close(j: number): number {
    if (j < this.first - 1 || j > this.last) throw new RangeError(`day ${j} is not generated`);
    return this.closes[j - this.base] ?? 0;
  }

  /**
   * Day j's base price (基準値段): the close of day j - 1, less day j's adjustment (a dividend on its ex
   * date). Its limits bound day j's prices. (1 ≤ j, generated: call ensure first.)
   */
  baseOf(j: number): number {
    return basePrice(this.close(j - 1), this.adjustment(j));
  }

  /** Day j's bar (1 ≤ j, generated: call ensure first). */
  day(j: number): DayBar {
    if (j === this.ref && this.p.anchorDay) return this.p.anchorDay;
    return this.barOf(j, this.draws(j));
  }

  /** Days generated so far (for tests and measurements). */
  get generated(): { first: number; last: number } {
    return { first: this.first, last: this.last };
  }

  private setClose(j: number, value: number): void {
    const end = this.base + this.closes.length;
    if (j < this.base || j >= end) {
      const slack = Math.max(32, this.closes.length >> 1);
      const base = j < this.base ? Math.max(0, j - slack) : this.base;
      const size = Math.max(end, j + 1 + (j >= end ? slack : 0)) - base;
      const grown = new Float64Array(size);
      grown.set(this.closes, this.base - base);
      this.closes = grown;
      this.base = base;
    }
    this.closes[j - this.base] = value;
  }

  private adjustment(j: number): number {
    return this.p.adjustment?.(this.days[j] ?? '') ?? 0;
  }

  private draws(j: number): DayDraws {
    return drawsFor(this.days[j] ?? '', this.p);
  }

  /** Day j's open, high, low and volume from its previous close, its close and its draws. */
  private barOf(j: number, d: DayDraws): DayBar {
    const { grid, avgVolume } = this.p;
    const sigma = this.sigma;
    const prev = this.baseOf(j);
    const close = this.close(j);
    const { lower, upper } = grid.limits(prev);
    const move = Math.log(close / prev);
    const open = grid.round(
      clamp(prev * Math.exp(0.3 * move + 0.25 * sigma * d.zOpen), lower, upper),
      'nearest',
    );
    const top = Math.max(open, close);
    const bottom = Math.min(open, close);
    // busier on big moves; E|z| ≈ 0.8 keeps the mean near avgVolume; whole lots of 100 shares
    const activity = 0.7 + (0.3 * Math.abs(move)) / (0.8 * sigma);
    const shares = avgVolume * Math.exp(0.35 * d.zVolume - 0.06125) * activity;
    return {
      open,
      high: Math.max(
        top,
        grid.round(clamp(top * Math.exp(0.35 * sigma * Math.abs(d.zHigh)), lower, upper), 'up'),
      ),
      low: Math.min(
        bottom,
        grid.round(clamp(bottom * Math.exp(-0.35 * sigma * Math.abs(d.zLow)), lower, upper), 'down'),
      ),
      close,
      volume: avgVolume > 0 ? Math.max(100, Math.round(shares / 100) * 100) : 0,
    };
  }
}
