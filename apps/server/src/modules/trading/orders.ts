import { sql } from 'drizzle-orm';
import {
  formatYen,
  isMarginPosition,
  isValidTick,
  numberFormat,
  sen,
  tickSize,
  STALE_QUOTE_MS,
  type FeeSchedule,
  type Sen,
} from '@kabuto/contract';
import type { Tx } from '../../db/types.js';
import { orders, type positions } from '../../db/schema.js';
import type { EventOutbox } from '../messages/messages.js';
import { AppError } from '../../lib/app-error.js';
import type { Clock } from '../../lib/clock.js';
import { getInstrument } from '../../market/instruments.js';
import { depthWithin, walkBook, type Execution } from '../../market/board.js';
import type { Board, MarketDataProvider, Quote } from '../../market/provider.js';

export type { Execution } from '../../market/board.js';

/**
 * What every order needs, opening or closing: the trading dependencies, the rows, the checks of a quote and
 * a limit price, the price an order fills at, and writing a new order with its number. Opening is open.ts,
 * closing close.ts, the pending lifecycle (cancel, rejection, the matcher's pass) pending.ts, the lists
 * queries.ts; when venues trade is src/market/venues.ts.
 */

export interface TradingDeps {
  clock: Clock;
  market: MarketDataProvider;
  fees: FeeSchedule;
  locale: string;
}

export type OrderRow = typeof orders.$inferSelect;
export type PositionRow = typeof positions.$inferSelect;

/** Events to push to users once the transaction that caused them has committed. */
export type Outbox = EventOutbox;

export const isMargin = (o: {
  leverage: number;
  direction: 'long' | 'short';
  marginType?: 'cash' | 'standard' | 'general';
}) => isMarginPosition(o.direction, o.leverage, o.marginType);
export const principalOf = (price: Sen, quantity: number): Sen => sen(price * quantity);

export function quoteOrFail(market: MarketDataProvider, code: string): Quote {
  if (!getInstrument(code)) throw new AppError('STOCK_NOT_FOUND');
  const quote = market.quote(code);
  if (!quote) throw new AppError('NO_MARKET_DATA');
  return quote;
}

export function checkLimitPrice(price: number, quote: Quote, topix500: boolean, locale: string): Sen {
  const p = sen(price);
  if (!isValidTick(p, topix500)) {
    throw new AppError('PRICE_OFF_TICK', { tick: formatYen(tickSize(p, topix500), locale, 1) });
  }
  if (p < quote.limit_down || p > quote.limit_up) {
    throw new AppError('PRICE_OUTSIDE_LIMITS', {
      lower: formatYen(quote.limit_down, locale, 1),
      upper: formatYen(quote.limit_up, locale, 1),
    });
  }
  return p;
}

/**
 * How an order fills now against the order book (板, ADR 0024), or null when it cannot fill yet (outside the
 * session, no book, or the levels within its limit hold fewer shares than it asks for: an order fills whole or
 * waits). A buy walks the asks from the best ask upward, a sell the bids from the best bid downward, taking
 * each level's shares in turn: the principal is Σ level price × shares, the price their average (to the sen).
 */
export function executablePrice(
  order: Pick<OrderRow, 'side' | 'priceType' | 'limitPrice' | 'quantity'>,
  board: Board | undefined,
  continuous: boolean,
): Execution | null {
  if (!continuous || board === undefined) return null;
  const limit = order.priceType === 'market' ? null : order.limitPrice;
  return walkBook(order.side === 'buy' ? board.asks : board.bids, order.quantity, order.side, limit);
}

/**
 * A market order on an open market that the book cannot fill is refused, saying how many shares the shown
 * levels hold (it would otherwise wait for a book it may never see).
 */
export function refuseThinBook(
  order: Pick<OrderRow, 'side' | 'priceType'>,
  board: Board | undefined,
  locale: string,
): never {
  const levels = order.side === 'buy' ? board?.asks : board?.bids;
  throw new AppError('BOOK_TOO_THIN', {
    available: numberFormat(locale).format(depthWithin(levels ?? [], order.side, null)),
  });
}

export function isStale(quote: Quote, now: Date): boolean {
  return now.getTime() - new Date(quote.time).getTime() > STALE_QUOTE_MS;
}

/**
 * An order's number: the UTC day of `now` and the order's id (at least 8 digits), e.g. 2026112400000042.
 * newOrder makes the same number in SQL.
 */
export function orderNumber(id: number, now: Date): string {
  return `${now.toISOString().slice(0, 10).replaceAll('-', '')}${String(id).padStart(8, '0')}`;
}

/**
 * Writes an order with its number in one statement (see orderNumber). The id is drawn from the orders'
 * identity sequence in a CTE, which PostgreSQL runs once however often the statement reads it, and given
 * to both columns.
 */
export async function newOrder(
  tx: Tx,
  values: Omit<typeof orders.$inferInsert, 'id' | 'orderNo'>,
  now: Date,
): Promise<OrderRow> {
  const day = now.toISOString().slice(0, 10).replaceAll('-', '');
  const next = tx
    .$with('next_order', { id: sql<number>`id` })
    .as(sql`select nextval(pg_get_serial_sequence('orders', 'id')) as id`);
  const [row] = await tx
    .with(next)
    .insert(orders)
    .overridingSystemValue()
    .values({
      ...values,
      id: sql`(select id from next_order)`,
      orderNo: sql`${day} || (select lpad(id::text, greatest(8, length(id::text)), '0') from next_order)`,
    })
    .returning();
  if (!row) throw new Error('order was not written');
  return row;
}
