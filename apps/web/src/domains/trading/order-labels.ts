import { dateTimeFormat, MARKET_TIME_ZONE, type TOrder, type TPosition } from '@kabuto/contract';
import type { TFunction } from 'i18next';

/**
 * Words for the order reasons and PTS application statuses, and the "today's day trades" filter. Pure:
 * texts come through the `t` passed in.
 */

/** The reason codes the server sets on an order (null for an ordinary order). */
export const ORDER_REASONS = ['pts_session_ended', 'day_trade_close', 'margin_call_deadline'] as const;
export type OrderReason = (typeof ORDER_REASONS)[number];

export function isKnownReason(reason: string | null): reason is OrderReason {
  return reason !== null && (ORDER_REASONS as readonly string[]).includes(reason);
}

/** The reason in words; an unknown code is shown as it came; null for none. */
export function reasonLabel(t: TFunction, reason: string | null): string | null {
  if (reason === null || reason === '') return null;
  return isKnownReason(reason) ? t(`reasons.${reason}`) : reason;
}

/** The key of a status on a PTS application: applying / success / failed / cancelled. */
export const PTS_STATUS_KEYS: Record<TOrder['status'], string> = {
  pending: 'pts.status.applying',
  filled: 'pts.status.success',
  rejected: 'pts.status.failed',
  cancelled: 'pts.status.cancelled',
};

/** An order's status in words: PTS applications have their own words. */
export function orderStatusLabel(t: TFunction, order: Pick<TOrder, 'status' | 'venue'>): string {
  return order.venue === 'pts' ? t(PTS_STATUS_KEYS[order.status]) : t(`orders.status.${order.status}`);
}

/** The Tokyo calendar date (YYYY-MM-DD) of an instant. */
export function tokyoDate(at: string | Date): string {
  const date = typeof at === 'string' ? new Date(at) : at;
  return dateTimeFormat('en-CA', {
    timeZone: MARKET_TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(date);
}

/** Day-trade positions closed on the Tokyo date of `now`, latest first. */
export function closedDayTradesToday<P extends Pick<TPosition, 'day_trade' | 'closed_at'>>(
  positions: readonly P[],
  now: Date,
): P[] {
  const today = tokyoDate(now);
  return positions
    .filter((p) => p.day_trade && p.closed_at !== null && tokyoDate(p.closed_at) === today)
    .sort((a, b) => (b.closed_at ?? '').localeCompare(a.closed_at ?? ''));
}

/** The day-trade positions among the holding ones. */
export function holdingDayTrades<P extends Pick<TPosition, 'day_trade'>>(positions: readonly P[]): P[] {
  return positions.filter((p) => p.day_trade);
}

/** The reason of the order that closed each position (position id → reason), from a list of orders. */
export function closeReasons(
  orders: readonly Pick<TOrder, 'kind' | 'position_id' | 'reason' | 'status'>[],
): Map<number, OrderReason> {
  const map = new Map<number, OrderReason>();
  for (const order of orders) {
    if (order.kind !== 'close' || order.position_id === null || order.status !== 'filled') continue;
    if (isKnownReason(order.reason)) map.set(order.position_id, order.reason);
  }
  return map;
}
