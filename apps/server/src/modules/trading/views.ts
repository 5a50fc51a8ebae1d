import { sen, floorBp, isMarginPosition, type Locale, type TOrder, type TPosition } from '@kabuto/contract';
import { getInstrument } from '../../market/instruments.js';
import type { MarketDataProvider } from '../../market/provider.js';
import { readsJapanese } from '../market/views.js';
import type { OrderRow, PositionRow } from './orders.js';

function nameOf(code: string, locale: Locale): string {
  const instrument = getInstrument(code);
  if (!instrument) return code;
  return readsJapanese(locale) ? instrument.name_ja : instrument.name_en;
}

export function orderView(order: OrderRow, locale: Locale, fillsFrom: Date | null): TOrder {
  const principal = sen(order.principal);
  const fee = sen(order.fee);
  // Cash the order takes (buying) or gives (selling a cash position); for margin: the collateral side is
  // shown in the position, so the total here is principal and fee.
  const total = order.side === 'buy' ? sen(principal + fee) : sen(principal - fee);
  return {
    order_no: order.orderNo,
    code: order.code,
    name: nameOf(order.code, locale),
    kind: order.kind,
    direction: order.direction,
    side: order.side,
    price_type: order.priceType,
    limit_price: order.limitPrice === null ? null : sen(order.limitPrice),
    quantity: order.quantity,
    leverage: order.leverage,
    day_trade: order.dayTrade,
    venue: order.venue,
    account: order.taxAccount,
    margin_type: order.marginType,
    position_id: order.positionId,
    status: order.status,
    fill_price: order.fillPrice === null ? null : sen(order.fillPrice),
    principal,
    fee,
    total,
    reserved: sen(order.reserved),
    reason: order.reason,
    created_at: order.createdAt.toISOString(),
    filled_at: order.filledAt?.toISOString() ?? null,
    cancelled_at: order.cancelledAt?.toISOString() ?? null,
    fills_from: order.status === 'pending' && fillsFrom ? fillsFrom.toISOString() : null,
  };
}

/** A position valued at the market's last price; closed positions at their close price. */
export function positionView(position: PositionRow, locale: Locale, market: MarketDataProvider): TPosition {
  const last = sen(
    position.status === 'closed'
      ? (position.closePrice ?? position.avgPrice)
      : (market.quote(position.code)?.last ?? position.avgPrice),
  );
  const q = position.quantity;
  const cost = sen(position.avgPrice * q);
  const marketValue = sen(last * q);
  const floating =
    position.status === 'closed'
      ? sen(0)
      : sen((position.direction === 'long' ? last - position.avgPrice : position.avgPrice - last) * q);
  const margin = isMarginPosition(position.direction, position.leverage, position.marginType);
  return {
    id: position.id,
    code: position.code,
    name: nameOf(position.code, locale),
    direction: position.direction,
    leverage: position.leverage,
    day_trade: position.dayTrade,
    account: position.taxAccount,
    margin_type: position.marginType,
    book_value: sen(position.bookValue),
    repay_deadline: position.repayDeadline?.toISOString() ?? null,
    status: position.status === 'closed' ? 'closed' : position.closingQuantity > 0 ? 'closing' : 'holding',
    quantity: q,
    closing_quantity: position.closingQuantity,
    avg_price: sen(position.avgPrice),
    opened_at: position.openedAt.toISOString(),
    last_price: last,
    market_value: marketValue,
    cost,
    collateral: sen(position.collateral),
    floating_pl: floating,
    floating_pl_bp: cost === 0 ? 0 : Math.round((floating * 10_000) / cost),
    realized_pl: sen(position.realizedPl),
    closed_at: position.closedAt?.toISOString() ?? null,
    close_price: position.closePrice === null ? null : sen(position.closePrice),
    maintenance_bp:
      margin && marketValue > 0 && position.status !== 'closed'
        ? floorBp(position.collateral + floating, marketValue)
        : null,
    margin_call_deadline: position.marginCallDeadline?.toISOString() ?? null,
  };
}
