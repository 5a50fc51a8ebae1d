import {
  LOT_SIZE,
  isValidTick,
  tickDown,
  tickSize,
  tickUp,
  type TInstrument,
  type TPlaceOrderRequest,
  type TQuote,
} from '@kabuto/contract';
import type { TFunction } from 'i18next';
import type { Direction, OrderFigures, PriceType } from '../order-figures';
import { inputToPrice, priceToInput } from '../price-input';

/**
 * The pure part of an order ticket (the stock page's order form and the AI-trade tab's quick order):
 * validation, the − / + steps, the request body and the confirm dialog's rows. No React, no i18n
 * instance: messages come back as contract keys, texts through the `t` passed in.
 */
export type Leverage = 1 | 2 | 3;

/** The stock fields an order ticket needs. */
export type TicketStock = Pick<TInstrument, 'code' | 'name' | 'topix500' | 'price_decimals'>;

/** The largest quantity the contract accepts for one order. */
export const MAX_ORDER_QUANTITY = 10_000_000;

/** A validation message as a contract key ("validation.*" or "errors.*") and its parameters. */
export interface TicketIssue {
  key: string;
  params?: Record<string, string>;
}

/** The tick size at a price (a price below one sen counts as one sen). */
export function tickSizeAt(price: number, topix500: boolean): number {
  return tickSize(Math.max(1, price), topix500);
}

/** Why a limit price cannot be sent (required, off the tick grid, outside the daily limits), or null. */
export function limitPriceIssue(
  limitPrice: number | null,
  topix500: boolean,
  quote: Pick<TQuote, 'limit_down' | 'limit_up'>,
  formatPrice: (sen: number) => string,
): TicketIssue | null {
  if (limitPrice === null) return { key: 'validation.priceRequired' };
  if (!isValidTick(limitPrice, topix500)) {
    return {
      key: 'errors.PRICE_OFF_TICK',
      params: { tick: formatPrice(tickSizeAt(limitPrice, topix500)) },
    };
  }
  if (quote.limit_down > 0 && quote.limit_up > 0) {
    if (limitPrice < quote.limit_down || limitPrice > quote.limit_up) {
      return {
        key: 'errors.PRICE_OUTSIDE_LIMITS',
        params: { lower: formatPrice(quote.limit_down), upper: formatPrice(quote.limit_up) },
      };
    }
  }
  return null;
}

/** Why a quantity cannot be sent (required, not whole lots, too big), or null. */
export function quantityIssue(quantity: number | null): TicketIssue | null {
  if (quantity === null) return { key: 'validation.quantityRequired' };
  if (quantity % LOT_SIZE !== 0) return { key: 'validation.quantityLot' };
  if (quantity > MAX_ORDER_QUANTITY) return { key: 'validation.quantityTooBig' };
  return null;
}

/** The price text one tick up or down from the typed price (or the last price when none is typed). */
export function steppedPriceText(priceText: string, last: number, topix500: boolean, dir: 1 | -1): string {
  const current = Math.max(1, inputToPrice(priceText) ?? last);
  return priceToInput(dir === 1 ? tickUp(current, topix500) : tickDown(current, topix500));
}

/** The quantity one lot up or down: an odd quantity snaps to the lot grid first, never below one lot. */
export function steppedQuantity(quantity: number | null, dir: 1 | -1): number {
  const current = quantity ?? 0;
  const base = Math.floor(current / LOT_SIZE) * LOT_SIZE;
  return dir === 1
    ? base + LOT_SIZE
    : Math.max(LOT_SIZE, (current % LOT_SIZE === 0 ? base : base + LOT_SIZE) - LOT_SIZE);
}

export interface TicketOrder {
  direction: Direction;
  priceType: PriceType;
  limitPrice: number | null;
  quantity: number;
  leverage: Leverage;
  dayTrade: boolean;
}

/** A short position is always margin; a long one when leveraged. */
export function isMarginTicket(order: Pick<TicketOrder, 'direction' | 'leverage'>): boolean {
  return order.direction === 'short' || order.leverage > 1;
}

/** Where an order goes: the exchange, or the PTS session (cash buys as applications). */
export type Venue = 'exchange' | 'pts';

/** Fields a caller fixes on a ticket; a fixed field's control is hidden. */
export interface TicketFixed {
  direction?: Direction;
  leverage?: Leverage;
  dayTrade?: boolean;
}

/**
 * The POST /api/trade/placeOrder body; a day trade only applies to a margin order. The venue is sent
 * only for PTS (the exchange is the default).
 */
export function placeOrderBody(
  code: string,
  order: TicketOrder,
  venue: Venue = 'exchange',
): TPlaceOrderRequest {
  return {
    ...(venue === 'pts' ? { venue } : {}),
    code,
    direction: order.direction,
    price_type: order.priceType,
    ...(order.priceType === 'limit' && order.limitPrice !== null ? { price: order.limitPrice } : {}),
    quantity: order.quantity,
    leverage: order.leverage,
    day_trade: isMarginTicket(order) && order.dayTrade,
  };
}

/** The label / value rows of the confirm dialog. */
export function confirmRows(
  t: TFunction,
  stock: Pick<TicketStock, 'code' | 'name'>,
  order: TicketOrder,
  figures: Pick<OrderFigures, 'price' | 'principal' | 'fee' | 'total'>,
  format: { price: (sen: number) => string; money: (sen: number) => string; shares: (n: number) => string },
): [string, string][] {
  const margin = isMarginTicket(order);
  const leverageLabel = margin
    ? t('trading.marginLeverage', { leverage: order.leverage })
    : t('trading.cash');
  return [
    [t('trading.stock'), `${stock.name} (${stock.code})`],
    [t('trading.direction'), t(order.direction === 'long' ? 'trading.long' : 'trading.short')],
    [t('trading.priceType'), t(order.priceType === 'market' ? 'trading.market' : 'trading.limit')],
    [
      t('trading.price'),
      order.priceType === 'market'
        ? t('trading.marketPriceEstimate', { price: format.price(figures.price) })
        : format.price(figures.price),
    ],
    [t('trading.quantity'), t('trading.shares', { quantity: format.shares(order.quantity) })],
    [t('trading.leverage'), leverageLabel + (margin && order.dayTrade ? ` · ${t('trading.dayTrade')}` : '')],
    [t('trading.principal'), format.money(figures.principal)],
    [t('trading.fee'), format.money(figures.fee)],
    [margin ? t('trading.totalMargin') : t('trading.total'), format.money(figures.total)],
  ];
}
