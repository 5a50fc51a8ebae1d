import { z } from 'zod';
import { BAR_PERIODS } from '../bar-periods.js';
import { ZSenAmount } from './account.js';

/**
 * Market data on the wire. Prices are integer sen on valid ticks; volumes are shares; times are ISO
 * instants. Every quote says whether it is simulated; the app labels simulated prices wherever it shows them.
 * A quote whose `time` is more than STALE_QUOTE_MS old during a session is stale.
 */
export const STALE_QUOTE_MS = 5_000;

export const ZStockCode = z
  .string({ error: 'validation.stockCodeFormat' })
  .trim()
  .regex(/^[0-9][0-9A-Za-z]{3}$/, { error: 'validation.stockCodeFormat' })
  .transform((s) => s.toUpperCase());

export const ZQuote = z.object({
  code: z.string(),
  last: ZSenAmount,
  bid: ZSenAmount,
  ask: ZSenAmount,
  open: ZSenAmount,
  high: ZSenAmount,
  low: ZSenAmount,
  prev_close: ZSenAmount,
  volume: z.number().int(),
  turnover: ZSenAmount,
  change: ZSenAmount,
  /** basis points of prev_close: 123 = +1.23% */
  change_bp: z.number().int(),
  limit_up: ZSenAmount,
  limit_down: ZSenAmount,
  trading_date: z.string(),
  time: z.string(),
  simulated: z.boolean(),
});
export type TQuote = z.infer<typeof ZQuote>;

/** How many price levels the order book (板) shows on each side. */
export const BOARD_DEPTH = 10;

/** One price level of the order book: a price and the shares waiting there (lots of 100). */
export const ZBoardLevel = z.object({ price: ZSenAmount, quantity: z.number().int().min(0) });
export type TBoardLevel = z.infer<typeof ZBoardLevel>;

/**
 * The order book (板, ADR 0024): up to BOARD_DEPTH levels a side, one tick apart, within the day's price
 * limits. `asks` start at the best ask and go up; `bids` start at the best bid and go down. `over` and
 * `under` are the shares waiting beyond the shown levels (OVER above the asks, UNDER below the bids).
 * A market order walks these levels from the touch; the simulated book is labelled `simulated`.
 */
export const ZBoard = z.object({
  code: z.string(),
  last: ZSenAmount,
  asks: z.array(ZBoardLevel),
  bids: z.array(ZBoardLevel),
  over: z.number().int().min(0),
  under: z.number().int().min(0),
  trading_date: z.string(),
  time: z.string(),
  simulated: z.boolean(),
});
export type TBoard = z.infer<typeof ZBoard>;

export const ZInstrument = z.object({
  code: z.string(),
  /** in Japanese for jp, cn and zh-Hant; in English for en, sp and fr */
  name: z.string(),
  name_ja: z.string(),
  name_en: z.string(),
  sector: z.string(),
  market: z.string(),
  /** the tick table the stock follows (TOPIX500 members have finer ticks) */
  topix500: z.boolean(),
  nikkei225: z.boolean(),
  /** in the demo universe: has prices and can be traded */
  tradable: z.boolean(),
  /** decimals its prices need on screen (0.1-yen ticks need one) */
  price_decimals: z.number().int().min(0).max(1),
});
export type TInstrument = z.infer<typeof ZInstrument>;

export const ZStockRow = ZInstrument.extend({ quote: ZQuote, watched: z.boolean() });
export type TStockRow = z.infer<typeof ZStockRow>;

export const ZIndexQuote = z.object({
  id: z.enum(['nikkei225', 'topix']),
  name: z.string(),
  /** points, two decimals (not money) */
  level: z.number(),
  open: z.number(),
  high: z.number(),
  low: z.number(),
  prev_close: z.number(),
  change: z.number(),
  change_bp: z.number().int(),
  trading_date: z.string(),
  time: z.string(),
  simulated: z.boolean(),
});
export type TIndexQuote = z.infer<typeof ZIndexQuote>;

export const ZMarketPhase = z.enum([
  'pre_open',
  'morning',
  'lunch',
  'afternoon',
  'closing_auction',
  'closed',
]);

// GET /api/market/status
export const ZMarketStatus = z.object({
  phase: ZMarketPhase,
  /** continuous trading now (orders can fill) */
  continuous: z.boolean(),
  pts_open: z.boolean(),
  /** MARKET_CLOCK=always-open: the simulated market is kept in session at any hour */
  always_open: z.boolean(),
  simulated: z.boolean(),
  trading_date: z.string(),
  next_open: z.string(),
  server_time: z.string(),
  stale_after_ms: z.number().int(),
});
export type TMarketStatus = z.infer<typeof ZMarketStatus>;

// GET /api/market/list
export const MARKET_SORTS = ['gainers', 'losers', 'active', 'turnover', 'code', 'price'] as const;
export const ZMarketListQuery = z.object({
  sort: z.enum(MARKET_SORTS, { error: 'validation.invalidSort' }).default('gainers'),
  sector: z.string().trim().max(60).optional(),
  limit: z.coerce.number().int().min(1).max(225).default(50),
  offset: z.coerce.number().int().min(0).max(10_000).default(0),
});
export const ZMarketList = z.object({ total: z.number().int(), items: z.array(ZStockRow) });
export type TMarketList = z.infer<typeof ZMarketList>;

// GET /api/market/sectors
export const ZSector = z.object({
  sector: z.string(),
  name: z.string(),
  count: z.number().int(),
  /** mean change of its stocks, basis points */
  change_bp: z.number().int(),
});
export const ZSectors = z.array(ZSector);

// GET /api/market/search?q=
export const ZSearchQuery = z.object({
  q: z
    .string({ error: 'validation.searchRequired' })
    .trim()
    .min(1, { error: 'validation.searchRequired' })
    .max(40),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});
export const ZSearchResults = z.array(ZInstrument);

// GET /api/market/stock?code=
export const ZCodeQuery = z.object({ code: ZStockCode });
/**
 * Where a simulated stock's prices come from (ADR 0012): 'calibrated' walks from the stock's real close and
 * statistics (calibration.csv); 'derived' takes its sector's volatility and its size class's turnover, and
 * an arbitrary seeded price level; 'ipo' is a listed IPO whose walk starts from its offer price on its listing
 * date, its first day drawn from the offering's id and draw seed (ADR 0035). null when the prices are not
 * simulated.
 */
export const PRICE_BASES = ['calibrated', 'derived', 'ipo'] as const;
export const ZPriceBasis = z.enum(PRICE_BASES);
export type TPriceBasis = z.infer<typeof ZPriceBasis>;
export const ZStockDetail = ZInstrument.extend({
  quote: ZQuote.nullable(),
  watched: z.boolean(),
  price_basis: ZPriceBasis.nullable(),
});
export type TStockDetail = z.infer<typeof ZStockDetail>;

// GET /api/market/bars?code=&period=
export { BAR_PERIODS, isBarPeriod, type TBarPeriod } from '../bar-periods.js';
export const ZBarsQuery = z.object({
  code: ZStockCode,
  period: z.enum(BAR_PERIODS, { error: 'validation.invalidPeriod' }),
  limit: z.coerce.number().int().min(1).max(5000).optional(),
});
export const ZBar = z.object({
  time: z.string(),
  date: z.string(),
  open: ZSenAmount,
  high: ZSenAmount,
  low: ZSenAmount,
  close: ZSenAmount,
  volume: z.number().int(),
});
export type TBar = z.infer<typeof ZBar>;
export const ZBars = z.object({ code: z.string(), period: z.enum(BAR_PERIODS), bars: z.array(ZBar) });

// Watchlist: GET /api/watchlist/list, POST /api/watchlist/add, POST /api/watchlist/remove
export const ZWatchRequest = z.strictObject({ code: ZStockCode });
export const ZWatchlist = z.array(ZStockRow);
export const ZWatchResult = z.object({ code: z.string(), watched: z.boolean() });

// Search history: GET /api/search/history, POST /api/search/addHistory, POST /api/search/clearHistory
export const ZSearchHistoryAdd = z.strictObject({
  query: z
    .string({ error: 'validation.searchRequired' })
    .trim()
    .min(1, { error: 'validation.searchRequired' })
    .max(40),
});
export const ZSearchHistory = z.array(z.object({ query: z.string(), searched_at: z.string() }));
export type TSearchHistory = z.infer<typeof ZSearchHistory>;
