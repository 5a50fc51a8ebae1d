import { and, eq, sql } from 'drizzle-orm';
import { negSen, sen } from '@kabuto/contract';
import type { Executor, Tx } from '../../db/types.js';
import { orders, positions } from '../../db/schema.js';
import { notify } from '../messages/messages.js';
import { AppError } from '../../lib/app-error.js';
import { sessionState } from '../../market/sessions.js';
import { venueOpen } from '../../market/venues.js';
import { lockUser, postEntry } from '../ledger/ledger.js';
import { fillCloseOrder } from './close.js';
import { fillOpenOrder } from './open.js';
import { executablePrice, type OrderRow, type Outbox, type TradingDeps } from './orders.js';

/** Waiting orders: cancelled by the user, rejected by a rule, or filled by the matcher's pass. */

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
      params: { order_no: order.orderNo, code: order.code, quantity: order.quantity, amount: order.reserved },
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
    if (!quote || executablePrice(candidate, deps.market.board(candidate.code), true) === null) continue;
    await db.transaction(async (tx) => {
      await lockUser(tx, candidate.userId);
      const [order] = await tx
        .select()
        .from(orders)
        .where(and(eq(orders.id, candidate.id), eq(orders.status, 'pending')));
      if (!order) return;
      const fill = executablePrice(order, deps.market.board(order.code), true);
      if (fill === null) return;
      if (order.kind === 'open') await fillOpenOrder(tx, deps, order, fill, outbox);
      else await fillCloseOrder(tx, deps, order, fill, outbox);
    });
  }
  return outbox;
}
