import { sen, type Sen } from '@kabuto/contract';
import type { Clock } from '../lib/clock.js';
import { getInstrument } from '../market/instruments.js';
import { priceLimits } from '../market/limits.js';
import type { Bar, IndexQuote, MarketDataProvider, MarketListener, Quote } from '../market/provider.js';
import { tickSize } from '@kabuto/contract';

/**
 * A market whose prices a test sets by hand (bid and ask one tick around last, limits from the previous
 * close), so that money scenarios have exact figures. Quotes are as of the clock's now unless told otherwise.
 */
export class TestMarket implements MarketDataProvider {
  readonly simulated = true;
  readonly clockMode = 'tokyo' as const;
  private readonly prices = new Map<string, { last: Sen; prevClose: Sen; time?: string }>();

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

  quotes(codes: readonly string[]): Quote[] {
    return codes.flatMap((c) => {
      const q = this.quote(c);
      return q ? [q] : [];
    });
  }

  bars(): Promise<Bar[]> {
    return Promise.resolve([]);
  }

  subscribe(_listener: MarketListener): () => void {
    return () => undefined;
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
