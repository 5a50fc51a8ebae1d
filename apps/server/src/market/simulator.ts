import { sen } from '@kabuto/contract';
import { systemClock, type Clock } from '../lib/clock.js';
import { tokyoInstant, tokyoParts } from '../lib/tokyo-time.js';
import { simulatedBoard } from './board.js';
import { aggregate, AUCTION_INDEX, minuteBuckets, monthOf, toBar, weekOf, type RawBar } from './bars.js';
import { tradingCalendar, type IsoDate, type TradingCalendar } from './calendar.js';
import { DailyWalk, SESSIONS_PER_YEAR } from './daily-series.js';
import { generateIntraday, secondPath, type DayBar, type IntColumn, type IntradayPath } from './intraday.js';
import { referenceData, type IndexId, type ReferenceData } from './instruments.js';
import { firstDayBar, LISTING_ANN_VOLATILITY, listingKey, type NewListing } from './listing.js';
import { INDEX_GRID, stockGrid, type PriceGrid } from './price-grid.js';
import {
  DEFAULT_BAR_LIMIT,
  MAX_BAR_LIMIT,
  UnknownSymbolError,
  type Bar,
  type BarPeriod,
  type BarQuery,
  type Board,
  type IndexQuote,
  type MarketDataProvider,
  type MarketEvent,
  type MarketListener,
  type PriceAdjustment,
  type Quote,
} from './provider.js';
import { dayNumber, hashString, mixKeys, Rng } from './random.js';
import {
  CONTINUOUS_MINUTES,
  marketPosition,
  sessionMinuteToClock,
  sessionState,
  TSE_HOURS,
  type MarketClockMode,
  type MarketPosition,
  type SessionStatus,
} from './sessions.js';
import { universeCodes, universeParameters, type MarketUniverse, type ParameterBasis } from './universe.js';

/** History starts at the first business day the holiday list covers. */
export const DEFAULT_HISTORY_START = '2024-01-04';
export const DEFAULT_TICK_INTERVAL_MS = 1_000;
/** Share of symbols that tick on each beat (so each symbol ticks every few seconds on average). */
export const DEFAULT_TICK_FRACTION = 0.3;
/** Weight of the market-wide factor in each stock's daily shock (correlation with TOPIX ≈ 0.6). */
export const STOCK_MARKET_BETA = 0.6;

/**
 * Memory bounds. Each stock keeps its latest day's minute path and latest minute's second path (so the
 * quotes of the whole universe are always at hand, whatever its size); other days and minutes (history,
 * `to` in the past) go through these LRU caches.
 */
const INTRADAY_CACHE_SIZE = 1_024;
const SECONDS_CACHE_SIZE = 4_096;
const INDEX_PATH_CACHE_SIZE = 64;
/**
 * The live feed prepares the next trading day's minute paths this long before the day starts, a share
 * of the universe per beat over PREPARE_BEATS beats, so that the first beat and the first lists of the
 * day do not compute the whole universe's paths at once (about half a second for 3,791 stocks).
 */
export const PREPARE_AHEAD_MS = 5 * 60_000;
const PREPARE_BEATS = 120;

export interface SimulatorOptions {
  /** the same seed and clock give the same prices (default 1) */
  seed?: number | string;
  clock?: Clock;
  mode?: MarketClockMode;
  calendar?: TradingCalendar;
  data?: ReferenceData;
  /** first day of history (default DEFAULT_HISTORY_START) */
  historyStart?: IsoDate;
  /** live feed beat (default 1 s) */
  tickIntervalMs?: number;
  /** share of symbols ticking per beat, in (0, 1] (default 0.3) */
  tickFraction?: number;
  /**
   * the stocks to simulate (default `nikkei225`): stocks without a calibration row get parameters by
   * the derivation rule of universe.ts (ADR 0012)
   */
  universe?: MarketUniverse;
  /** the codes to list and tick, all in the universe (default: the whole universe) */
  codes?: readonly string[];
  /** dividends lowering base prices on their ex dates (see setPriceAdjustments) */
  adjustments?: readonly PriceAdjustment[];
  /** IPOs listed (or to list) on the simulated market (see setListings) */
  listings?: readonly NewListing[];
}

/** What the simulator needs to walk one instrument (a stock in sen, or TOPIX in hundredths of a point). */
interface Spec {
  id: string;
  /** calibrated to the stock's own statistics, or derived by the rule (stocks only) */
  basis: ParameterBasis;
  key: number;
  grid: PriceGrid;
  /** daily volatility */
  sigma: number;
  annVolatility: number;
  beta: number;
  refDate: IsoDate;
  refClose: number;
  prevClose: number;
  avgVolume: number;
  /** a new listing's first trading date: no quote, bar or board before its opening auction */
  listingDate?: IsoDate;
  /** a new listing's first day, drawn by listing.ts */
  anchorDay?: DayBar;
}

/** The running figures of one instrument at a market position, in grid units. */
interface Snapshot {
  date: IsoDate;
  last: number;
  /** the price before `last` (for the bid/ask side) */
  before: number;
  open: number;
  high: number;
  low: number;
  prevClose: number;
  /** the day's base price: prevClose, less the dividend on its ex date */
  base: number;
  volume: number;
  turnover: number;
}

interface IndexPath {
  level: Float64Array;
  prefixMax: Float64Array;
  prefixMin: Float64Array;
}

const INDEX_NAMES: Record<IndexId, { ja: string; en: string }> = {
  nikkei225: { ja: '日経平均株価', en: 'Nikkei 225' },
  topix: { ja: 'TOPIX', en: 'TOPIX' },
};

function remember<K, V>(cache: Map<K, V>, key: K, max: number, make: () => V): V {
  const hit = cache.get(key);
  if (hit !== undefined) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const value = make();
  cache.set(key, value);
  if (cache.size > max) {
    const oldest = cache.keys().next();
    if (!oldest.done) cache.delete(oldest.value);
  }
  return value;
}

function roundPoints(centi: number): number {
  return Math.round(centi) / 100;
}

function toInstant(value: Date | string, name: string): Date {
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) throw new RangeError(`${name} is not a date: ${String(value)}`);
  return d;
}

/**
 * The default market data provider: a deterministic simulation of a universe of stocks (the Nikkei 225
 * by default; see universe.ts) and the two indices. Stocks with a row in market-data/calibration.csv are
 * calibrated to it; the others get parameters by the written derivation rule of universe.ts (ADR 0012).
 *
 * Determinism: every random draw comes from a counter-based stream keyed by (seed, code, trading day
 * [, minute]), so a day's or a minute's prices are computed directly, never by replaying earlier
 * minutes. Daily closes are a GBM per business day (sigma = ann_volatility / sqrt(245), a market factor
 * shared with TOPIX) walked forward and backward from the calibration closes, so ref_date closes at
 * ref_close and the day before at prev_close; the daily series is cached per code. Each day's minutes
 * are a seeded Brownian bridge from open to close through the day's high and low; each minute's seconds
 * likewise through that minute's bar. Every price is clamped into the day's limits, then rounded to a
 * valid tick.
 */
export class MarketSimulator implements MarketDataProvider {
  readonly simulated = true;
  readonly clockMode: MarketClockMode;
  /** the universe's codes, then the listed IPOs' */
  private readonly universeCodes: readonly string[];
  private listedCodes: readonly string[] = [];
  private allCodes: readonly string[];

  private readonly clock: Clock;
  private readonly calendar: TradingCalendar;
  private readonly seedKey: number;
  private readonly tickIntervalMs: number;
  private readonly tickFraction: number;
  private readonly specs = new Map<string, Spec>();
  private readonly topix: Spec;
  private readonly nikkeiCodes: readonly string[];
  /** sum of the Nikkei members' ref_close (sen) divided by ref_level in hundredths of a point */
  private readonly nikkeiDivisor: number;
  private readonly days: IsoDate[] = [];
  private readonly dayIndex = new Map<IsoDate, number>();
  private readonly daily = new Map<string, DailyWalk>();
  /**
   * The last market position computed, by instant: while 10,000 clients subscribed, walking the trading calendar
   * for each of their quotes was a tenth of the process's CPU (`PROFILE=1 npm run bench:ws`).
   */
  private lastPosition: { at: number; pos: MarketPosition } | undefined;
  private readonly intradayCache = new Map<string, IntradayPath>();
  private readonly secondsCache = new Map<string, IntColumn>();
  /** per stock: its latest day's minute path, and its latest minute's second path */
  private readonly latestDay = new Map<string, { j: number; path: IntradayPath }>();
  private readonly latestMinute = new Map<string, { j: number; minute: number; path: IntColumn }>();
  /** per stock: the next trading day's minute path, prepared by the live feed before that day starts */
  private readonly prepared = new Map<string, { j: number; path: IntradayPath }>();
  /** what the live feed prepares: TOPIX, the listed codes and the Nikkei 225 members */
  private readonly preparedSpecs: readonly Spec[];
  private readonly nikkeiPaths = new Map<IsoDate, IndexPath>();
  private readonly listeners = new Set<MarketListener>();
  private timer: ReturnType<typeof setInterval> | undefined;
  /** the last quote time formatted (a list formats one instant for thousands of quotes) */
  private lastTime = { ms: Number.NaN, iso: '' };
  private lastPhase: string | undefined;
  /** per stock: its latest board, reused while its quote is unchanged (the matcher asks for it per order) */
  private readonly boards = new Map<string, Board>();
  /** per stock: the amount (sen) its base price is lowered by on each ex date */
  private adjustments = new Map<string, ReadonlyMap<IsoDate, number>>();

  constructor(options: SimulatorOptions = {}) {
    const data = options.data ?? referenceData();
    this.clock = options.clock ?? systemClock;
    this.calendar = options.calendar ?? tradingCalendar();
    this.clockMode = options.mode ?? 'tokyo';
    this.seedKey = hashString(String(options.seed ?? 1));
    this.tickIntervalMs = options.tickIntervalMs ?? DEFAULT_TICK_INTERVAL_MS;
    this.tickFraction = options.tickFraction ?? DEFAULT_TICK_FRACTION;
    if (!(this.tickIntervalMs > 0)) throw new RangeError('tickIntervalMs must be positive');
    if (!(this.tickFraction > 0 && this.tickFraction <= 1)) {
      throw new RangeError('tickFraction must be in (0, 1]');
    }
    const marketKey = mixKeys(this.seedKey, 0x6d6b74);

    for (const cal of data.calibration.values()) {
      if (!data.byCode.has(cal.code)) throw new Error(`calibration for unknown code ${cal.code}`);
    }
    const universe = options.universe ?? 'nikkei225';
    for (const p of universeParameters(universe, data, this.seedKey).values()) {
      const instrument = data.byCode.get(p.code);
      if (!instrument) continue;
      this.specs.set(p.code, {
        id: p.code,
        basis: p.basis,
        key: mixKeys(this.seedKey, hashString(p.code)),
        grid: stockGrid(instrument.is_topix500),
        sigma: p.annVolatility / Math.sqrt(SESSIONS_PER_YEAR),
        annVolatility: p.annVolatility,
        beta: STOCK_MARKET_BETA,
        refDate: p.refDate,
        refClose: p.refClose,
        prevClose: p.prevClose,
        avgVolume: p.avgVolume,
      });
    }
    const topix = data.indexCalibration.get('topix');
    const nikkei = data.indexCalibration.get('nikkei225');
    if (!topix || !nikkei) throw new Error('index_calibration.csv needs nikkei225 and topix');
    this.topix = {
      id: 'topix',
      basis: 'calibrated',
      key: marketKey,
      grid: INDEX_GRID,
      sigma: topix.ann_volatility / Math.sqrt(SESSIONS_PER_YEAR),
      annVolatility: topix.ann_volatility,
      beta: 1,
      refDate: topix.ref_date,
      refClose: topix.ref_level_centi,
      prevClose: topix.prev_level_centi,
      avgVolume: 0,
    };
    // the index is the calibrated members' (a member without a calibration row would be left out)
    this.nikkeiCodes = data.nikkei225
      .map((i) => i.code)
      .filter((c) => this.specs.get(c)?.basis === 'calibrated');
    const refSum = this.nikkeiCodes.reduce((sum, c) => sum + (this.specs.get(c)?.refClose ?? 0), 0);
    this.nikkeiDivisor = refSum / nikkei.ref_level_centi;
    if (this.nikkeiCodes.some((c) => this.specs.get(c)?.refDate !== nikkei.ref_date)) {
      throw new Error('Nikkei 225 members and the index must share one ref_date');
    }

    const codes = options.codes ?? universeCodes(universe, data);
    for (const code of codes) {
      if (!this.specs.has(code)) throw new UnknownSymbolError(code);
    }
    this.universeCodes = [...codes];
    this.allCodes = this.universeCodes;
    this.preparedSpecs = [
      this.topix,
      ...[...new Set([...this.codes, ...this.nikkeiCodes])].flatMap((c) => this.specs.get(c) ?? []),
    ];

    const historyStart = this.calendar.onOrAfter(options.historyStart ?? DEFAULT_HISTORY_START);
    let first = this.calendar.previousBusinessDay(historyStart);
    for (const spec of [...this.specs.values(), this.topix]) {
      const beforeRef = this.calendar.previousBusinessDay(this.calendar.previousBusinessDay(spec.refDate));
      if (beforeRef < first) first = beforeRef;
    }
    this.days.push(first);
    this.dayIndex.set(first, 0);
    this.ensureDays(this.topix.refDate);
    if (options.adjustments) this.setPriceAdjustments(options.adjustments);
    if (options.listings) this.setListings(options.listings);
  }

  /** The codes this simulator quotes: its universe, then the IPOs listed on it (from their listing date). */
  get codes(): readonly string[] {
    return this.allCodes;
  }

  /**
   * Sets the IPOs the simulated market lists (the whole set each time; ADR 0035). Each becomes an instrument
   * whose walk starts on its listing date from the offer price: its first day is listing.ts's firstDayBar,
   * from the offering's id and draw seed alone, and the days after it follow the ordinary daily walk
   * (LISTING_ANN_VOLATILITY, the market factor shared with every stock). A code the reference universe
   * already has keeps its own path. Before the listing date's opening auction the code has no quote, board
   * or bar. A listing already known with the same terms keeps its paths.
   */
  setListings(listings: readonly NewListing[]): void {
    const codes: string[] = [];
    for (const l of listings) {
      const existing = this.specs.get(l.code);
      if (existing && existing.listingDate === undefined) continue;
      const grid = stockGrid(false);
      const anchorDay = firstDayBar(l, grid);
      const key = listingKey(l.offeringId, l.seed);
      codes.push(l.code);
      if (
        existing?.key === key &&
        existing.listingDate === l.listingDate &&
        existing.prevClose === l.offerPrice
      ) {
        continue;
      }
      this.ensureDays(l.listingDate);
      this.specs.set(l.code, {
        id: l.code,
        basis: 'ipo',
        key,
        grid,
        sigma: LISTING_ANN_VOLATILITY / Math.sqrt(SESSIONS_PER_YEAR),
        annVolatility: LISTING_ANN_VOLATILITY,
        beta: STOCK_MARKET_BETA,
        refDate: l.listingDate,
        refClose: anchorDay.close,
        prevClose: l.offerPrice,
        avgVolume: Math.max(100, Math.round(l.offeredShares / 4 / 100) * 100),
        listingDate: l.listingDate,
        anchorDay,
      });
      for (const cache of [this.daily, this.latestDay, this.latestMinute, this.prepared, this.boards]) {
        cache.delete(l.code);
      }
    }
    this.listedCodes = [...new Set(codes)].sort();
    this.allCodes = [
      ...this.universeCodes,
      ...this.listedCodes.filter((c) => !this.universeCodes.includes(c)),
    ];
  }

  /**
   * Sets the dividends that lower stocks' base prices on their ex dates (the whole set; codes outside the
   * universe are ignored). From its ex date on, a stock's walk starts from the previous close less the
   * dividend (daily-series.ts), so bars, quotes, limits and the board all follow the lower path. A stock
   * whose adjustments changed has its paths recomputed; the others keep theirs.
   */
  setPriceAdjustments(adjustments: readonly PriceAdjustment[]): void {
    const next = new Map<string, Map<IsoDate, number>>();
    for (const a of adjustments) {
      if (!this.specs.has(a.code) || !(a.amount > 0)) continue;
      const byDate = next.get(a.code) ?? new Map<IsoDate, number>();
      byDate.set(a.exDate, (byDate.get(a.exDate) ?? 0) + a.amount);
      next.set(a.code, byDate);
    }
    const same = (x: ReadonlyMap<IsoDate, number> | undefined, y: ReadonlyMap<IsoDate, number> | undefined) =>
      (x?.size ?? 0) === (y?.size ?? 0) && [...(x ?? [])].every(([d, v]) => y?.get(d) === v);
    const changed = [...new Set([...this.adjustments.keys(), ...next.keys()])].filter(
      (code) => !same(this.adjustments.get(code), next.get(code)),
    );
    this.adjustments = next;
    if (changed.length === 0) return;
    for (const code of changed) {
      this.daily.delete(code);
      this.latestDay.delete(code);
      this.latestMinute.delete(code);
      this.prepared.delete(code);
      this.boards.delete(code);
    }
    // the day and minute caches are keyed by code and date: simpler to drop them than to pick out the codes
    this.intradayCache.clear();
    this.secondsCache.clear();
    this.nikkeiPaths.clear();
  }

  /** How many minute and second paths are held (for measurements and tests of the memory bounds). */
  cacheSizes(): {
    latestDays: number;
    prepared: number;
    days: number;
    latestMinutes: number;
    minutes: number;
  } {
    return {
      latestDays: this.latestDay.size,
      prepared: this.prepared.size,
      days: this.intradayCache.size,
      latestMinutes: this.latestMinute.size,
      minutes: this.secondsCache.size,
    };
  }

  /** The exchange state now, in this simulator's clock mode. */
  session(): SessionStatus {
    return sessionState(this.clock.now(), { mode: this.clockMode, calendar: this.calendar });
  }

  quote(code: string): Quote | undefined {
    const spec = this.specs.get(code);
    return spec ? this.quoteAt(spec, this.position(this.clock.now())) : undefined;
  }

  quotes(codes: readonly string[]): Quote[] {
    const pos = this.position(this.clock.now());
    const out: Quote[] = [];
    for (const code of codes) {
      const spec = this.specs.get(code);
      const q = spec ? this.quoteAt(spec, pos) : undefined;
      if (q) out.push(q);
    }
    return out;
  }

  board(code: string): Board | undefined {
    const spec = this.specs.get(code);
    const quote = spec ? this.quoteAt(spec, this.position(this.clock.now())) : undefined;
    if (!spec || !quote) return undefined;
    const cached = this.boards.get(code);
    if (
      cached?.time === quote.time &&
      cached.last === quote.last &&
      cached.asks[0]?.price === quote.ask &&
      cached.bids[0]?.price === quote.bid
    ) {
      return cached;
    }
    const board = simulatedBoard(quote, spec.grid, {
      avgVolume: spec.avgVolume,
      sigma: spec.sigma,
      key: spec.key,
    });
    this.boards.set(code, board);
    return board;
  }

  bars(code: string, period: BarPeriod, query: BarQuery = {}): Promise<Bar[]> {
    try {
      return Promise.resolve(this.barsNow(code, period, query));
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /** bars() without the promise. */
  barsNow(code: string, period: BarPeriod, query: BarQuery = {}): Bar[] {
    const spec = this.specs.get(code);
    if (!spec) throw new UnknownSymbolError(code);
    const now = this.clock.now();
    const to = query.to === undefined ? now : toInstant(query.to, 'to');
    const pos = this.position(to.getTime() < now.getTime() ? to : now);
    const j = this.dayIndex.get(pos.date);
    if (j === undefined || j < 1) return [];
    // a new listing has no history before its first day
    const first = spec.listingDate === undefined ? 1 : (this.dayIndex.get(spec.listingDate) ?? j + 1);
    if (j < first) return [];
    const from = query.from === undefined ? undefined : toInstant(query.from, 'from');
    const fromDate = from ? tokyoParts(from).date : undefined;
    const limit = Math.max(1, Math.min(MAX_BAR_LIMIT, Math.floor(query.limit ?? DEFAULT_BAR_LIMIT)));

    if (period === 'intraday') return this.minuteBars(spec, j, pos, 1).map(toBar);
    const minutes = { '1m': 1, '5m': 5, '7m': 7, '15m': 15, '30m': 30, '45m': 45 } as const;
    if (period in minutes) {
      const n = minutes[period as keyof typeof minutes];
      const collected: RawBar[][] = [];
      let count = 0;
      for (let d = j; d >= first && count < limit; d--) {
        if (fromDate !== undefined && (this.days[d] ?? '') < fromDate) break;
        const dayBars = this.minuteBars(spec, d, d === j ? pos : null, n);
        collected.push(dayBars);
        count += dayBars.length;
      }
      const all = collected.reverse().flat();
      const kept = from ? all.filter((b) => b.time >= from.getTime()) : all;
      return kept.slice(-limit).map(toBar);
    }
    // only the days the answer needs: `limit` periods back (a week has at most 5 business days, a
    // month at most 23), widened to the start of the first week or month so it is whole
    const groupOf = period === '1w' ? weekOf : period === '1mo' ? monthOf : (date: IsoDate) => date;
    const needed = limit * (period === '1w' ? 5 : period === '1mo' ? 23 : 1);
    const fromIndex = fromDate ? (this.dayIndex.get(this.calendar.onOrAfter(fromDate)) ?? 1) : 1;
    let start = Math.max(first, Math.min(j, Math.max(fromIndex, j - needed + 1)));
    while (start > first && groupOf(this.days[start - 1] ?? '') === groupOf(this.days[start] ?? '')) start--;
    const daily = this.dailyBars(spec, start, j, pos);
    const grouped = period === '1d' ? daily : aggregate(daily, (b) => groupOf(b.date));
    const kept = fromDate ? grouped.filter((b) => b.date >= fromDate) : grouped;
    return kept.slice(-limit).map(toBar);
  }

  indices(): IndexQuote[] {
    return this.indicesAt(this.position(this.clock.now()));
  }

  priceBasis(code: string): ParameterBasis | undefined {
    return this.specs.get(code)?.basis;
  }

  subscribe(listener: MarketListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      this.beat();
    }, this.tickIntervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.lastPhase = undefined;
  }

  /**
   * One beat of the live feed (start() calls it every tickIntervalMs). When the session phase changes
   * (and on the first beat) every symbol and both indices are sent; during continuous trading a seeded
   * random share (tickFraction) of the symbols and both indices are sent; otherwise nothing, since
   * prices do not move outside sessions.
   */
  beat(): void {
    const now = this.clock.now();
    const status = sessionState(now, { mode: this.clockMode, calendar: this.calendar });
    const phase = `${status.trading_date}|${status.state}`;
    const changed = phase !== this.lastPhase;
    this.lastPhase = phase;
    const pos = this.position(now);
    this.prepareNextDay(pos, now);
    if (!changed && !status.continuous) return;
    const rng = new Rng(mixKeys(this.seedKey, Math.floor(now.getTime() / this.tickIntervalMs), 0xbea7));
    for (const code of this.allCodes) {
      const picked = rng.float() < this.tickFraction;
      const spec = this.specs.get(code);
      if (!spec || (!changed && !picked)) continue;
      const quote = this.quoteAt(spec, pos);
      if (quote) this.emit({ type: 'quote', quote });
    }
    for (const index of this.indicesAt(pos)) this.emit({ type: 'index', index });
  }

  /**
   * Within PREPARE_AHEAD_MS of the next trading day, computes a share of that day's minute paths (those
   * not ready yet), so that the whole universe is ready when the day starts.
   */
  private prepareNextDay(pos: MarketPosition, now: Date): void {
    const ahead = this.position(new Date(now.getTime() + PREPARE_AHEAD_MS));
    if (ahead.date <= pos.date) return;
    const j = this.dayIndex.get(ahead.date);
    if (j === undefined) return;
    let budget = Math.ceil(this.preparedSpecs.length / PREPARE_BEATS);
    for (const spec of this.preparedSpecs) {
      if (budget === 0) return;
      const id = spec.id;
      if (this.prepared.get(id)?.j === j || (this.latestDay.get(id)?.j ?? -1) >= j) continue;
      this.prepared.set(id, { j, path: this.makeIntraday(spec, j) });
      budget -= 1;
    }
  }

  private emit(event: MarketEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch {
        // one failing subscriber must not stop the feed for the others
      }
    }
  }

  /**
   * The market position at `at`, the last one kept (`lastPosition`): a socket's subscription asks for twenty
   * quotes in the same millisecond, and each position walks the trading calendar.
   */
  private position(at: Date): MarketPosition {
    const ms = at.getTime();
    if (this.lastPosition?.at === ms) return this.lastPosition.pos;
    const pos = marketPosition(at, { mode: this.clockMode, calendar: this.calendar });
    this.ensureDays(pos.date);
    this.lastPosition = { at: ms, pos };
    return pos;
  }

  private ensureDays(upTo: IsoDate): void {
    let last = this.days[this.days.length - 1] ?? upTo;
    while (last < upTo) {
      last = this.calendar.nextBusinessDay(last);
      this.dayIndex.set(last, this.days.length);
      this.days.push(last);
    }
  }

  /** The instrument's daily walk with days from..to available. */
  private series(spec: Spec, from: number, to: number): DailyWalk {
    let walk = this.daily.get(spec.id);
    if (!walk) {
      walk = new DailyWalk(this.days, {
        key: spec.key,
        marketKey: this.topix.key,
        beta: spec.beta,
        annVolatility: spec.annVolatility,
        grid: spec.grid,
        refDate: spec.refDate,
        refClose: spec.refClose,
        prevClose: spec.prevClose,
        avgVolume: spec.avgVolume,
        adjustment: (date) => this.adjustments.get(spec.id)?.get(date) ?? 0,
        ...(spec.anchorDay ? { anchorDay: spec.anchorDay } : {}),
      });
      this.daily.set(spec.id, walk);
    }
    walk.ensure(from, to);
    return walk;
  }

  private intraday(spec: Spec, j: number): IntradayPath {
    const latest = this.latestDay.get(spec.id);
    if (latest?.j === j) return latest.path;
    const key = `${spec.id}|${this.days[j] ?? ''}`;
    if (latest === undefined || j > latest.j) {
      const ready = this.prepared.get(spec.id);
      if (ready !== undefined && ready.j <= j) this.prepared.delete(spec.id);
      const path = ready?.j === j ? ready.path : (this.intradayCache.get(key) ?? this.makeIntraday(spec, j));
      this.latestDay.set(spec.id, { j, path });
      return path;
    }
    return remember(this.intradayCache, key, INTRADAY_CACHE_SIZE, () => this.makeIntraday(spec, j));
  }

  private makeIntraday(spec: Spec, j: number): IntradayPath {
    const day = this.series(spec, j, j).day(j);
    const rng = new Rng(mixKeys(spec.key, dayNumber(this.days[j] ?? ''), 0x1d));
    return generateIntraday(day, spec.sigma, rng, spec.grid);
  }

  private seconds(spec: Spec, j: number, minute: number): IntColumn {
    const latest = this.latestMinute.get(spec.id);
    if (latest?.j === j && latest.minute === minute) return latest.path;
    const key = `${spec.id}|${this.days[j] ?? ''}|${minute}`;
    if (latest === undefined || j > latest.j || (j === latest.j && minute > latest.minute)) {
      const path = this.secondsCache.get(key) ?? this.makeSeconds(spec, j, minute);
      this.latestMinute.set(spec.id, { j, minute, path });
      return path;
    }
    return remember(this.secondsCache, key, SECONDS_CACHE_SIZE, () => this.makeSeconds(spec, j, minute));
  }

  private makeSeconds(spec: Spec, j: number, minute: number): IntColumn {
    const path = this.intraday(spec, j);
    const bar = {
      open: path.point[minute] ?? 0,
      high: path.high[minute] ?? 0,
      low: path.low[minute] ?? 0,
      close: path.point[minute + 1] ?? 0,
    };
    const rng = new Rng(mixKeys(spec.key, dayNumber(this.days[j] ?? ''), 0x5ec0, minute));
    return secondPath(bar, rng, spec.grid);
  }

  private snapshot(spec: Spec, pos: MarketPosition): Snapshot | undefined {
    const j = this.dayIndex.get(pos.date);
    if (j === undefined || j < 1) return undefined;
    if (spec.listingDate !== undefined && pos.date < spec.listingDate) return undefined;
    const path = this.intraday(spec, j);
    const walk = this.series(spec, j, j);
    const prevClose = walk.close(j - 1);
    const base = walk.baseOf(j);
    const { day } = path;
    const open = day.open;
    if (pos.closed) {
      const close = day.close;
      return {
        date: pos.date,
        last: close,
        before: path.point[CONTINUOUS_MINUTES - 1] ?? close,
        open,
        high: day.high,
        low: day.low,
        prevClose,
        base,
        volume: day.volume,
        turnover: (path.prefixTurnover[CONTINUOUS_MINUTES] ?? 0) + path.auctionVolume * close,
      };
    }
    const k = pos.completedMinutes;
    let high = path.prefixHigh[k] ?? open;
    let low = path.prefixLow[k] ?? open;
    let volume = path.prefixVolume[k] ?? 0;
    let turnover = path.prefixTurnover[k] ?? 0;
    let last = path.point[k] ?? open;
    let before = k > 0 ? (path.point[k - 1] ?? base) : base;
    if (pos.second !== null && k < CONTINUOUS_MINUTES) {
      const sec = this.seconds(spec, j, k);
      for (let x = 0; x <= pos.second; x++) {
        const p = sec[x] ?? last;
        high = Math.max(high, p);
        low = Math.min(low, p);
      }
      before = pos.second > 0 ? (sec[pos.second - 1] ?? last) : before;
      last = sec[pos.second] ?? last;
      const partial = Math.floor(((path.volume[k] ?? 0) * (pos.second + 1)) / 60 / 100) * 100;
      volume += partial;
      turnover += partial * last;
    }
    return { date: pos.date, last, before, open, high, low, prevClose, base, volume, turnover };
  }

  private quoteAt(spec: Spec, pos: MarketPosition): Quote | undefined {
    const snap = this.snapshot(spec, pos);
    if (!snap) return undefined;
    // on an ex date the base price (previous close less the dividend) is the reference of limits and change
    const { lower, upper } = spec.grid.limits(snap.base);
    let bid: number;
    let ask: number;
    if (snap.last >= snap.before) {
      ask = snap.last;
      bid = spec.grid.down(snap.last);
    } else {
      bid = snap.last;
      ask = spec.grid.up(snap.last);
    }
    if (bid < lower || bid === ask) {
      bid = snap.last;
      ask = spec.grid.up(snap.last);
    }
    if (ask > upper) {
      ask = snap.last;
      bid = spec.grid.down(snap.last);
    }
    const change = snap.last - snap.base;
    return {
      code: spec.id,
      last: sen(snap.last),
      bid: sen(bid),
      ask: sen(ask),
      open: sen(snap.open),
      high: sen(snap.high),
      low: sen(snap.low),
      prev_close: sen(snap.base),
      volume: snap.volume,
      turnover: sen(Math.round(snap.turnover)),
      change: sen(change),
      change_bp: Math.round((change * 10_000) / snap.base),
      limit_up: sen(upper),
      limit_down: sen(lower),
      trading_date: snap.date,
      time: this.isoTime(pos.asOf),
      simulated: true,
    };
  }

  private isoTime(at: Date): string {
    const ms = at.getTime();
    if (ms !== this.lastTime.ms) this.lastTime = { ms, iso: at.toISOString() };
    return this.lastTime.iso;
  }

  /** One day's 1-minute bars up to `pos` (all of them with the closing auction when pos is null). */
  private minuteBars(spec: Spec, j: number, pos: MarketPosition | null, minutes: number): RawBar[] {
    const date = this.days[j] ?? '';
    const path = this.intraday(spec, j);
    const complete = pos === null || pos.closed;
    const k = complete ? CONTINUOUS_MINUTES : pos.completedMinutes;
    const bars: { index: number; bar: RawBar }[] = [];
    const at = (i: number): number => tokyoInstant(date, sessionMinuteToClock(i)).getTime();
    for (let i = 0; i < k; i++) {
      bars.push({
        index: i,
        bar: {
          time: at(i),
          date,
          open: path.point[i] ?? 0,
          high: path.high[i] ?? 0,
          low: path.low[i] ?? 0,
          close: path.point[i + 1] ?? 0,
          volume: path.volume[i] ?? 0,
        },
      });
    }
    if (complete) {
      const close = path.point[CONTINUOUS_MINUTES] ?? 0;
      bars.push({
        index: AUCTION_INDEX,
        bar: {
          time: tokyoInstant(date, TSE_HOURS.afternoonClose).getTime(),
          date,
          open: close,
          high: close,
          low: close,
          close,
          volume: path.auctionVolume,
        },
      });
    } else if (pos.second !== null && k < CONTINUOUS_MINUTES) {
      const sec = this.seconds(spec, j, k);
      const seen = Array.from(sec.subarray(0, pos.second + 1));
      bars.push({
        index: k,
        bar: {
          time: at(k),
          date,
          open: seen[0] ?? 0,
          high: Math.max(...seen),
          low: Math.min(...seen),
          close: seen[seen.length - 1] ?? 0,
          volume: Math.floor(((path.volume[k] ?? 0) * (pos.second + 1)) / 60 / 100) * 100,
        },
      });
    }
    return minutes === 1 ? bars.map((b) => b.bar) : minuteBuckets(date, bars, minutes);
  }

  /** Daily bars of days start..j; day j as it stands at `pos`. */
  private dailyBars(spec: Spec, start: number, j: number, pos: MarketPosition): RawBar[] {
    const s = this.series(spec, start, j);
    const out: RawBar[] = [];
    for (let d = start; d < j; d++) {
      const date = this.days[d] ?? '';
      out.push({ time: tokyoInstant(date, TSE_HOURS.morningOpen).getTime(), date, ...s.day(d) });
    }
    const snap = this.snapshot(spec, pos);
    if (snap) {
      out.push({
        time: tokyoInstant(snap.date, TSE_HOURS.morningOpen).getTime(),
        date: snap.date,
        open: snap.open,
        high: snap.high,
        low: snap.low,
        close: snap.last,
        volume: snap.volume,
      });
    }
    return out;
  }

  /** The Nikkei 225 level (hundredths of a point) at each minute point of day j. */
  private nikkeiPath(j: number): IndexPath {
    const date = this.days[j] ?? '';
    return remember(this.nikkeiPaths, date, INDEX_PATH_CACHE_SIZE, () => {
      const level = new Float64Array(CONTINUOUS_MINUTES + 1);
      for (const code of this.nikkeiCodes) {
        const spec = this.specs.get(code);
        if (!spec) continue;
        const point = this.intraday(spec, j).point;
        for (let m = 0; m <= CONTINUOUS_MINUTES; m++) level[m] = (level[m] ?? 0) + (point[m] ?? 0);
      }
      const prefixMax = new Float64Array(CONTINUOUS_MINUTES + 1);
      const prefixMin = new Float64Array(CONTINUOUS_MINUTES + 1);
      for (let m = 0; m <= CONTINUOUS_MINUTES; m++) {
        const v = (level[m] ?? 0) / this.nikkeiDivisor;
        level[m] = v;
        prefixMax[m] = m === 0 ? v : Math.max(prefixMax[m - 1] ?? v, v);
        prefixMin[m] = m === 0 ? v : Math.min(prefixMin[m - 1] ?? v, v);
      }
      return { level, prefixMax, prefixMin };
    });
  }

  private indicesAt(pos: MarketPosition): IndexQuote[] {
    const j = this.dayIndex.get(pos.date);
    if (j === undefined || j < 1) return [];
    const time = pos.asOf.toISOString();
    const make = (
      id: IndexId,
      v: { last: number; open: number; high: number; low: number; prevClose: number },
    ): IndexQuote => {
      const level = roundPoints(v.last);
      const prev = roundPoints(v.prevClose);
      return {
        id,
        name_ja: INDEX_NAMES[id].ja,
        name_en: INDEX_NAMES[id].en,
        level,
        open: roundPoints(v.open),
        high: roundPoints(Math.max(v.high, v.last)),
        low: roundPoints(Math.min(v.low, v.last)),
        prev_close: prev,
        change: Math.round((level - prev) * 100) / 100,
        change_bp: Math.round(((v.last - v.prevClose) * 10_000) / v.prevClose),
        trading_date: pos.date,
        time,
        simulated: true,
      };
    };

    let last = 0;
    let open = 0;
    let prevClose = 0;
    for (const code of this.nikkeiCodes) {
      const spec = this.specs.get(code);
      const snap = spec ? this.snapshot(spec, pos) : undefined;
      if (!snap) continue;
      last += snap.last;
      open += snap.open;
      prevClose += snap.prevClose;
    }
    const path = this.nikkeiPath(j);
    const k = pos.closed ? CONTINUOUS_MINUTES : pos.completedMinutes;
    const nikkei = make('nikkei225', {
      last: last / this.nikkeiDivisor,
      open: open / this.nikkeiDivisor,
      high: path.prefixMax[k] ?? 0,
      low: path.prefixMin[k] ?? 0,
      prevClose: prevClose / this.nikkeiDivisor,
    });
    const t = this.snapshot(this.topix, pos);
    return t ? [nikkei, make('topix', { ...t })] : [nikkei];
  }
}
