import {
  collateralFor,
  feeFor as contractFee,
  isMarginPosition,
  type MarginType,
  type TPosition,
  type TQuote,
  type TTradingRules,
} from '@kabuto/contract';

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
  /** 1, 2 or 3: the collateral rate 100% / 50% / 33% of a margin order (1 alone is cash unless marginType says margin) */
  leverage: number;
  /** 制度信用 / 一般信用 make even a leverage-1 long a margin order (a 100% collateral rate) */
  marginType?: MarginType;
}

export type FeeRules = Pick<TTradingRules, 'fee_bp' | 'fee_min' | 'fee_max'>;

/** The published commission (one definition with the server's, in the contract). */
export function feeFor(principal: number, rules: FeeRules): number {
  return contractFee(principal, { bp: rules.fee_bp, min: rules.fee_min, max: rules.fee_max });
}

/** A short position is always a margin position; a long one is margin when leveraged. */
export const isMargin = isMarginPosition;

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
  /** margin: the collateral (principal / leverage rounded up to the yen, at least 30%); cash: 0 */
  collateral: number;
  /** cash long: principal + fee; margin: collateral + fee */
  total: number;
  margin: boolean;
}

export { collateralFor };

export function orderFigures(input: OrderInput, quote: TQuote, rules: FeeRules): OrderFigures {
  const price = estimatePrice(input, quote);
  const quantity = Math.max(0, Math.trunc(input.quantity));
  const principal = price * quantity;
  const marketValue = quote.last * quantity;
  const fee = feeFor(principal, rules);
  const margin = isMargin(input.direction, input.leverage, input.marginType);
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
  position: Pick<TPosition, 'direction' | 'quantity' | 'avg_price' | 'collateral' | 'leverage'> & {
    margin_type?: MarginType;
  },
  lastPrice: number,
): PositionFigures {
  const q = position.quantity;
  const marketValue = lastPrice * q;
  const cost = position.avg_price * q;
  const perShare =
    position.direction === 'long' ? lastPrice - position.avg_price : position.avg_price - lastPrice;
  const floatingPl = perShare * q;
  const floatingPlBp = cost > 0 ? Number(floorDiv(BigInt(floatingPl) * 10_000n, BigInt(cost))) : 0;
  const margin = isMargin(position.direction, position.leverage, position.margin_type);
  const maintenanceBp =
    margin && marketValue > 0
      ? Number(floorDiv(BigInt(position.collateral + floatingPl) * 10_000n, BigInt(marketValue)))
      : null;
  return { lastPrice, marketValue, floatingPl, floatingPlBp, maintenanceBp };
}
