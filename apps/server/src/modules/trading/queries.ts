import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/types.js';
import { orders, positions } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import type { OrderRow } from './orders.js';

/** A user's orders and positions, as the routes and the console list them. */

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
