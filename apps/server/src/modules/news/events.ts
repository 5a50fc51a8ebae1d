import type { Locale, TMarketEvent } from '@kabuto/contract';
import { getInstrument } from '../../market/instruments.js';
import type { MarketDataProvider, Quote } from '../../market/provider.js';
import type { Db } from '../../db/types.js';

/**
 * Market events are derived from the data, never typed (ADR 0029). Each kind comes from a provider:
 * limit-up/limit-down and the biggest movers from the market data (below); new listings, distributions
 * and dividend dates from the IPO and product modules, which register their provider with
 * `registerEventProvider` when they are loaded (one line in their module).
 */
export interface EventContext {
  db: Db;
  market: MarketDataProvider;
  now: Date;
  /** the reader's language, for the names */
  locale: Locale;
}

export interface EventProvider {
  readonly name: string;
  events(ctx: EventContext): Promise<TMarketEvent[]>;
}

const providers: EventProvider[] = [];

/** Registers a provider once (by name): registering again replaces it. */
export function registerEventProvider(provider: EventProvider): void {
  const at = providers.findIndex((p) => p.name === provider.name);
  if (at >= 0) providers[at] = provider;
  else providers.push(provider);
}

export function eventProviders(): readonly EventProvider[] {
  return providers;
}

/** How many gainers and losers the movers list names. */
export const MOVERS = 5;

/**
 * Limit-up and limit-down (ストップ高・ストップ安: the last price at the day's limit) and the biggest
 * movers (値上がり率・値下がり率 ranking, at least 1 % away from the previous close) of a set of quotes.
 */
export function deriveQuoteEvents(quotes: readonly Quote[], names: (code: string) => string): TMarketEvent[] {
  const out: TMarketEvent[] = [];
  const event = (kind: TMarketEvent['kind'], q: Quote): TMarketEvent => ({
    kind,
    code: q.code,
    name: names(q.code),
    date: q.trading_date,
    change_bp: q.change_bp,
    price: q.last,
  });
  const traded = quotes.filter((q) => q.volume > 0);
  for (const q of traded) {
    if (q.last >= q.limit_up) out.push(event('limit_up', q));
    else if (q.last <= q.limit_down) out.push(event('limit_down', q));
  }
  const atLimit = new Set(out.map((e) => e.code));
  const rest = traded.filter((q) => !atLimit.has(q.code));
  const byChange = [...rest].sort((a, b) => b.change_bp - a.change_bp || a.code.localeCompare(b.code));
  for (const q of byChange.filter((q) => q.change_bp >= 100).slice(0, MOVERS))
    out.push(event('top_gainer', q));
  for (const q of byChange
    .reverse()
    .filter((q) => q.change_bp <= -100)
    .slice(0, MOVERS))
    out.push(event('top_loser', q));
  return out;
}

/** A listed stock's name in the reader's language (Japanese for ja and Chinese readers, else English). */
export function stockName(code: string, locale: Locale): string {
  const instrument = getInstrument(code);
  if (!instrument) return code;
  return locale === 'ja' || locale.startsWith('zh') ? instrument.name_ja : instrument.name_en;
}

/** The provider of the market data's own events. */
export const quoteEventProvider: EventProvider = {
  name: 'quotes',
  events: ({ market, locale }) =>
    Promise.resolve(deriveQuoteEvents(market.quotes(market.codes), (code) => stockName(code, locale))),
};
registerEventProvider(quoteEventProvider);

/** Every provider's events; a provider that fails is left out rather than failing the list. */
export async function marketEvents(ctx: EventContext): Promise<TMarketEvent[]> {
  const lists = await Promise.all(providers.map((p) => p.events(ctx).catch(() => [] as TMarketEvent[])));
  return lists.flat();
}
