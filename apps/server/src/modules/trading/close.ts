import { and, eq, sql } from 'drizzle-orm';
import {
  feeFor,
  negSen,
  proportionalPart,
  sen,
  type Sen,
  type TClosePositionRequest,
} from '@kabuto/contract';
import type { Tx } from '../../db/types.js';
import { orders, positions } from '../../db/schema.js';
import { notify } from '../messages/messages.js';
import { AppError } from '../../lib/app-error.js';
import { getInstrument } from '../../market/instruments.js';
import { sessionState } from '../../market/sessions.js';
import { lockUser, postEntry, type PostingLine } from '../ledger/ledger.js';
import { realize } from '../tax/realize.js';
import {
  checkLimitPrice,
  executablePrice,
  isMargin,
  isStale,
  newOrder,
  principalOf,
  quoteOrFail,
  refuseThinBook,
  type Execution,
  type OrderRow,
  type Outbox,
  type PositionRow,
  type TradingDeps,
} from './orders.js';

/** Closing positions, in whole or in part: the closing order, and its fill. */

/** Closes all or part of a position: fills at once when the market allows, otherwise waits. */
export async function closePosition(
  tx: Tx,
  deps: TradingDeps,
  userId: number,
  request: TClosePositionRequest,
  outbox: Outbox,
  /** a rule's close (day trade, margin call) is never refused for a thin book: it waits for the book */
  byRule = false,
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
  const board = deps.market.board(position.code);
  const draft = { side, priceType: request.price_type, limitPrice: limit, quantity: request.quantity };
  const fill = executablePrice(draft, board, session.continuous);
  if (fill === null && session.continuous && request.price_type === 'market' && !byRule) {
    refuseThinBook(draft, board, deps.locale);
  }
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
      taxAccount: position.taxAccount,
      marginType: position.marginType,
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
  if (fill !== null) return fillCloseOrder(tx, deps, order, fill, outbox);
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
  fill: Execution,
  outbox: Outbox,
): Promise<OrderRow> {
  const now = deps.clock.now();
  const price = fill.price;
  const u = order.userId;
  const [position] = await tx
    .select()
    .from(positions)
    .where(eq(positions.id, order.positionId ?? -1));
  if (!position || position.status !== 'holding')
    throw new Error(`order ${order.orderNo} has no open position`);
  const q = order.quantity;
  const principal = fill.principal;
  const fee = feeFor(principal, deps.fees);
  const cost = position.avgPrice * q;
  const gross = sen(position.direction === 'long' ? principal - cost : cost - principal);
  const whole = q === position.quantity;
  const collateralPart = whole
    ? sen(position.collateral)
    : proportionalPart(sen(position.collateral), q, position.quantity);
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
  await postEntry(tx, {
    kind: margin ? 'margin_close' : 'trade_sell',
    params: { order_no: order.orderNo, code: order.code, quantity: q, price },
    ref: order.orderNo,
    at: now,
    lines,
  });

  const realized = sen(gross - fee);
  const tax = realizedPart(position, q, principal, fee);
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
      taxAccount: position.taxAccount,
      marginType: position.marginType,
      bookValue: tax.bookPart,
      repayDeadline: position.repayDeadline,
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
        bookValue: position.bookValue - tax.bookPart,
      })
      .where(eq(positions.id, position.id));
  }
  const [filled] = await tx
    .update(orders)
    .set({ status: 'filled', fillPrice: price, principal, fee, filledAt: now })
    .where(and(eq(orders.id, order.id), eq(orders.status, 'pending')))
    .returning();
  if (!filled) throw new Error(`order ${order.orderNo} was not pending`);
  await realize(tx, {
    userId: u,
    orderId: order.id,
    orderNo: order.orderNo,
    account: position.taxAccount,
    marginType: position.marginType,
    code: position.code,
    quantity: q,
    proceeds: tax.proceeds,
    cost: tax.cost,
    at: now,
  });
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

/**
 * What selling (or buying back) `q` shares of a position for `principal` (its walk of the book) with `fee` realizes for tax (ADR 0021):
 * the sold part's book value (its share of the position's 取得価額, the whole remainder when all is sold),
 * 譲渡の対価 and 取得費 + 譲渡費用. Cash: proceeds = the sale's principal, cost = the part's book value + the
 * fee. Margin (book value = the opening principal + its fee): long: proceeds = the sale's principal, cost =
 * the opening principal + both fees; short: proceeds = the short sale's principal, cost = the buy-back's
 * principal + both fees.
 */
export function realizedPart(
  position: Pick<PositionRow, 'direction' | 'leverage' | 'quantity' | 'avgPrice' | 'bookValue'>,
  q: number,
  principal: Sen,
  fee: Sen,
): { bookPart: Sen; proceeds: Sen; cost: Sen } {
  const whole = q === position.quantity;
  const part = (total: Sen) => (whole ? total : proportionalPart(total, q, position.quantity));
  if (!isMargin(position)) {
    const bookPart = part(sen(position.bookValue));
    return { bookPart, proceeds: principal, cost: sen(bookPart + fee) };
  }
  const opening = principalOf(sen(position.avgPrice), q);
  const openingFee = part(sen(Math.max(0, position.bookValue - position.avgPrice * position.quantity)));
  const bookPart = sen(opening + openingFee);
  return position.direction === 'long'
    ? { bookPart, proceeds: principal, cost: sen(opening + openingFee + fee) }
    : { bookPart, proceeds: opening, cost: sen(principal + openingFee + fee) };
}
