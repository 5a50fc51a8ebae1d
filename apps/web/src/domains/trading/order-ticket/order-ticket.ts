import {
  LOT_SIZE,
  isValidTick,
  tickDown,
  tickSize,
  tickUp,
  type TaxAccount,
  type TInstrument,
  type TPlaceOrderRequest,
  type TQuote,
} from '@kabuto/contract';
import type { TFunction } from 'i18next';
import type { Direction, OrderFigures, PriceType } from '../order-figures';
import { inputToPrice, priceToInput } from '../price-input';
import { accountLabel, collateralRatePercent, marginTypeLabel, tokyoDate, tradeLabel } from '../order-labels';

/**
 * The pure part of an order ticket (the stock page's order form and the AI-trade tab's quick order):
 * validation, the − / + steps, the request body and the confirm dialog's rows. No React, no i18n
 * instance: messages come back as contract keys, texts through the `t` passed in.
 */
export type Leverage = 1 | 2 | 3;

/** The first choice on the ticket: 現物 (cash, the default) or 信用 (margin). */
export type TradeKind = 'cash' | 'margin';
/** 制度信用 (standardized: repaid within six months) or 一般信用 (negotiable). */
export type MarginKind = 'standard' | 'general';

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
  kind: TradeKind;
  /** for margin: 制度信用 / 一般信用 */
  marginType: MarginKind;
  /** for margin: 信用新規買 (long) or 信用新規売 (short); a cash order is always a buy */
  direction: Direction;
  priceType: PriceType;
  limitPrice: number | null;
  quantity: number;
  /** for margin: the collateral rate 100% / 50% / 33% as the wire's leverage 1 / 2 / 3 */
  leverage: Leverage;
  dayTrade: boolean;
  /** the account (特定 / 一般 / NISA); null leaves it to the server (the customer's default) */
  account: TaxAccount | null;
}

/** Only a margin ticket opens a margin position (a short is always margin). */
export function isMarginTicket(order: Pick<TicketOrder, 'kind'>): boolean {
  return order.kind === 'margin';
}

/** Where an order goes: the exchange, or the PTS session (cash buys as applications). */
export type Venue = 'exchange' | 'pts';

/** Fields a caller fixes on a ticket; a fixed field's control is hidden. */
export interface TicketFixed {
  kind?: TradeKind;
  marginType?: MarginKind;
  direction?: Direction;
  dayTrade?: boolean;
}

/** The ticket's fields in the order they are shown. */
export type TicketField =
  | 'kind'
  | 'marginType'
  | 'side'
  | 'account'
  | 'collateralRate'
  | 'marginFigures'
  | 'priceType'
  | 'price'
  | 'quantity'
  | 'dayTrade';

/**
 * The fields of a ticket, in order, fixed ones left out. A margin ticket names what it is (制度 / 一般,
 * 信用新規買 / 売) and shows the account, the collateral rate, the buying power and the collateral
 * **before** the quantity; the account selector shows when there are accounts to choose from.
 */
export function ticketFields(kind: TradeKind, fixed: TicketFixed, hasAccounts: boolean): TicketField[] {
  const fields: TicketField[] = [];
  if (fixed.kind === undefined) fields.push('kind');
  if (kind === 'margin') {
    if (fixed.marginType === undefined) fields.push('marginType');
    if (fixed.direction === undefined) fields.push('side');
  }
  if (hasAccounts) fields.push('account');
  if (kind === 'margin') fields.push('collateralRate', 'marginFigures');
  fields.push('priceType', 'price', 'quantity');
  if (kind === 'margin' && fixed.dayTrade === undefined) fields.push('dayTrade');
  return fields;
}

/** The accounts an order may go to: those held; never NISA for margin. */
export function offeredAccounts(held: readonly TaxAccount[], kind: TradeKind): TaxAccount[] {
  return held.filter((a) => kind === 'cash' || a !== 'nisa');
}

/** The account a ticket sends: the choice when offered, else the default when offered, else the first. */
export function effectiveAccount(
  choice: TaxAccount | null,
  offered: readonly TaxAccount[],
  defaultAccount: TaxAccount | null,
): TaxAccount | null {
  if (choice !== null && offered.includes(choice)) return choice;
  if (defaultAccount !== null && offered.includes(defaultAccount)) return defaultAccount;
  return offered[0] ?? null;
}

/**
 * The POST /api/trade/placeOrder body: a cash order is a long at leverage 1 with margin_type cash; a margin
 * order names 制度 / 一般, its side and its collateral rate (as leverage); a day trade only applies to a
 * margin order. The venue is sent only for PTS, the account only when known.
 */
export function placeOrderBody(
  code: string,
  order: TicketOrder,
  venue: Venue = 'exchange',
): TPlaceOrderRequest {
  const margin = isMarginTicket(order);
  return {
    ...(venue === 'pts' ? { venue } : {}),
    code,
    direction: margin ? order.direction : 'long',
    price_type: order.priceType,
    ...(order.priceType === 'limit' && order.limitPrice !== null ? { price: order.limitPrice } : {}),
    quantity: order.quantity,
    leverage: margin ? order.leverage : 1,
    day_trade: margin && order.dayTrade,
    margin_type: margin ? order.marginType : 'cash',
    ...(order.account === null ? {} : { account: order.account }),
  };
}

/** The label / value rows of the confirm dialog. */
export function confirmRows(
  t: TFunction,
  stock: Pick<TicketStock, 'code' | 'name'>,
  order: TicketOrder,
  figures: Pick<OrderFigures, 'price' | 'principal' | 'fee' | 'total' | 'collateral'>,
  format: { price: (sen: number) => string; money: (sen: number) => string; shares: (n: number) => string },
  repayDeadline: string | null = null,
): [string, string][] {
  const margin = isMarginTicket(order);
  const wire = placeOrderBody(stock.code, order);
  const trade = tradeLabel(t, {
    kind: 'open',
    direction: wire.direction,
    leverage: wire.leverage,
    margin_type: wire.margin_type,
  });
  const type = margin
    ? marginTypeLabel(t, order.marginType) + (order.dayTrade ? ` · ${t('trading.dayTrade')}` : '')
    : marginTypeLabel(t, 'cash');
  const rows: [string, string][] = [
    [t('trading.stock'), `${stock.name} (${stock.code})`],
    [t('trading.direction'), trade],
    [t('trading.leverage'), type],
  ];
  if (order.account !== null) rows.push([t('ticket.accountLabel'), accountLabel(t, order.account)]);
  if (margin) {
    rows.push([
      t('ticket.collateralRate'),
      t('ticket.rate', { rate: collateralRatePercent(order.leverage) }),
    ]);
    if (repayDeadline !== null) rows.push([t('ticket.repayDeadline'), repayDeadline]);
  }
  rows.push(
    [t('trading.priceType'), t(order.priceType === 'market' ? 'trading.market' : 'trading.limit')],
    [
      t('trading.price'),
      order.priceType === 'market'
        ? t('trading.marketPriceEstimate', { price: format.price(figures.price) })
        : format.price(figures.price),
    ],
    [t('trading.quantity'), t('trading.shares', { quantity: format.shares(order.quantity) })],
    [margin ? t('ticket.positionValue') : t('trading.principal'), format.money(figures.principal)],
  );
  if (margin) rows.push([t('ticket.collateralNeeded'), format.money(figures.collateral)]);
  rows.push(
    [t('trading.fee'), format.money(figures.fee)],
    [margin ? t('trading.totalMargin') : t('trading.total'), format.money(figures.total)],
  );
  return rows;
}

/** 制度信用's repayment period (MARKET.md; the server's `standard_margin_months` setting decides the real date). */
export const STANDARD_MARGIN_MONTHS = 6;

/**
 * The Tokyo calendar date (YYYY-MM-DD) `months` after `now`'s Tokyo date, the day clamped to the month's
 * end (Aug 31 + 6 months = Feb 28/29): the repayment deadline a 制度信用 position opened now would get.
 */
export function repayDateAfter(now: Date, months: number = STANDARD_MARGIN_MONTHS): string {
  const [y = 0, m = 1, d = 1] = tokyoDate(now).split('-').map(Number);
  const index = y * 12 + (m - 1) + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${String(year)}-${pad(month)}-${pad(Math.min(d, last))}`;
}
