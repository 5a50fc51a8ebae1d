import type { TOrder, TPosition } from '@kabuto/contract';
import type { TFunction } from 'i18next';
import { isMargin } from '@/domains/trading/order-figures';

export const directionLabel = (t: TFunction, direction: 'long' | 'short') =>
  t(direction === 'long' ? 'trading.long' : 'trading.short');

/** 現物 for a cash position, 信用 ×n for a margin one. */
export const leverageLabel = (t: TFunction, direction: 'long' | 'short', leverage: number) =>
  isMargin(direction, leverage) ? t('trading.marginLeverage', { leverage }) : t('trading.cash');

export const priceTypeLabel = (t: TFunction, type: 'market' | 'limit') =>
  t(type === 'market' ? 'trading.market' : 'trading.limit');

/** "Buy" / "Sell" with what the order does: open a long, close a short... */
export const orderKindLabel = (t: TFunction, order: Pick<TOrder, 'kind' | 'direction'>) =>
  t(order.kind === 'open' ? 'orders.kindOpen' : 'orders.kindClose', {
    direction: directionLabel(t, order.direction),
  });

/** Money flows are neutral (in / out), never rise and fall colours. */
export const plClass = (v: number) => (v > 0 ? 'price-rise' : v < 0 ? 'price-fall' : 'price-flat');

/** The account a position is held in (特定 / 一般 / NISA) and, for margin, 制度信用 or 一般信用 (ADR 0021). */
export const accountTags = (t: TFunction, position: Pick<TPosition, 'account' | 'margin_type'>): string[] => [
  t(`tax.accounts.${position.account}`),
  ...(position.margin_type === 'cash' ? [] : [t(`tax.marginTypes.${position.margin_type}`)]),
];
