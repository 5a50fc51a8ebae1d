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
import { movingAverage, readAccountAndHoldings, repayDeadline, resolveTaxAccount } from '../tax/accounts.js';
import { checkNisaBuy } from '../tax/nisa.js';
import { taxSettings } from '../settings/settings.js';
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
  order: Pick<OrderRow, 'userId' | 'quantity' | 'leverage' | 'direction' | 'marginType' | 'reserved'>,
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

/** The position a fill opens: its account, its cost basis (principal and fee) and 制度信用's deadline. */
function openedPosition(
  order: Pick<
    OrderRow,
    'userId' | 'code' | 'direction' | 'leverage' | 'dayTrade' | 'quantity' | 'taxAccount' | 'marginType'
  >,
  price: Sen,
  fill: { collateral: Sen; bookValue: Sen; repayDeadline: Date | null },
  now: Date,
): typeof positions.$inferInsert {
  return {
    userId: order.userId,
    code: order.code,
    direction: order.direction,
    leverage: order.leverage,
    dayTrade: order.dayTrade,
    taxAccount: order.taxAccount,
    marginType: order.marginType,
    bookValue: fill.bookValue,
    repayDeadline: fill.repayDeadline,
    status: 'holding',
    quantity: order.quantity,
    avgPrice: price,
    collateral: fill.collateral,
    openedAt: now,
  };
}

/**
 * 制度信用's repayment deadline for a margin position opened now (the setting's months later); none for
 * 一般信用 or cash. Reads the setting only when there is a deadline to set.
 */
async function deadlineFor(
  tx: Tx,
  order: Pick<OrderRow, 'marginType' | 'leverage' | 'direction'>,
  now: Date,
): Promise<Date | null> {
  if (!isMargin(order) || order.marginType !== 'standard') return null;
  return repayDeadline(now, (await taxSettings(tx)).standard_margin_months);
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
    taxAccount: string;
    marginType: string;
    /** the position's cost basis from this fill: principal and fee */
    bookValue: number;
    repayDeadline: Date | null;
    /** the cash holding a cash buy adds to (null: the fill opens position positionId) */
    holdingId: number | null;
    /** the holding's moving average after the fill */
    mergedAvg: number | null;
  };

/**
 * A new order with everything it causes, in one statement of data-modifying CTEs and ids drawn beforehand:
 * its journal entry and postings, the position a fill opens (none when positionId is null) or the cash
 * holding it adds to (holdingId: quantity, book value and moving average), the user's message, the order,
 * and the answer of its Idempotency-Key.
 */
const writeOrderStatement = statement<WriteOrderParams>(
  'trading_write_order',
  (p) => `with ${entryCtes(p)}, ${messageCte(p)}, ${answerCte(p)},
    opened as (
      insert into positions (id, user_id, code, direction, leverage, day_trade, tax_account, margin_type,
        book_value, repay_deadline, status, quantity, avg_price, collateral, opened_at)
      overriding system value
      select ${p('positionId')}::int, ${p('userId')}::int, ${p('code')}::text, ${p('direction')}::text,
        ${p('leverage')}::int, ${p('dayTrade')}::boolean, ${p('taxAccount')}::text, ${p('marginType')}::text,
        ${p('bookValue')}::bigint, ${p('repayDeadline')}::timestamptz, 'holding', ${p('quantity')}::int,
        ${p('fillPrice')}::bigint, ${p('collateral')}::bigint, ${p('createdAt')}::timestamptz
      where ${p('positionId')}::int is not null and ${p('holdingId')}::int is null
    ),
    merged as (
      update positions set quantity = quantity + ${p('quantity')}::int, avg_price = ${p('mergedAvg')}::bigint,
        book_value = book_value + ${p('bookValue')}::bigint
      where id = ${p('holdingId')}::int
    )
    insert into orders (id, order_no, user_id, code, kind, direction, side, price_type, limit_price, quantity,
      leverage, day_trade, venue, tax_account, margin_type, position_id, status, fill_price, principal, fee,
      reserved, created_at, filled_at)
    overriding system value
    values (${p('id')}::int, ${p('orderNo')}::text, ${p('userId')}::int, ${p('code')}::text, ${p('kind')}::text,
      ${p('direction')}::text, ${p('side')}::text, ${p('priceType')}::text, ${p('limitPrice')}::bigint,
      ${p('quantity')}::int, ${p('leverage')}::int, ${p('dayTrade')}::boolean, ${p('venue')}::text,
      ${p('taxAccount')}::text, ${p('marginType')}::text,
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
    /** what the fill adds to a position: its cost basis, 制度信用's deadline, the cash holding it joins */
    position: {
      bookValue: Sen;
      repayDeadline: Date | null;
      holdingId: number | null;
      mergedAvg: Sen | null;
    };
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
    { ...order, collateral: write.collateral, ...write.position },
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
  const marginRequest = isMargin({
    leverage: request.leverage,
    direction: request.direction,
    ...(request.margin_type === undefined ? {} : { marginType: request.margin_type }),
  });
  if (venue === 'pts' && marginRequest) {
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
  const margin = marginRequest;
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
  // The account (the order's, else the customer's default) and the cash holdings it may add to.
  const { choice, holdings } = await readAccountAndHoldings(tx, userId, request.code);
  const taxAccount = resolveTaxAccount(choice, request.account, margin, deps.locale);
  if (taxAccount === 'nisa') await checkNisaBuy(tx, userId, principal, now, deps.locale);
  // A cash buy adds to the holding of its stock in its account; margin opens a 建玉 per order.
  const holding = margin ? undefined : holdings.find((h) => h.account === taxAccount);
  // A pending order opens no position yet, and a fill added to a holding opens none: the drawn position id
  // stays unused then (a gap in the sequence).
  const positionId = fillNow === null ? null : (holding?.id ?? drawnPositionId);
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
    taxAccount,
    // absent on the wire before issue 23: cash at 1×, else 制度信用
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
        position: {
          bookValue: sen(fill.principal + fill.fee),
          repayDeadline: await deadlineFor(tx, order, now),
          holdingId: holding?.id ?? null,
          mergedAvg: holding ? movingAverage(holding, fillNow.price, order.quantity) : null,
        },
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
      position: { bookValue: sen(0), repayDeadline: null, holdingId: null, mergedAvg: null },
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

  const fillValues = {
    status: 'filled' as const,
    fillPrice: price,
    principal,
    fee,
    reserved: 0,
    filledAt: now,
  };
  const pendingOrder = and(eq(orders.id, order.id), eq(orders.status, 'pending'));
  const bookValue = sen(principal + fee);
  // A cash buy adds to the holding of its stock in its account (the user's lock is held: no other fill of
  // the user's runs meanwhile); margin, or a first purchase, opens a position.
  const holding = isMargin(order)
    ? undefined
    : (await readAccountAndHoldings(tx, u, order.code)).holdings.find((h) => h.account === order.taxAccount);
  let filled: OrderRow | undefined;
  if (holding) {
    await tx
      .update(positions)
      .set({
        quantity: sql`${positions.quantity} + ${order.quantity}`,
        avgPrice: movingAverage(holding, price, order.quantity),
        bookValue: sql`${positions.bookValue} + ${bookValue}`,
      })
      .where(eq(positions.id, holding.id));
    [filled] = await tx
      .update(orders)
      .set({ ...fillValues, positionId: holding.id })
      .where(pendingOrder)
      .returning();
  } else {
    // The position and the order's fill in one statement: the update reads the new position's id from the
    // insert in its WITH clause (which runs whether or not the update finds the order still pending).
    const opened = tx.$with('opened').as(
      tx
        .insert(positions)
        .values(
          openedPosition(
            order,
            price,
            { collateral, bookValue, repayDeadline: await deadlineFor(tx, order, now) },
            now,
          ),
        )
        .returning({ id: positions.id }),
    );
    [filled] = await tx
      .with(opened)
      .update(orders)
      .set({ ...fillValues, positionId: sql`(select ${opened.id} from ${opened})` })
      .where(pendingOrder)
      .returning();
  }
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
