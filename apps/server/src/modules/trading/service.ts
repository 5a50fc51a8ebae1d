import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import {
  MARGIN_RULES,
  collateralFor,
  feeFor,
  isMarginPosition,
  type FeeSchedule,
  STALE_QUOTE_MS,
  formatYen,
  negSen,
  sen,
  yen,
  type Sen,
  type TClosePositionRequest,
  type TPlaceOrderRequest,
} from '@kabuto/contract';
import type { Executor, Tx } from '../../db/types.js';
import { run, statement } from '../../db/statement.js';
import {
  NO_ANSWER,
  answerCte,
  answerValues,
  type AnswerParams,
  type Claim,
} from '../../plugins/idempotency.js';
import { journalEntries, messages, orders, positions } from '../../db/schema.js';
import {
  messageCte,
  messageValues,
  notify,
  queueEvent,
  type EventOutbox,
  type MessageParams,
} from '../messages/messages.js';
import { AppError } from '../../lib/app-error.js';
import type { Clock } from '../../lib/clock.js';
import { getInstrument } from '../../market/instruments.js';
import type { MarketDataProvider, Quote } from '../../market/provider.js';
import { tradingCalendar } from '../../market/calendar.js';
import { PTS_HOURS, nextOpen, sessionState } from '../../market/sessions.js';
import { tokyoInstant, tokyoParts } from '../../lib/tokyo-time.js';
import { isValidTick, tickSize } from '@kabuto/contract';
import {
  entryCtes,
  entryParams,
  lockUser,
  postEntry,
  readLedger,
  takeClaimedLedger,
  type ClaimedLedger,
  type EntryDraft,
  type EntryParams,
  type PostingLine,
} from '../ledger/ledger.js';

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

const isMargin = (o: { leverage: number; direction: 'long' | 'short' }) =>
  isMarginPosition(o.direction, o.leverage);
const principalOf = (price: Sen, quantity: number): Sen => sen(price * quantity);

function quoteOrFail(market: MarketDataProvider, code: string): Quote {
  if (!getInstrument(code)) throw new AppError('STOCK_NOT_FOUND');
  const quote = market.quote(code);
  if (!quote) throw new AppError('NO_MARKET_DATA');
  return quote;
}

function checkLimitPrice(price: number, quote: Quote, topix500: boolean, locale: string): Sen {
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

/** The price an order fills at now, or null when it cannot fill yet (outside the session, or not reached). */
export function executablePrice(
  order: Pick<OrderRow, 'side' | 'priceType' | 'limitPrice'>,
  quote: Quote,
  continuous: boolean,
): Sen | null {
  if (!continuous) return null;
  if (order.side === 'buy') {
    if (order.priceType === 'market' || quote.ask <= (order.limitPrice ?? 0)) return quote.ask;
  } else if (order.priceType === 'market' || quote.bid >= (order.limitPrice ?? Number.MAX_SAFE_INTEGER)) {
    return quote.bid;
  }
  return null;
}

function isStale(quote: Quote, now: Date): boolean {
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
async function newOrder(
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

/**
 * What filling an opening order at `price` moves: the principal and the fee, the collateral of a margin
 * position, and the journal entry (the order's reservation released, the cost taken from cash, the fee to
 * the house).
 */
function openingFill(
  order: Pick<OrderRow, 'userId' | 'quantity' | 'leverage' | 'direction' | 'reserved'>,
  price: Sen,
  fees: FeeSchedule,
) {
  const u = order.userId;
  const principal = principalOf(price, order.quantity);
  const fee = feeFor(principal, fees);
  const margin = isMargin(order);
  const collateral = margin ? collateralFor(principal, order.leverage) : sen(0);
  const reserved = sen(order.reserved);
  const spend = sen((margin ? collateral : principal) + fee);
  const lines: PostingLine[] = [
    { user: u, account: 'reserved', amount: negSen(reserved) },
    { user: u, account: 'cash', amount: sen(reserved - spend) },
    { house: 'fees', amount: fee },
  ];
  if (margin) lines.push({ user: u, account: 'margin', amount: collateral });
  else lines.push({ house: 'market_settlement', amount: principal });
  return {
    principal,
    fee,
    collateral,
    entryKind: margin ? ('margin_open' as const) : ('trade_buy' as const),
    lines,
  };
}

/** The position a fill opens. */
function openedPosition(
  order: Pick<OrderRow, 'userId' | 'code' | 'direction' | 'leverage' | 'dayTrade' | 'quantity'>,
  price: Sen,
  collateral: Sen,
  now: Date,
): typeof positions.$inferInsert {
  return {
    userId: order.userId,
    code: order.code,
    direction: order.direction,
    leverage: order.leverage,
    dayTrade: order.dayTrade,
    status: 'holding',
    quantity: order.quantity,
    avgPrice: price,
    collateral,
    openedAt: now,
  };
}

type WriteOrderParams = EntryParams &
  MessageParams &
  AnswerParams & {
    id: number;
    orderNo: string;
    userId: number;
    code: string;
    kind: string;
    direction: string;
    side: string;
    priceType: string;
    limitPrice: number | null;
    quantity: number;
    leverage: number;
    dayTrade: boolean;
    venue: string;
    positionId: number | null;
    status: string;
    fillPrice: number | null;
    principal: number;
    fee: number;
    reserved: number;
    createdAt: Date;
    filledAt: Date | null;
    collateral: number;
  };

/**
 * A new order with everything it causes, in one statement of data-modifying CTEs and ids drawn beforehand:
 * its journal entry and postings, the position a fill opens (none when positionId is null), the user's
 * message, the order, and the answer of its Idempotency-Key.
 */
const writeOrderStatement = statement<WriteOrderParams>(
  'trading_write_order',
  (p) => `with ${entryCtes(p)}, ${messageCte(p)}, ${answerCte(p)},
    opened as (
      insert into positions (id, user_id, code, direction, leverage, day_trade, status, quantity, avg_price,
        collateral, opened_at)
      overriding system value
      select ${p('positionId')}::int, ${p('userId')}::int, ${p('code')}::text, ${p('direction')}::text,
        ${p('leverage')}::int, ${p('dayTrade')}::boolean, 'holding', ${p('quantity')}::int,
        ${p('fillPrice')}::bigint, ${p('collateral')}::bigint, ${p('createdAt')}::timestamptz
      where ${p('positionId')}::int is not null
    )
    insert into orders (id, order_no, user_id, code, kind, direction, side, price_type, limit_price, quantity,
      leverage, day_trade, venue, position_id, status, fill_price, principal, fee, reserved, created_at, filled_at)
    overriding system value
    values (${p('id')}::int, ${p('orderNo')}::text, ${p('userId')}::int, ${p('code')}::text, ${p('kind')}::text,
      ${p('direction')}::text, ${p('side')}::text, ${p('priceType')}::text, ${p('limitPrice')}::bigint,
      ${p('quantity')}::int, ${p('leverage')}::int, ${p('dayTrade')}::boolean, ${p('venue')}::text,
      ${p('positionId')}::int, ${p('status')}::text, ${p('fillPrice')}::bigint, ${p('principal')}::bigint,
      ${p('fee')}::bigint, ${p('reserved')}::bigint, ${p('createdAt')}::timestamptz, ${p('filledAt')}::timestamptz)`,
);

/**
 * The tables placeOrder writes new rows of, whose ids it draws with the user's lock and ledger: the order, its
 * journal entry, its message, and the position a fill opens. The order route's idempotency claim draws them.
 */
export const ORDER_DRAWS = [orders, journalEntries, messages, positions] as const;

/** How placeOrder answers an idempotent request: the claim, and the answer it renders from the order. */
export interface OrderAnswer<T> {
  claim: Claim<T, ClaimedLedger>;
  render: (order: OrderRow) => T;
}

/**
 * Writes a new order with everything it causes in one round trip (writeOrderStatement), then queues the
 * message's event. Every id was drawn beforehand (with the user's lock and ledger), so the entry's postings
 * are hashed, the order is complete and its answer rendered before anything is written; the result is the
 * order as written.
 */
async function writeNewOrder<T>(
  tx: Tx,
  write: {
    order: OrderRow;
    ids: { entry: number; message: number };
    entry: Omit<EntryDraft, 'ref'>;
    /** the collateral of the position a fill opens (0 for a cash position) */
    collateral: Sen;
    message: { kind: string; params: Record<string, unknown> };
  },
  outbox: Outbox,
  answer: OrderAnswer<T> | undefined,
): Promise<OrderRow> {
  const { order } = write;
  const at = write.entry.at;
  // Object.assign onto the entry's parameters (a fresh object literal), not one literal of several spreads:
  // V8 (Node 20) builds such a literal's hidden classes anew on every call, ~40 µs and old-space garbage per
  // order; properties added to an object a spread made take the same slow path (`npm run bench:spread`).
  const params: WriteOrderParams = Object.assign(
    await entryParams(tx, write.ids.entry, { ...write.entry, ref: order.orderNo }),
    messageValues(write.ids.message, order.userId, write.message.kind, write.message.params, at),
    answer ? answerValues(answer.claim, answer.render(order)) : NO_ANSWER,
    { ...order, collateral: write.collateral },
  );
  // The statement that stores the request's answer is its transaction's last: the COMMIT goes behind it.
  await run(tx, writeOrderStatement, params, { commit: answer !== undefined });
  queueEvent(outbox, order.userId, write.message.kind, write.message.params, at, write.ids.message);
  return order;
}

/** Opens a position: fills at once when the market allows, otherwise reserves the cash and waits. */
export async function placeOrder<T = never>(
  tx: Tx,
  deps: TradingDeps,
  userId: number,
  request: TPlaceOrderRequest,
  outbox: Outbox,
  answer?: OrderAnswer<T>,
): Promise<OrderRow> {
  const now = deps.clock.now();
  const instrument = getInstrument(request.code);
  const quote = quoteOrFail(deps.market, request.code);
  const topix500 = instrument?.is_topix500 ?? false;
  const limit =
    request.price === undefined ? null : checkLimitPrice(request.price, quote, topix500, deps.locale);
  const session = sessionState(now, { mode: deps.market.clockMode });
  const venue = request.venue ?? 'exchange';
  if (venue === 'pts' && (request.direction === 'short' || request.leverage > 1)) {
    throw new AppError('PTS_CASH_ONLY');
  }
  const open = venueOpen(venue, session);
  if (request.price_type === 'market' && open && isStale(quote, now)) throw new AppError('QUOTE_STALE');

  const draft = {
    side: request.direction === 'long' ? ('buy' as const) : ('sell' as const),
    priceType: request.price_type,
    limitPrice: limit,
  };
  const fillNow = executablePrice(draft, quote, open);
  const margin = isMargin({ leverage: request.leverage, direction: request.direction });
  // What the order can cost at most: the fill price now, the limit for a long limit order, else the day's upper limit.
  const refPrice = fillNow ?? (request.direction === 'long' && limit !== null ? limit : quote.limit_up);
  const principal = principalOf(refPrice, request.quantity);
  const fee = feeFor(principal, deps.fees);
  const needed = sen((margin ? collateralFor(principal, request.leverage) : principal) + fee);

  // The user's lock and ledger with the new rows' ids: read when the request's key was claimed, else now.
  const {
    balances,
    drawn: [orderId = 0, entryId = 0, messageId = 0, drawnPositionId = 0],
  } =
    takeClaimedLedger(answer?.claim, ORDER_DRAWS) ??
    (await readLedger(tx, userId, { draw: ORDER_DRAWS, lock: true }));
  // A pending order opens no position yet: its drawn position id stays unused (a gap in the sequence).
  const positionId = fillNow === null ? null : drawnPositionId;
  if (balances.cash < needed) {
    throw new AppError('INSUFFICIENT_FUNDS', {
      needed: formatYen(needed, deps.locale),
      available: formatYen(balances.cash, deps.locale),
    });
  }
  if (margin) {
    const collateralAfter = balances.margin + collateralFor(principal, request.leverage);
    if (collateralAfter < yen(MARGIN_RULES.minCollateralYen)) {
      throw new AppError('MIN_COLLATERAL', {
        min: formatYen(yen(MARGIN_RULES.minCollateralYen), deps.locale),
      });
    }
  }

  const order = {
    id: orderId,
    orderNo: orderNumber(orderId, now),
    userId,
    code: request.code,
    kind: 'open' as const,
    direction: request.direction,
    side: draft.side,
    priceType: request.price_type,
    limitPrice: limit,
    quantity: request.quantity,
    leverage: request.leverage,
    dayTrade: request.day_trade ?? false,
    venue,
    reason: null,
    createdAt: now,
    cancelledAt: null,
  };
  const ids = { entry: entryId, message: messageId };
  if (fillNow !== null) {
    const fill = openingFill({ ...order, reserved: 0 }, fillNow, deps.fees);
    return writeNewOrder(
      tx,
      {
        order: {
          ...order,
          positionId,
          status: 'filled',
          fillPrice: fillNow,
          principal: fill.principal,
          fee: fill.fee,
          reserved: 0,
          filledAt: now,
        },
        ids,
        entry: { kind: fill.entryKind, at: now, lines: fill.lines },
        collateral: fill.collateral,
        message: {
          kind: 'order.filled',
          params: { order_no: order.orderNo, code: order.code, quantity: order.quantity, price: fillNow },
        },
      },
      outbox,
      answer,
    );
  }
  return writeNewOrder(
    tx,
    {
      order: {
        ...order,
        positionId: null,
        status: 'pending',
        fillPrice: null,
        principal,
        fee,
        reserved: needed,
        filledAt: null,
      },
      ids,
      entry: {
        kind: 'order_reserve',
        at: now,
        lines: [
          { user: userId, account: 'cash', amount: negSen(needed) },
          { user: userId, account: 'reserved', amount: needed },
        ],
      },
      collateral: sen(0),
      message: {
        kind: 'order.placed',
        params: { order_no: order.orderNo, code: order.code, quantity: order.quantity },
      },
    },
    outbox,
    answer,
  );
}

/** Fills an opening order at `price`: cash for the shares (or collateral for margin), the fee, a position. */
export async function fillOpenOrder(
  tx: Tx,
  deps: TradingDeps,
  order: OrderRow,
  price: Sen,
  outbox: Outbox,
): Promise<OrderRow> {
  const now = deps.clock.now();
  const u = order.userId;
  const { principal, fee, collateral, entryKind, lines } = openingFill(order, price, deps.fees);
  await postEntry(tx, { kind: entryKind, ref: order.orderNo, at: now, lines });

  // The position and the order's fill in one statement: the update reads the new position's id from the
  // insert in its WITH clause (which runs whether or not the update finds the order still pending).
  const opened = tx.$with('opened').as(
    tx
      .insert(positions)
      .values(openedPosition(order, price, collateral, now))
      .returning({ id: positions.id }),
  );
  const [filled] = await tx
    .with(opened)
    .update(orders)
    .set({
      status: 'filled',
      fillPrice: price,
      principal,
      fee,
      reserved: 0,
      filledAt: now,
      positionId: sql`(select ${opened.id} from ${opened})`,
    })
    .where(and(eq(orders.id, order.id), eq(orders.status, 'pending')))
    .returning();
  if (!filled) throw new Error(`order ${order.orderNo} was not pending`);
  await notify(
    tx,
    outbox,
    u,
    'order.filled',
    { order_no: order.orderNo, code: order.code, quantity: order.quantity, price },
    now,
  );
  return filled;
}

/** Closes all or part of a position: fills at once when the market allows, otherwise waits. */
export async function closePosition(
  tx: Tx,
  deps: TradingDeps,
  userId: number,
  request: TClosePositionRequest,
  outbox: Outbox,
): Promise<OrderRow> {
  const now = deps.clock.now();
  await lockUser(tx, userId);
  const [position] = await tx
    .select()
    .from(positions)
    .where(
      and(
        eq(positions.id, request.position_id),
        eq(positions.userId, userId),
        eq(positions.status, 'holding'),
      ),
    );
  if (!position) throw new AppError('POSITION_NOT_FOUND');
  const available = position.quantity - position.closingQuantity;
  if (request.quantity > available) throw new AppError('POSITION_QUANTITY', { available });
  const instrument = getInstrument(position.code);
  const quote = quoteOrFail(deps.market, position.code);
  const limit =
    request.price === undefined
      ? null
      : checkLimitPrice(request.price, quote, instrument?.is_topix500 ?? false, deps.locale);
  const session = sessionState(now, { mode: deps.market.clockMode });
  if (request.price_type === 'market' && session.continuous && isStale(quote, now))
    throw new AppError('QUOTE_STALE');
  const side = position.direction === 'long' ? ('sell' as const) : ('buy' as const);
  const order = await newOrder(
    tx,
    {
      userId,
      code: position.code,
      kind: 'close',
      direction: position.direction,
      side,
      priceType: request.price_type,
      limitPrice: limit,
      quantity: request.quantity,
      leverage: position.leverage,
      dayTrade: position.dayTrade,
      positionId: position.id,
      status: 'pending',
      createdAt: now,
    },
    now,
  );
  await tx
    .update(positions)
    .set({ closingQuantity: sql`${positions.closingQuantity} + ${request.quantity}` })
    .where(eq(positions.id, position.id));
  const price = executablePrice(
    { side, priceType: request.price_type, limitPrice: limit },
    quote,
    session.continuous,
  );
  if (price !== null) return fillCloseOrder(tx, deps, order, price, outbox);
  await notify(
    tx,
    outbox,
    userId,
    'order.placed',
    { order_no: order.orderNo, code: order.code, quantity: order.quantity },
    now,
  );
  return order;
}

/** Fills a closing order: proceeds (cash) or collateral back plus profit or loss (margin), and the fee. */
export async function fillCloseOrder(
  tx: Tx,
  deps: TradingDeps,
  order: OrderRow,
  price: Sen,
  outbox: Outbox,
): Promise<OrderRow> {
  const now = deps.clock.now();
  const u = order.userId;
  const [position] = await tx
    .select()
    .from(positions)
    .where(eq(positions.id, order.positionId ?? -1));
  if (!position || position.status !== 'holding')
    throw new Error(`order ${order.orderNo} has no open position`);
  const q = order.quantity;
  const principal = principalOf(price, q);
  const fee = feeFor(principal, deps.fees);
  const gross = sen(
    (position.direction === 'long' ? price - position.avgPrice : position.avgPrice - price) * q,
  );
  const whole = q === position.quantity;
  const collateralPart = sen(
    whole ? position.collateral : Math.floor((position.collateral * q) / position.quantity),
  );
  const margin = isMargin(position);
  const lines: PostingLine[] = margin
    ? [
        { user: u, account: 'margin', amount: negSen(collateralPart) },
        { user: u, account: 'cash', amount: sen(collateralPart + gross - fee) },
        { house: 'market_settlement', amount: negSen(gross) },
        { house: 'fees', amount: fee },
      ]
    : [
        { house: 'market_settlement', amount: negSen(principal) },
        { user: u, account: 'cash', amount: sen(principal - fee) },
        { house: 'fees', amount: fee },
      ];
  await postEntry(tx, { kind: margin ? 'margin_close' : 'trade_sell', ref: order.orderNo, at: now, lines });

  const realized = sen(gross - fee);
  if (whole) {
    await tx
      .update(positions)
      .set({
        status: 'closed',
        closingQuantity: 0,
        closedAt: now,
        closePrice: price,
        realizedPl: realized,
      })
      .where(eq(positions.id, position.id));
  } else {
    await tx.insert(positions).values({
      userId: u,
      code: position.code,
      direction: position.direction,
      leverage: position.leverage,
      dayTrade: position.dayTrade,
      status: 'closed',
      quantity: q,
      avgPrice: position.avgPrice,
      collateral: collateralPart,
      openedAt: position.openedAt,
      closedAt: now,
      closePrice: price,
      realizedPl: realized,
      parentId: position.id,
    });
    await tx
      .update(positions)
      .set({
        quantity: position.quantity - q,
        closingQuantity: Math.max(0, position.closingQuantity - q),
        collateral: position.collateral - collateralPart,
      })
      .where(eq(positions.id, position.id));
  }
  const [filled] = await tx
    .update(orders)
    .set({ status: 'filled', fillPrice: price, principal, fee, filledAt: now })
    .where(and(eq(orders.id, order.id), eq(orders.status, 'pending')))
    .returning();
  if (!filled) throw new Error(`order ${order.orderNo} was not pending`);
  await notify(
    tx,
    outbox,
    u,
    'order.filled',
    { order_no: order.orderNo, code: order.code, quantity: q, price },
    now,
  );
  if (whole)
    await notify(tx, outbox, u, 'position.closed', { position_id: position.id, code: position.code }, now);
  return filled;
}

export async function cancelOrder(
  tx: Tx,
  deps: TradingDeps,
  userId: number,
  orderNo: string,
  outbox: Outbox,
): Promise<OrderRow> {
  await lockUser(tx, userId);
  const [order] = await tx
    .select()
    .from(orders)
    .where(and(eq(orders.orderNo, orderNo), eq(orders.userId, userId)));
  if (!order) throw new AppError('ORDER_NOT_FOUND');
  if (order.status !== 'pending') throw new AppError('ORDER_NOT_PENDING');
  return endPendingOrder(tx, deps, order, 'cancelled', null, outbox);
}

/**
 * Ends a pending order without a fill: cancelled by the user, or rejected by a rule (with its reason).
 * The cash it held goes back and a closing order gives its shares back to the position.
 */
export async function endPendingOrder(
  tx: Tx,
  deps: TradingDeps,
  order: OrderRow,
  status: 'cancelled' | 'rejected',
  reason: string | null,
  outbox: Outbox,
): Promise<OrderRow> {
  const now = deps.clock.now();
  if (order.reserved > 0) {
    await postEntry(tx, {
      kind: 'order_release',
      ref: order.orderNo,
      at: now,
      lines: [
        { user: order.userId, account: 'reserved', amount: negSen(sen(order.reserved)) },
        { user: order.userId, account: 'cash', amount: sen(order.reserved) },
      ],
    });
  }
  if (order.kind === 'close' && order.positionId !== null) {
    await tx
      .update(positions)
      .set({ closingQuantity: sql`greatest(0, ${positions.closingQuantity} - ${order.quantity})` })
      .where(eq(positions.id, order.positionId));
  }
  const [ended] = await tx
    .update(orders)
    .set({ status, reason, reserved: 0, cancelledAt: now })
    .where(and(eq(orders.id, order.id), eq(orders.status, 'pending')))
    .returning();
  if (!ended) throw new Error(`order ${order.orderNo} was not pending`);
  await notify(
    tx,
    outbox,
    order.userId,
    status === 'cancelled' ? 'order.cancelled' : 'order.rejected',
    { order_no: order.orderNo, code: order.code, ...(reason === null ? {} : { reason }) },
    now,
  );
  return ended;
}

/**
 * The matcher's pass: every pending order whose price the market has reached is filled, each in its own
 * transaction under the user's lock, re-checked there (so two passes can never fill one order twice).
 */
export async function matchPendingOrders(
  db: { transaction: Executor['transaction'] },
  deps: TradingDeps,
): Promise<Outbox> {
  const outbox: Outbox = [];
  const now = deps.clock.now();
  const session = sessionState(now, { mode: deps.market.clockMode });
  if (!session.continuous && !session.pts_open) return outbox;
  const pending = await db.transaction(async (tx) =>
    tx.select().from(orders).where(eq(orders.status, 'pending')).orderBy(orders.id).limit(1000),
  );
  for (const candidate of pending) {
    const quote = deps.market.quote(candidate.code);
    if (!venueOpen(candidate.venue, session)) continue;
    if (!quote || executablePrice(candidate, quote, true) === null) continue;
    await db.transaction(async (tx) => {
      await lockUser(tx, candidate.userId);
      const [order] = await tx
        .select()
        .from(orders)
        .where(and(eq(orders.id, candidate.id), eq(orders.status, 'pending')));
      if (!order) return;
      const price = executablePrice(order, quote, true);
      if (price === null) return;
      if (order.kind === 'open') await fillOpenOrder(tx, deps, order, price, outbox);
      else await fillCloseOrder(tx, deps, order, price, outbox);
    });
  }
  return outbox;
}

export async function listOrders(
  db: Executor,
  userId: number,
  status: 'pending' | 'done' | 'all',
  venue: 'exchange' | 'pts' | 'all' = 'all',
) {
  const where =
    status === 'pending'
      ? and(eq(orders.userId, userId), eq(orders.status, 'pending'))
      : status === 'done'
        ? and(eq(orders.userId, userId), inArray(orders.status, ['filled', 'cancelled', 'rejected']))
        : eq(orders.userId, userId);
  const venueWhere = venue === 'all' ? where : and(where, eq(orders.venue, venue));
  return db.select().from(orders).where(venueWhere).orderBy(desc(orders.id)).limit(500);
}

export async function findOrder(db: Executor, userId: number, orderNo: string): Promise<OrderRow> {
  const [order] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.orderNo, orderNo), eq(orders.userId, userId)));
  if (!order) throw new AppError('ORDER_NOT_FOUND');
  return order;
}

export async function listPositions(db: Executor, userId: number, status: 'holding' | 'closed') {
  return db
    .select()
    .from(positions)
    .where(and(eq(positions.userId, userId), eq(positions.status, status)))
    .orderBy(desc(status === 'closed' ? positions.closedAt : positions.openedAt), desc(positions.id))
    .limit(500);
}

/** Whether a venue trades now: the exchange's continuous session, or the PTS session. */
export function venueOpen(
  venue: 'exchange' | 'pts',
  session: { continuous: boolean; pts_open: boolean },
): boolean {
  return venue === 'pts' ? session.pts_open : session.continuous;
}

/** When a waiting order can fill next (null while its venue is open). */
export function fillsFrom(
  market: MarketDataProvider,
  now: Date,
  venue: 'exchange' | 'pts' = 'exchange',
): Date | null {
  const options = { mode: market.clockMode };
  const session = sessionState(now, options);
  if (venueOpen(venue, session)) return null;
  return venue === 'pts' ? nextPtsOpen(now) : nextOpen(now, options);
}

/** The next start of the PTS session (8:20 on a business day) after `now`. */
export function nextPtsOpen(now: Date): Date {
  const p = tokyoParts(now);
  const calendar = tradingCalendar();
  const today = calendar.isBusinessDay(p.date) && p.minuteOfDay < PTS_HOURS.open;
  return tokyoInstant(today ? p.date : calendar.nextBusinessDay(p.date), PTS_HOURS.open);
}

/** When a PTS application placed at `placedAt` expires: the end (16:00) of the PTS session it waits for. */
export function ptsSessionEnd(placedAt: Date): Date {
  const p = tokyoParts(placedAt);
  const calendar = tradingCalendar();
  const sameDay = calendar.isBusinessDay(p.date) && p.minuteOfDay < PTS_HOURS.close;
  return tokyoInstant(sameDay ? p.date : calendar.nextBusinessDay(p.date), PTS_HOURS.close);
}
