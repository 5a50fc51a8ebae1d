import { and, eq, sql } from 'drizzle-orm';
import {
  MARGIN_RULES,
  collateralFor,
  feeFor,
  formatYen,
  negSen,
  sen,
  yen,
  type FeeSchedule,
  type LedgerEntryKind,
  type Sen,
  type TPlaceOrderRequest,
} from '@kabuto/contract';
import type { Tx } from '../../db/types.js';
import { run, statement } from '../../db/statement.js';
import {
  NO_ANSWER,
  answerCte,
  answerValues,
  type AnswerParams,
  type Claim,
} from '../../plugins/idempotency.js';
import { journalEntries, messages, orders, positions } from '../../db/schema.js';
import { messageCte, messageValues, notify, queueEvent, type MessageParams } from '../messages/messages.js';
import { AppError } from '../../lib/app-error.js';
import { getInstrument } from '../../market/instruments.js';
import { sessionState } from '../../market/sessions.js';
import { venueOpen } from '../../market/venues.js';
import {
  entryCtes,
  entryParams,
  postEntry,
  readLedger,
  takeClaimedLedger,
  type ClaimedLedger,
  type EntryDraft,
  type EntryParams,
  type PostingLine,
} from '../ledger/ledger.js';
import {
  checkLimitPrice,
  executablePrice,
  isMargin,
  isStale,
  orderNumber,
  principalOf,
  quoteOrFail,
  refuseThinBook,
  type Execution,
  type OrderRow,
  type Outbox,
  type TradingDeps,
} from './orders.js';

/**
 * Opening positions: placing an opening order (filled at once when the market allows, else waiting with its
 * cash reserved) in one composite statement with its journal entry (ADR 0016), and filling a waiting one.
 */

/**
 * What filling an opening order by `fill` (its walk of the book, ADR 0024) moves: the principal and the fee,
 * the collateral of a margin position, and the journal entry (the order's reservation released, the cost
 * taken from cash, the fee to the house).
 */
function openingFill(
  order: Pick<OrderRow, 'userId' | 'quantity' | 'leverage' | 'direction' | 'reserved'>,
  fill: Execution,
  fees: FeeSchedule,
) {
  const u = order.userId;
  const principal = fill.principal;
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
  const entryKind: LedgerEntryKind = margin ? 'margin_open' : 'trade_buy';
  return { principal, fee, collateral, entryKind, lines };
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
    quantity: request.quantity,
  };
  const board = deps.market.board(request.code);
  const fillNow = executablePrice(draft, board, open);
  if (fillNow === null && open && request.price_type === 'market') refuseThinBook(draft, board, deps.locale);
  const margin = isMargin({ leverage: request.leverage, direction: request.direction });
  // What the order costs: the fill's principal now; if it waits, at most the limit for a long limit order,
  // else the day's upper limit.
  const refPrice = request.direction === 'long' && limit !== null ? limit : quote.limit_up;
  const principal = fillNow?.principal ?? principalOf(refPrice, request.quantity);
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
    // the wire before issue 23's tax accounts: what the columns' defaults said
    taxAccount: request.account ?? ('specific' as const),
    marginType: request.margin_type ?? (margin ? ('standard' as const) : ('cash' as const)),
    reason: null,
    createdAt: now,
    cancelledAt: null,
  };
  const ids = { entry: entryId, message: messageId };
  if (fillNow !== null) {
    const fill = openingFill({ ...order, reserved: 0 }, fillNow, deps.fees);
    const price = fillNow.price;
    return writeNewOrder(
      tx,
      {
        order: {
          ...order,
          positionId,
          status: 'filled',
          fillPrice: price,
          principal: fill.principal,
          fee: fill.fee,
          reserved: 0,
          filledAt: now,
        },
        ids,
        entry: {
          kind: fill.entryKind,
          params: { order_no: order.orderNo, code: order.code, quantity: order.quantity, price },
          at: now,
          lines: fill.lines,
        },
        collateral: fill.collateral,
        message: {
          kind: 'order.filled',
          params: { order_no: order.orderNo, code: order.code, quantity: order.quantity, price },
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
        params: { order_no: order.orderNo, code: order.code, quantity: order.quantity, amount: needed },
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

/** Fills an opening order by `fill`: cash for the shares (or collateral for margin), the fee, a position. */
export async function fillOpenOrder(
  tx: Tx,
  deps: TradingDeps,
  order: OrderRow,
  fill: Execution,
  outbox: Outbox,
): Promise<OrderRow> {
  const now = deps.clock.now();
  const u = order.userId;
  const price = fill.price;
  const { principal, fee, collateral, entryKind, lines } = openingFill(order, fill, deps.fees);
  await postEntry(tx, {
    kind: entryKind,
    params: { order_no: order.orderNo, code: order.code, quantity: order.quantity, price },
    ref: order.orderNo,
    at: now,
    lines,
  });

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
