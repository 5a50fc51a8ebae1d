import { BOARD_DEPTH, sen, tickDown, tickUp, type Sen } from '@kabuto/contract';
import type { Clock } from '../lib/clock.js';
import { getInstrument } from '../market/instruments.js';
import { priceLimits } from '../market/limits.js';
import type {
  Bar,
  Board,
  BoardLevel,
  IndexQuote,
  MarketDataProvider,
  MarketEvent,
  MarketListener,
  Quote,
} from '../market/provider.js';
import { tickSize } from '@kabuto/contract';

/** Shares at each level of a test book unless a test sets the sizes (deep: orders fill at the touch). */
export const TEST_LEVEL_SHARES = 100_000;

/**
 * A market whose prices a test sets by hand (bid and ask one tick around last, limits from the previous
 * close), so that money scenarios have exact figures. Its order book has ten levels a side one tick apart,
 * TEST_LEVEL_SHARES each unless `setBoard` says otherwise. Quotes are as of the clock's now unless told otherwise.
 * Live ticks happen only when a test calls `tick` or `tickIndex`: the stream's tests decide what is sent and
 * when, instead of waiting for a simulator.
 */
export class TestMarket implements MarketDataProvider {
  readonly simulated = true;
  readonly clockMode = 'tokyo' as const;
  private readonly prices = new Map<string, { last: Sen; prevClose: Sen; time?: string }>();
  private readonly listeners = new Set<MarketListener>();
  private readonly sizes = new Map<string, { asks: readonly number[]; bids: readonly number[] }>();

  constructor(private readonly clock: Clock) {}

  get codes(): string[] {
    return [...this.prices.keys()];
  }

  /** Sets a stock's last price (yen) and optionally its previous close and quote time. */
  set(code: string, lastYen: number, options: { prevCloseYen?: number; time?: string } = {}): void {
    const prior = this.prices.get(code);
    this.prices.set(code, {
      last: sen(Math.round(lastYen * 100)),
      prevClose:
        options.prevCloseYen !== undefined
          ? sen(options.prevCloseYen * 100)
          : (prior?.prevClose ?? sen(Math.round(lastYen * 100))),
      ...(options.time === undefined ? {} : { time: options.time }),
    });
  }

  quote(code: string): Quote | undefined {
    const p = this.prices.get(code);
    const instrument = getInstrument(code);
    if (!p || !instrument) return undefined;
    const tick = tickSize(p.last, instrument.is_topix500);
    const limits = priceLimits(p.prevClose, instrument.is_topix500);
    return {
      code,
      last: p.last,
      bid: sen(p.last - tick),
      ask: sen(p.last + tick),
      open: p.prevClose,
      high: p.last,
      low: p.last,
      prev_close: p.prevClose,
      volume: 0,
      turnover: sen(0),
      change: sen(p.last - p.prevClose),
      change_bp: Math.round(((p.last - p.prevClose) * 10_000) / p.prevClose),
      limit_up: limits.upper,
      limit_down: limits.lower,
      trading_date: this.clock.now().toISOString().slice(0, 10),
      time: p.time ?? this.clock.now().toISOString(),
      simulated: true,
    };
  }

  /**
   * Sets the shares at each level of a stock's book, from the touch outward (fewer than ten levels make a
   * book that holds only those; sizes stay until set again).
   */
  setBoard(code: string, sizes: { asks: readonly number[]; bids: readonly number[] }): void {
    this.sizes.set(code, sizes);
  }

  board(code: string): Board | undefined {
    const quote = this.quote(code);
    const instrument = getInstrument(code);
    if (!quote || !instrument) return undefined;
    const fixed = Array.from({ length: BOARD_DEPTH }, () => TEST_LEVEL_SHARES);
    const sizes = this.sizes.get(code) ?? { asks: fixed, bids: fixed };
    const ladder = (from: Sen, step: (p: number, t: boolean) => Sen, shares: readonly number[]) => {
      const levels: BoardLevel[] = [];
      let price = from;
      for (const quantity of shares.slice(0, BOARD_DEPTH)) {
        if (price < quote.limit_down || price > quote.limit_up) break;
        levels.push({ price, quantity });
        price = step(price, instrument.is_topix500);
      }
      return levels;
    };
    return {
      code,
      last: quote.last,
      asks: ladder(quote.ask, tickUp, sizes.asks),
      bids: ladder(quote.bid, tickDown, sizes.bids),
      over: 0,
      under: 0,
      trading_date: quote.trading_date,
      time: quote.time,
      simulated: true,
    };
  }

  quotes(codes: readonly string[]): Quote[] {
    return codes.flatMap((c) => {
      const q = this.quote(c);
      return q ? [q] : [];
    });
  }

  bars(): Promise<Bar[]> {
    return Promise.resolve([]);
  }

  subscribe(listener: MarketListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Sets a stock's last price (yen) and sends the new quote to the live feed's listeners, as a tick. */
  tick(code: string, lastYen: number): Quote {
    this.set(code, lastYen);
    const quote = this.quote(code);
    if (!quote) throw new Error(`the test market does not quote ${code}`);
    this.emit({ type: 'quote', quote });
    return quote;
  }

  /** Sends an index level to the live feed's listeners. */
  tickIndex(index: IndexQuote): void {
    this.emit({ type: 'index', index });
  }

  /** How many listen to the live feed (the producing hub does). */
  get listening(): number {
    return this.listeners.size;
  }

  private emit(event: MarketEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  indices(): IndexQuote[] {
    return [];
  }

  /** Test prices are set by hand; they stand for calibrated ones. */
  priceBasis(code: string): 'calibrated' | undefined {
    return this.prices.has(code) ? 'calibrated' : undefined;
  }

  start(): void {}
  stop(): void {}
}

/** A Nikkei 225 level, told apart by its level: what `tickIndex` sends as a sentinel in the stream's tests. */
export function testIndex(level: number): IndexQuote {
  return {
    id: 'nikkei225',
    name_ja: '日経平均',
    name_en: 'Nikkei 225',
    level,
    open: level,
    high: level,
    low: level,
    prev_close: level,
    change: 0,
    change_bp: 0,
    trading_date: '2026-11-24',
    time: '2026-11-24T01:00:00.000Z',
    simulated: true,
  };
}
