import { isMarginPosition, type TOrder, type TPosition } from '@kabuto/contract';
import type { useLocale } from './locale';

type TFn = ReturnType<typeof useLocale>['t'];
type Trade = Pick<TOrder, 'direction' | 'leverage' | 'margin_type' | 'day_trade'>;

/**
 * The trading words of issue 23 (ADR 0025) as operators read them, the same as the customers': 現物買 /
 * 現物売, 信用新規買 / 信用新規売, 返済売 / 返済買; 現物 / 買建 / 売建; 制度信用 / 一般信用 with the
 * collateral rate (委託保証金率), never a leverage.
 */
function marginOf(x: Trade): 'cash' | 'standard' | 'general' {
  if (!isMarginPosition(x.direction, x.leverage, x.margin_type)) return 'cash';
  return x.margin_type === 'general' ? 'general' : 'standard';
}

function marginText(t: TFn, x: Trade): string {
  const type = marginOf(x);
  if (type === 'cash') return t('ticket.marginType.cash');
  const parts: string[] = [
    t(`ticket.marginType.${type}`),
    t('ticket.rate', { rate: Math.floor(100 / Math.max(1, x.leverage)) }),
  ];
  if (x.day_trade) parts.push(t('ticket.dayTrade'));
  return parts.join(' · ');
}

/** 現物買 · 現物, 信用新規売 · 制度信用 · 委託保証金率 33%... */
export function orderTradeText(t: TFn, o: Trade & Pick<TOrder, 'kind'>): string {
  const type = marginOf(o);
  const long = o.direction === 'long';
  const term =
    type === 'cash'
      ? o.kind === 'open'
        ? 'cashBuy'
        : 'cashSell'
      : o.kind === 'open'
        ? long
          ? 'marginOpenLong'
          : 'marginOpenShort'
        : long
          ? 'marginCloseLong'
          : 'marginCloseShort';
  return `${t(`ticket.trade.${term}`)} · ${marginText(t, o)}`;
}

/** 現物 · 現物, 買建 · 制度信用 · 委託保証金率 100%... */
export function positionKindText(t: TFn, p: Trade & Pick<TPosition, 'direction'>): string {
  const kind = marginOf(p) === 'cash' ? 'cash' : p.direction === 'long' ? 'long' : 'short';
  return `${t(`ticket.position.${kind}`)} · ${marginText(t, p)}`;
}
