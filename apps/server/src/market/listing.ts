import { createHash } from 'node:crypto';
import type { IsoDate } from './calendar.js';
import type { DayBar } from './intraday.js';
import type { PriceGrid } from './price-grid.js';
import { Rng } from './random.js';

/**
 * A listed IPO as the simulated market trades it (issue 16, ADR 0035): from its listing date the issuer's code
 * is an instrument of the simulator, whose first day is drawn by the written rule below from the offering's
 * id and its draw seed (published at the draw, committed by its hash before any application), so anyone can
 * recompute it and nobody, operators included, chooses it.
 */
export interface NewListing {
  code: string;
  /** the issuer's name as the offering published it */
  name: string;
  offeringId: number;
  /** the draw seed (64 hex digits), revealed at the draw */
  seed: string;
  /** 公開価格 in sen: the first day's base price (基準値段), its price limits' reference */
  offerPrice: number;
  /** the Tokyo business day of the listing */
  listingDate: IsoDate;
  /** shares the offering sold (this firm's part): the scale of the first day's volume */
  offeredShares: number;
}

/** Annual volatility of a new listing's walk after its first day (IPOs move more than the market). */
export const LISTING_ANN_VOLATILITY = 0.6;
/** The first day's opening premium over the offer price: log return mean and spread (ADR 0035). */
export const FIRST_DAY_OPEN_MEAN = 0.25;
export const FIRST_DAY_OPEN_SPREAD = 0.35;
/** The first day's move from the open to the close: log return spread. */
export const FIRST_DAY_CLOSE_SPREAD = 0.12;

/**
 * The stream key of a listing: the first four bytes (big-endian) of
 * SHA-256("kabuto-listing-v1|" + offering id + "|" + seed hex). The same offering and seed give the same
 * key, hence the same first day and the same minute path, in every process and after every restart.
 */
export function listingKey(offeringId: number, seed: string): number {
  return createHash('sha256').update(`kabuto-listing-v1|${offeringId}|${seed}`).digest().readUInt32BE(0);
}

function clamp(value: number, lower: number, upper: number): number {
  return Math.min(upper, Math.max(lower, value));
}

/**
 * The first day's bar (初値 and the day), from the listing key alone:
 *   base = offer price; lower, upper = its daily limits (MARKET.md), every price below rounded to a tick;
 *   open  = round(clamp(base · exp(0.25 + 0.35 · z1)))           (the opening auction's price)
 *   close = round(clamp(open · exp(0.12 · z2)))
 *   high  = max(open, close, round_up(clamp(max(open, close) · exp(0.04 · |z3|))))
 *   low   = min(open, close, round_down(clamp(min(open, close) · exp(−0.04 · |z4|))))
 *   volume = offered shares · (1 + 3u), in whole lots of 100
 * with z1..z4 the first four normals and u the next uniform of Rng(listingKey). No trade happens before the
 * opening auction: the simulator gives the stock no quote before 9:00 of its listing date.
 */
export function firstDayBar(l: NewListing, grid: PriceGrid): DayBar {
  const rng = new Rng(listingKey(l.offeringId, l.seed));
  const base = l.offerPrice;
  const { lower, upper } = grid.limits(base);
  const z1 = rng.normal();
  const z2 = rng.normal();
  const z3 = rng.normal();
  const z4 = rng.normal();
  const u = rng.float();
  const open = grid.round(
    clamp(base * Math.exp(FIRST_DAY_OPEN_MEAN + FIRST_DAY_OPEN_SPREAD * z1), lower, upper),
    'nearest',
  );
  const close = grid.round(clamp(open * Math.exp(FIRST_DAY_CLOSE_SPREAD * z2), lower, upper), 'nearest');
  const top = Math.max(open, close);
  const bottom = Math.min(open, close);
  const high = Math.max(top, grid.round(clamp(top * Math.exp(0.04 * Math.abs(z3)), lower, upper), 'up'));
  const low = Math.min(
    bottom,
    grid.round(clamp(bottom * Math.exp(-0.04 * Math.abs(z4)), lower, upper), 'down'),
  );
  const volume = Math.max(100, Math.round((l.offeredShares * (1 + 3 * u)) / 100) * 100);
  return { open, high: Math.min(high, upper), low: Math.max(low, lower), close, volume };
}
