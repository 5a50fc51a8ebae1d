import type { TOrder } from '@kabuto/contract';
import type { TFunction } from 'i18next';
import {
  accountLabel,
  isMarginTrade,
  marginTypeLabel,
  marginTypeOf,
  positionKindLabel,
  tradeLabel,
} from '@/domains/trading/order-labels';

type TradeFields = Pick<TOrder, 'direction' | 'leverage' | 'margin_type' | 'day_trade'>;

/** 現物 for a cash trade; 制度信用 / 一般信用 (and 日計り信用) for a margin one. */
export const tradeTypeLabel = (t: TFunction, x: TradeFields) =>
  marginTypeLabel(t, marginTypeOf(x)) +
  (isMarginTrade(x) && x.day_trade ? ` · ${t('trading.dayTrade')}` : '');

export { accountLabel, positionKindLabel, tradeLabel };

export const priceTypeLabel = (t: TFunction, type: 'market' | 'limit') =>
  t(type === 'market' ? 'trading.market' : 'trading.limit');

/** 現物買 / 現物売 / 信用新規買 / 信用新規売 / 返済売 / 返済買. */
export const orderKindLabel = (
  t: TFunction,
  order: Pick<TOrder, 'kind' | 'direction' | 'leverage' | 'margin_type'>,
) => tradeLabel(t, order);

/** Money flows are neutral (in / out), never rise and fall colours. */
export const plClass = (v: number) => (v > 0 ? 'price-rise' : v < 0 ? 'price-fall' : 'price-flat');
