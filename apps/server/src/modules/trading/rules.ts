import { and, eq, isNull, or, sql } from 'drizzle-orm';
import { MARGIN_RULES, floorBp, isMarginPosition } from '@kabuto/contract';
import type { Db, Tx } from '../../db/types.js';
import { orders, positions } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { tokyoInstant, tokyoParts } from '../../lib/tokyo-time.js';
import { tradingCalendar } from '../../market/calendar.js';
import { sessionState, TSE_HOURS } from '../../market/sessions.js';
import { lockUser } from '../ledger/ledger.js';
import { notify } from '../messages/messages.js';
import { ptsSessionEnd } from '../../market/venues.js';
import { closePosition } from './close.js';
import type { Outbox, PositionRow, TradingDeps } from './orders.js';
import { cancelOrder, endPendingOrder } from './pending.js';

/**
 * The rules that close positions without the user's order (ADR 0010), checked on every matcher pass:
 * - a day-trade position is closed at the market from one minute before continuous trading ends (15:24),
 *   and at the first chance after that if the market could not take it then;
 * - a margin position whose maintenance ratio ((collateral + floating P&L) / market value) falls below 20%
 *   gets a margin call with a deadline of 12:00 on the second business day; the call is lifted when the ratio
 *   recovers; at the deadline a position still below is closed at the market.
 * Every such event is a message to the user.
 */
export const DAY_TRADE_CLOSE_MINUTE = TSE_HOURS.continuousEnd - 1;
export const MARGIN_CALL_DEADLINE_MINUTE = 12 * 60;

export function maintenanceBp(position: PositionRow, last: number): number {
  const floating =
    (position.direction === 'long' ? last - position.avgPrice : position.avgPrice - last) * position.quantity;
  const value = last * position.quantity;
  return floorBp(position.collateral + floating, value);
}

export function marginCallDeadline(tradingDate: string): Date {
  return tokyoInstant(tradingCalendar().addBusinessDays(tradingDate, 2), MARGIN_CALL_DEADLINE_MINUTE);
}

async function closeByRule(tx: Tx, deps: TradingDeps, position: PositionRow, reason: string, outbox: Outbox) {
  // Pending close orders of the position give way: the rule closes everything that is held.
  const pending = await tx
    .select()
    .from(orders)
    .where(and(eq(orders.positionId, position.id), eq(orders.status, 'pending'), eq(orders.kind, 'close')));
  for (const order of pending) await cancelOrder(tx, deps, position.userId, order.orderNo, outbox);
  const order = await closePosition(
    tx,
    deps,
    position.userId,
    { position_id: position.id, price_type: 'market', quantity: position.quantity },
    outbox,
    true,
  );
  await tx.update(orders).set({ reason }).where(eq(orders.id, order.id));
  await notePosition(
    tx,
    outbox,
    position,
    reason === 'day_trade_close' ? 'position.day_trade_closed' : 'position.forced_close',
    { order_no: order.orderNo },
    deps.clock.now(),
  );
}

/** PTS applications still waiting when their session ends fail, with the reason, and give their cash back. */
export async function expirePtsApplications(db: Db, deps: TradingDeps): Promise<Outbox> {
  const outbox: Outbox = [];
  const now = deps.clock.now();
  if (deps.market.clockMode === 'always-open') return outbox;
  const waiting = await db
    .select()
    .from(orders)
    .where(and(eq(orders.status, 'pending'), eq(orders.venue, 'pts')));
  for (const candidate of waiting) {
    if (now.getTime() < ptsSessionEnd(candidate.createdAt).getTime()) continue;
    await db.transaction(async (tx) => {
      await lockUser(tx, candidate.userId);
      const [order] = await tx
        .select()
        .from(orders)
        .where(and(eq(orders.id, candidate.id), eq(orders.status, 'pending')));
      if (order) await endPendingOrder(tx, deps, order, 'rejected', 'pts_session_ended', outbox);
    });
  }
  return outbox;
}

/** What the rules do to a held position now; `none` most of the time. */
export type RuleAction =
  | { kind: 'none' }
  | { kind: 'day_trade_close' }
  | { kind: 'margin_call'; ratio: number }
  | { kind: 'margin_call_close' }
  | { kind: 'margin_call_met'; ratio: number };

/** The rules of ADR 0010 for one position at the market's last price (pure: decides, changes nothing). */
export function ruleAction(
  position: PositionRow,
  last: number,
  session: { always_open: boolean; continuous: boolean },
  now: Date,
): RuleAction {
  if (position.dayTrade && !session.always_open) {
    const tokyo = tokyoParts(now);
    const openedOn = tokyoParts(position.openedAt).date;
    const due = openedOn < tokyo.date || tokyo.minuteOfDay >= DAY_TRADE_CLOSE_MINUTE;
    if (due && session.continuous) return { kind: 'day_trade_close' };
  }
  if (!isMarginPosition(position.direction, position.leverage, position.marginType)) return { kind: 'none' };
  const ratio = maintenanceBp(position, last);
  if (ratio < MARGIN_RULES.maintenanceBp) {
    if (position.marginCallDeadline === null) return { kind: 'margin_call', ratio };
    if (now.getTime() >= position.marginCallDeadline.getTime() && session.continuous) {
      return { kind: 'margin_call_close' };
    }
    return { kind: 'none' };
  }
  return position.marginCallDeadline === null ? { kind: 'none' } : { kind: 'margin_call_met', ratio };
}

/**
 * One pass of the rules over the held day-trade and margin positions. Each is judged first on the rows as
 * read (most need nothing, and cost no transaction); one that needs something is judged again under its
 * user's lock, on the row as it is then, and only that judgement acts.
 */
export async function enforcePositionRules(db: Db, deps: TradingDeps): Promise<Outbox> {
  const outbox: Outbox = [];
  const now = deps.clock.now();
  const session = sessionState(now, { mode: deps.market.clockMode });
  const held = await db
    .select()
    .from(positions)
    .where(
      and(
        eq(positions.status, 'holding'),
        or(eq(positions.dayTrade, true), sql`${positions.leverage} > 1`, eq(positions.direction, 'short')),
      ),
    );
  for (const candidate of held) {
    const quote = deps.market.quote(candidate.code);
    if (!quote || ruleAction(candidate, quote.last, session, now).kind === 'none') continue;
    await db.transaction(async (tx) => {
      await lockUser(tx, candidate.userId);
      const [position] = await tx
        .select()
        .from(positions)
        .where(and(eq(positions.id, candidate.id), eq(positions.status, 'holding')));
      if (!position) return;
      const action = ruleAction(position, quote.last, session, now);
      try {
        switch (action.kind) {
          case 'none':
            return;
          case 'day_trade_close':
            await closeByRule(tx, deps, position, 'day_trade_close', outbox);
            return;
          case 'margin_call_close':
            await closeByRule(tx, deps, position, 'margin_call_deadline', outbox);
            return;
          case 'margin_call': {
            const deadline = marginCallDeadline(session.trading_date);
            await tx
              .update(positions)
              .set({ marginCallAt: now, marginCallDeadline: deadline })
              .where(eq(positions.id, position.id));
            await notePosition(
              tx,
              outbox,
              position,
              'margin.call',
              { ratio_bp: action.ratio, deadline: deadline.toISOString() },
              now,
            );
            return;
          }
          case 'margin_call_met':
            await tx
              .update(positions)
              .set({ marginCallAt: null, marginCallDeadline: null })
              .where(and(eq(positions.id, position.id), isNull(positions.closedAt)));
            await notePosition(tx, outbox, position, 'margin.call_met', { ratio_bp: action.ratio }, now);
            return;
        }
      } catch (error) {
        // A stale quote or a closed market: the rule tries again on the next pass.
        if (!(error instanceof AppError)) throw error;
      }
    });
  }
  return outbox;
}

/** A message about a position (its id and code always included). */
function notePosition(
  tx: Tx,
  outbox: Outbox,
  position: PositionRow,
  kind: string,
  extra: Record<string, unknown>,
  at: Date,
): Promise<void> {
  return notify(
    tx,
    outbox,
    position.userId,
    kind,
    { position_id: position.id, code: position.code, ...extra },
    at,
  );
}
