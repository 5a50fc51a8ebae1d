import type { Sen } from '@kabuto/contract';
import type { IndexId } from './instruments.js';
import type { NewListing } from './listing.js';
import type { MarketClockMode } from './sessions.js';
import type { ParameterBasis } from './universe.js';

/**
 * The market data seam. The simulator (simulator.ts) is the default implementation; a licensed real
 * feed can replace it without touching trading code. Prices are integer sen on valid ticks; volumes
 * are shares; times are ISO 8601 instants (UTC).
 *
 * quote/quotes/indices are synchronous: a streaming feed serves them from the snapshot it keeps up to
 * date from its stream. bars is asynchronous: a real feed fetches history from its vendor.
 */
export interface MarketDataProvider {
  /** true for the simulator; the app must say on screen that prices are simulated */
  readonly simulated: boolean;
  readonly clockMode: MarketClockMode;
  /** the codes this provider quotes */
  readonly codes: readonly string[];
  /** undefined for a code the provider does not quote */
  quote(code: string): Quote | undefined;
  /** quotes for the known codes among `codes`, in the same order */
  quotes(codes: readonly string[]): Quote[];
  /**
   * The order book (板) now: ten levels a side around the quote's bid and ask, what orders execute against
   * (ADR 0024); undefined for a code the provider does not quote.
   */
  board(code: string): Board | undefined;
  /** rejects with UnknownSymbolError for a code the provider does not quote */
  bars(code: string, period: BarPeriod, query?: BarQuery): Promise<Bar[]>;
  /** live events; returns the function that unsubscribes */
  subscribe(listener: MarketListener): () => void;
  /** Nikkei 225 and TOPIX */
  indices(): IndexQuote[];
  /**
   * For a simulated stock, where its simulation parameters come from (ADR 0012), which its page discloses;
   * undefined for a code the provider does not quote or whose prices are not simulated.
   */
  priceBasis(code: string): ParameterBasis | undefined;
  /**
   * The published corporate actions that lower a stock's base price (a dividend on its ex date), the whole
   * set each time (the app loads it from the dividend announcements at start and after each publication).
   * A provider of real prices has them in its feed already and need not implement this.
   */
  setPriceAdjustments?(adjustments: readonly PriceAdjustment[]): void;
  /**
   * The IPOs listed on the simulated market, the whole set each time (the app loads them from the drawn
   * offerings at start and after each draw; ADR 0035): from its listing date each is quoted, charted and
   * traded like any stock. A provider of real prices lists new stocks from its feed and need not implement it.
   */
  setListings?(listings: readonly NewListing[]): void;
  /** starts / stops the live feed (idempotent) */
  start(): void;
  stop(): void;
}

export class UnknownSymbolError extends Error {
  constructor(readonly code: string) {
    super(`no market data for ${code}`);
  }
}

export interface Quote {
  code: string;
  /** last trade price */
  last: Sen;
  bid: Sen;
  ask: Sen;
  /** today's session (or the last session while the market is closed) */
  open: Sen;
  high: Sen;
  low: Sen;
  /**
   * the base price (基準値段): the previous close, or on a dividend's ex date the previous close less the
   * dividend (PriceAdjustment), as the exchange lowers the reference price
   */
  prev_close: Sen;
  /** shares traded in the session */
  volume: number;
  /** value traded in the session (sen) */
  turnover: Sen;
  /** last - prev_close */
  change: Sen;
  /** change as basis points of prev_close, rounded (123 = +1.23%) */
  change_bp: number;
  /** today's daily price limits (base = prev_close) */
  limit_up: Sen;
  limit_down: Sen;
  /** the trading date of the session these figures belong to (YYYY-MM-DD, Tokyo) */
  trading_date: string;
  /** when `last` was current: now while trading, else when trading stopped (older quotes are stale) */
  time: string;
  simulated: boolean;
}

export type BarPeriod = '1m' | '5m' | '7m' | '15m' | '30m' | '45m' | '1d' | '1w' | '1mo' | 'intraday';

export const BAR_PERIODS: readonly BarPeriod[] = [
  '1m',
  '5m',
  '7m',
  '15m',
  '30m',
  '45m',
  '1d',
  '1w',
  '1mo',
  'intraday',
];

export interface BarQuery {
  /** earliest bar start to return (instant; for daily, weekly and monthly bars its Tokyo date) */
  from?: Date | string;
  /** bars as the market stood at this instant (default and at most now) */
  to?: Date | string;
  /** the latest `limit` bars (default DEFAULT_BAR_LIMIT, at most MAX_BAR_LIMIT); ignored by 'intraday' */
  limit?: number;
}

export const DEFAULT_BAR_LIMIT = 500;
export const MAX_BAR_LIMIT = 5_000;

/** One OHLCV bar; the last bar of a series may still be forming. */
export interface Bar {
  /** start of the bar: the minute for minute bars, the session open (9:00) of `date` for longer bars */
  time: string;
  /** Tokyo trading date (first trading date of the week or month for weekly and monthly bars) */
  date: string;
  open: Sen;
  high: Sen;
  low: Sen;
  close: Sen;
  volume: number;
}

/** Index levels are points with two decimals (not money). */
export interface IndexQuote {
  id: IndexId;
  name_ja: string;
  name_en: string;
  level: number;
  open: number;
  high: number;
  low: number;
  prev_close: number;
  change: number;
  change_bp: number;
  trading_date: string;
  time: string;
  simulated: boolean;
}

/** One price level of the order book (板): a price and the shares waiting there. */
export interface BoardLevel {
  price: Sen;
  quantity: number;
}

/** The order book (ADR 0024): BOARD_DEPTH levels a side, one tick apart, within the day's limits. */
export interface Board {
  code: string;
  last: Sen;
  /** from the best ask upward */
  asks: BoardLevel[];
  /** from the best bid downward */
  bids: BoardLevel[];
  /** shares waiting above the last shown ask (OVER) and below the last shown bid (UNDER) */
  over: number;
  under: number;
  trading_date: string;
  time: string;
  simulated: boolean;
}

/** A stock's base price lowered on a date by an amount: a dividend per share on its ex date (権利落ち日). */
export interface PriceAdjustment {
  code: string;
  /** Tokyo trading date from which the price is lower */
  exDate: string;
  /** sen per share */
  amount: Sen;
}

export type MarketEvent = { type: 'quote'; quote: Quote } | { type: 'index'; index: IndexQuote };

export type MarketListener = (event: MarketEvent) => void;
