import {
  dateTimeFormat,
  isMarginPosition,
  MARKET_TIME_ZONE,
  type MarginType,
  type TaxAccount,
  type TOrder,
  type TPosition,
} from '@kabuto/contract';
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

/**
 * The trading words of issue 23 (ADR 0025): a cash trade is 現物買 / 現物売, a margin one 信用新規買 /
 * 信用新規売 when it opens and 返済売 / 返済買 when it closes (repays); 建玉 (買建 / 売建) names margin
 * positions only, cash holdings are 現物. Keys live in the catalogues' `ticket` section.
 */
export type TradeTerm =
  'cashBuy' | 'cashSell' | 'marginOpenLong' | 'marginOpenShort' | 'marginCloseLong' | 'marginCloseShort';

type MarginFields = Pick<TOrder, 'direction' | 'leverage'> & { margin_type?: MarginType | undefined };

/** A margin trade or position: short, leveraged, or named 制度信用 / 一般信用 (a 100% collateral rate). */
export function isMarginTrade(x: MarginFields): boolean {
  return isMarginPosition(x.direction, x.leverage, x.margin_type);
}

/** The margin type to show: 現物 for cash; a margin position the old wire called cash is 制度信用. */
export function marginTypeOf(x: MarginFields): MarginType {
  if (!isMarginTrade(x)) return 'cash';
  return x.margin_type === 'general' ? 'general' : 'standard';
}

/** Which of the six trades an order is. */
export function tradeTerm(order: MarginFields & Pick<TOrder, 'kind'>): TradeTerm {
  const long = order.direction === 'long';
  if (!isMarginTrade(order)) return order.kind === 'open' ? 'cashBuy' : 'cashSell';
  if (order.kind === 'open') return long ? 'marginOpenLong' : 'marginOpenShort';
  return long ? 'marginCloseLong' : 'marginCloseShort';
}

/** 現物買, 信用新規売, 返済売... in the reader's language. */
export function tradeLabel(t: TFunction, order: MarginFields & Pick<TOrder, 'kind'>): string {
  return t(`ticket.trade.${tradeTerm(order)}`);
}

/** A position's kind: 現物 (cash holding), 買建 / 売建 (a margin position, 建玉). */
export function positionKindLabel(t: TFunction, position: MarginFields): string {
  if (!isMarginTrade(position)) return t('ticket.position.cash');
  return t(position.direction === 'long' ? 'ticket.position.long' : 'ticket.position.short');
}

/** 現物 / 制度信用 / 一般信用. */
export function marginTypeLabel(t: TFunction, marginType: MarginType): string {
  return t(`ticket.marginType.${marginType}`);
}

/** 特定口座 / 一般口座 / NISA. */
export function accountLabel(t: TFunction, account: TaxAccount): string {
  return t(`ticket.account.${account}`);
}

/**
 * The collateral rate (委託保証金率) of a leverage, in whole percent as shown: the server holds
 * max(principal / leverage, 30%) as collateral, so 1 → 100%, 2 → 50%, 3 → 33%.
 */
export function collateralRatePercent(leverage: number): number {
  return Math.floor(100 / Math.max(1, leverage));
}

/** The leverage a collateral rate stands for (the wire still says leverage). */
export const COLLATERAL_RATE_LEVERAGES = [1, 2, 3] as const;
