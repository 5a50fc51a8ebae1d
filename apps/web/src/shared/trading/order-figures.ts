import type { TPosition, TQuote, TTradingRules } from '@kabuto/contract';

/**
 * The order form's live figures, all in integer sen (1/100 yen). No floating-point value ever touches
 * money: products of integers stay integers (BigInt where they could pass 2^53), and each division is an
 * explicit floor, explained where it happens. The server computes the authoritative figures; these are
 * the estimate shown before the user confirms.
 */
export type Direction = 'long' | 'short';
export type PriceType = 'market' | 'limit';

export interface OrderInput {
  direction: Direction;
  priceType: PriceType;
  /** sen; used for a limit order */
  limitPrice: number | null;
  /** shares */
  quantity: number;
  /** 1 = cash, 2 or 3 = margin */
  leverage: number;
}

export type FeeRules = Pick<TTradingRules, 'fee_bp' | 'fee_min' | 'fee_max'>;

const SEN_PER_YEN = 100n;

/**
 * The published commission: max(fee_min, floor(principal × fee_bp / 10,000)), rounded down to the yen,
 * then capped at fee_max when fee_max > 0. Floors because Japanese practice never rounds a fee up against
 * the customer. BigInt keeps principal × bp exact beyond 2^53.
 */
export function feeFor(principal: number, rules: FeeRules): number {
  if (principal <= 0) return 0;
  const byRate = (BigInt(principal) * BigInt(rules.fee_bp)) / 10_000n; // BigInt division truncates = floor (≥ 0)
  const raw = byRate > BigInt(rules.fee_min) ? byRate : BigInt(rules.fee_min);
  const yenFloor = (raw / SEN_PER_YEN) * SEN_PER_YEN; // floor to the whole yen (raw ≥ 0)
  const capped = rules.fee_max > 0 && yenFloor > BigInt(rules.fee_max) ? BigInt(rules.fee_max) : yenFloor;
  return Number(capped);
}

/** A short position is always a margin position; a long one is margin when leveraged. */
export function isMargin(direction: Direction, leverage: number): boolean {
  return direction === 'short' || leverage > 1;
}

/** The price an order is estimated at: the limit price, or the ask (buy, long) / bid (sell, short). */
export function estimatePrice(
  input: Pick<OrderInput, 'direction' | 'priceType' | 'limitPrice'>,
  quote: TQuote,
) {
  if (input.priceType === 'limit') return input.limitPrice ?? 0;
  const side = input.direction === 'long' ? quote.ask : quote.bid;
  // A quote without a book side falls back to the last price.
  return side > 0 ? side : quote.last;
}

export interface OrderFigures {
  /** sen per share the estimate uses */
  price: number;
  /** price × quantity */
  principal: number;
  /** last price × quantity */
  marketValue: number;
  fee: number;
  /** margin: the collateral (principal / leverage, floored to the sen); cash: 0 */
  collateral: number;
  /** cash long: principal + fee; margin: collateral + fee */
  total: number;
  margin: boolean;
}

/**
 * The collateral of a margin order: principal / leverage. The division floors to the sen (the estimate
 * never overstates; the server's figure, shown after the order, is the one that counts). Leverage 1 on
 * a short is a fully collateralised margin position: collateral = principal.
 */
export function collateralFor(principal: number, leverage: number): number {
  const lev = Math.max(1, Math.trunc(leverage));
  return Math.floor(principal / lev);
}

export function orderFigures(input: OrderInput, quote: TQuote, rules: FeeRules): OrderFigures {
  const price = estimatePrice(input, quote);
  const quantity = Math.max(0, Math.trunc(input.quantity));
  const principal = price * quantity;
  const marketValue = quote.last * quantity;
  const fee = feeFor(principal, rules);
  const margin = isMargin(input.direction, input.leverage);
  const collateral = margin ? collateralFor(principal, input.leverage) : 0;
  const total = margin ? collateral + fee : principal + fee;
  return { price, principal, marketValue, fee, collateral, total, margin };
}

export interface PositionFigures {
  lastPrice: number;
  marketValue: number;
  floatingPl: number;
  /** basis points of the cost (avg price × quantity), floored toward −∞ */
  floatingPlBp: number;
  /** (collateral + floating P&L) / market value in basis points, floored; null for cash positions */
  maintenanceBp: number | null;
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

/**
 * A held position revalued at a live last price: long gains when the price rises, short when it falls.
 * Ratios divide with an explicit floor (toward −∞) in BigInt, so a loss is never shown smaller than it is.
 */
export function positionFigures(
  position: Pick<TPosition, 'direction' | 'quantity' | 'avg_price' | 'collateral' | 'leverage'>,
  lastPrice: number,
): PositionFigures {
  const q = position.quantity;
  const marketValue = lastPrice * q;
  const cost = position.avg_price * q;
  const perShare =
    position.direction === 'long' ? lastPrice - position.avg_price : position.avg_price - lastPrice;
  const floatingPl = perShare * q;
  const floatingPlBp = cost > 0 ? Number(floorDiv(BigInt(floatingPl) * 10_000n, BigInt(cost))) : 0;
  const margin = isMargin(position.direction, position.leverage);
  const maintenanceBp =
    margin && marketValue > 0
      ? Number(floorDiv(BigInt(position.collateral + floatingPl) * 10_000n, BigInt(marketValue)))
      : null;
  return { lastPrice, marketValue, floatingPl, floatingPlBp, maintenanceBp };
}
