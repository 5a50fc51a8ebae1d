import type { TQuote, TStockDetail } from '@kabuto/contract';

/**
 * The stock page's parts each read only what they draw from the stock query, through a selector: the
 * realtime stream replaces the quote in that query up to ten times a second, and TanStack Query renders a
 * component again only when its selected value changes (it keeps the previous value when the new one is
 * deeply equal). The selectors are module-level functions so that the query memoizes them; useStock in
 * live-stock.ts applies them.
 */

/** The stock without its live quote: changes only when the stock is fetched again. */
export type StockInfo = Omit<TStockDetail, 'quote'> & { hasQuote: boolean };

export function selectInfo(stock: TStockDetail): StockInfo {
  const { quote, ...info } = stock;
  return { ...info, hasQuote: quote !== null };
}

/** The header's price, change and percentage: changes only when the price does. */
export type HeaderPrice = Pick<TQuote, 'last' | 'change' | 'change_bp'>;

export function selectHeaderPrice(stock: TStockDetail): HeaderPrice | null {
  const q = stock.quote;
  return q === null ? null : { last: q.last, change: q.change, change_bp: q.change_bp };
}

/** The quote's time (every tick has a new one): for the staleness check. */
export function selectQuoteTime(stock: TStockDetail): string | null {
  return stock.quote?.time ?? null;
}

/** The quote's time to the minute (epoch ms of the minute), which is all the header shows of it. */
export function selectQuoteMinute(stock: TStockDetail): number | null {
  const ms = stock.quote === null ? NaN : Date.parse(stock.quote.time);
  return Number.isFinite(ms) ? Math.floor(ms / 60_000) * 60_000 : null;
}

/** The figures under the header. */
export type QuoteFigureValues = Pick<
  TQuote,
  'open' | 'prev_close' | 'high' | 'low' | 'volume' | 'turnover' | 'bid' | 'ask' | 'limit_up' | 'limit_down'
>;

export function selectFigures(stock: TStockDetail): QuoteFigureValues | null {
  const q = stock.quote;
  if (q === null) return null;
  return {
    open: q.open,
    prev_close: q.prev_close,
    high: q.high,
    low: q.low,
    volume: q.volume,
    turnover: q.turnover,
    bid: q.bid,
    ask: q.ask,
    limit_up: q.limit_up,
    limit_down: q.limit_down,
  };
}

/** The whole live quote (the chart and the order form follow every tick). */
export function selectQuote(stock: TStockDetail): TQuote | null {
  return stock.quote;
}
