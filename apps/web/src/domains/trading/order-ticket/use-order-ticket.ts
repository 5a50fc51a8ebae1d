import { LOT_SIZE, sen, type TOrder, type TQuote, type TTradingRules } from '@kabuto/contract';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldIssuesOf } from '@kabuto/client/api-error';
import { queryClient } from '@/shared/api/query-client';
import { formatDateTime, formatMoney } from '@/shared/format/format';
import { formatPrice, formatShares, priceDecimalsOf } from '@/shared/format/price';
import { tContract } from '@/shared/i18n/i18n';
import { marketStatusQuery } from '@/shared/market-clock/market-status';
import { useIsStale } from '@/shared/market-clock/staleness';
import { useUserInfo } from '@/shared/session/user-info-query';
import { showSuccess } from '@/shared/ui/toast';
import { createIdempotentAction, sendWithRetry } from '../idempotent';
import { orderFigures, type Direction, type PriceType } from '../order-figures';
import { inputToPrice, inputToQuantity, priceToInput } from '../price-input';
import { reasonLabel } from '../order-labels';
import { invalidateTrading, placeOrder } from '../trading-api';
import {
  confirmRows,
  isMarginTicket,
  limitPriceIssue,
  placeOrderBody,
  quantityIssue,
  steppedPriceText,
  steppedQuantity,
  type Leverage,
  type TicketFixed,
  type TicketIssue,
  type TicketStock,
  type Venue,
} from './order-ticket';
import { useLocale } from '@/shared/i18n/use-locale';

const message = (issue: TicketIssue | null) => (issue === null ? null : tContract(issue.key, issue.params));

/**
 * The dialogs an order ticket opens, given by the view (order-ticket-view.tsx's ticketDialogs) so that this
 * hook is logic only; a test passes its own.
 */
export interface TicketDialogs {
  /** The confirm dialog of an order, shown as its rows; true places the order. */
  confirmOrder: (rows: readonly (readonly [string, string])[]) => Promise<boolean>;
  /** A yes/no question (the retry prompt after an unknown outcome). */
  confirm: (options: { content: string; confirmText: string; cancelText: string }) => Promise<boolean>;
  /** A message with one button. */
  alert: (options: { title?: string; content: string; confirmText: string }) => Promise<void>;
}

/**
 * One order ticket's state and behaviour: the fields, their validation (client rules first, then the
 * server's field issues), the live figures, the confirm dialog and the submit with one Idempotency-Key
 * per attempt (the same key on a retry after an unknown outcome).
 */
export function useOrderTicket({
  stock,
  quote,
  rules,
  dialogs,
  venue = 'exchange',
  fixed = {},
  leverages = [1, 2, 3],
  defaultLeverage,
}: {
  stock: TicketStock;
  quote: TQuote;
  rules: TTradingRules;
  dialogs: TicketDialogs;
  /** 'pts': a PTS application (the caller fixes direction long and leverage 1). */
  venue?: Venue;
  /** Fields the caller fixes; their controls are hidden. */
  fixed?: TicketFixed;
  /** The leverages offered (all three unless the caller narrows them). */
  leverages?: readonly Leverage[];
  defaultLeverage?: Leverage;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { userInfo } = useUserInfo();
  const status = useQuery(marketStatusQuery()).data;
  const stale = useIsStale(quote.time);
  const [directionState, setDirection] = useState<Direction>('long');
  const [priceType, setPriceType] = useState<PriceType>('market');
  const [priceText, setPriceText] = useState('');
  const [quantityText, setQuantityText] = useState(String(LOT_SIZE));
  const [leverageState, setLeverage] = useState<Leverage>(defaultLeverage ?? leverages[0] ?? 1);
  const [dayTradeState, setDayTrade] = useState(false);
  const direction = fixed.direction ?? directionState;
  const leverage = fixed.leverage ?? leverageState;
  const dayTrade = fixed.dayTrade ?? dayTradeState;
  const [showErrors, setShowErrors] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const action = useMemo(() => createIdempotentAction(placeOrder), []);

  const decimals = priceDecimalsOf(stock.price_decimals);
  const margin = isMarginTicket({ direction, leverage });
  const limitPrice = priceType === 'limit' ? inputToPrice(priceText) : null;
  const quantity = inputToQuantity(quantityText);
  const money = (v: number) => formatMoney(sen(v), locale);
  const price = (v: number) => formatPrice(v, decimals, locale);

  const priceError =
    priceType !== 'limit'
      ? null
      : (message(limitPriceIssue(limitPrice, stock.topix500, quote, price)) ?? serverErrors['price'] ?? null);
  const quantityError = message(quantityIssue(quantity)) ?? serverErrors['quantity'] ?? null;

  const figures = orderFigures(
    { direction, priceType, limitPrice, quantity: quantity ?? 0, leverage },
    quote,
    rules,
  );
  const available = userInfo?.available_balance ?? 0;

  const clearServerErrors = () => {
    setServerErrors({});
  };

  async function askRetry(): Promise<boolean> {
    return dialogs.confirm({
      content: t('trading.retryPrompt'),
      confirmText: t('trading.retry'),
      cancelText: t('common.cancel'),
    });
  }

  async function afterPlaced(order: TOrder) {
    void invalidateTrading(queryClient);
    if (order.status === 'rejected') {
      await dialogs.alert({
        title: t('orders.status.rejected'),
        content: `${t('orders.orderNo')}: ${order.order_no}${order.reason === null ? '' : ` · ${reasonLabel(t, order.reason) ?? ''}`}`,
        confirmText: t('common.ok'),
      });
      return;
    }
    showSuccess(t('trading.placedToast', { orderNo: order.order_no }), 2000);
    if (order.status === 'pending' && order.fills_from !== null) {
      await dialogs.alert({
        content: t('trading.fillsFrom', { time: formatDateTime(order.fills_from, locale) }),
        confirmText: t('common.ok'),
      });
    }
  }

  async function submit() {
    setShowErrors(true);
    if (priceError !== null || quantityError !== null || quantity === null) return;
    const order = { direction, priceType, limitPrice, quantity, leverage, dayTrade };
    const rows = confirmRows(t, stock, order, figures, {
      price,
      money,
      shares: (n) => formatShares(n, locale),
    });
    if (!(await dialogs.confirmOrder(rows))) return;
    setBusy(true);
    setServerErrors({});
    try {
      const placed = await sendWithRetry(action, placeOrderBody(stock.code, order, venue), askRetry);
      if (placed !== null) await afterPlaced(placed);
    } catch (error) {
      const issues: Record<string, string> = {};
      for (const issue of fieldIssuesOf(error)) issues[issue.field] = issue.message;
      setServerErrors(issues);
    } finally {
      setBusy(false);
    }
  }

  return {
    stock,
    quote,
    rules,
    direction,
    setDirection,
    priceType,
    /** A limit price starts at the last price. */
    choosePriceType: (next: PriceType) => {
      setPriceType(next);
      if (next === 'limit' && priceText === '') setPriceText(priceToInput(quote.last));
    },
    priceText,
    changePriceText: (text: string) => {
      setPriceText(text);
      clearServerErrors();
    },
    stepPrice: (dir: 1 | -1) => {
      setPriceText(steppedPriceText(priceText, quote.last, stock.topix500, dir));
      clearServerErrors();
    },
    quantityText,
    changeQuantityText: (text: string) => {
      setQuantityText(text);
      clearServerErrors();
    },
    stepQuantity: (dir: 1 | -1) => {
      setQuantityText(String(steppedQuantity(quantity, dir)));
      clearServerErrors();
    },
    leverage,
    setLeverage,
    leverages,
    fixed,
    venue,
    dayTrade,
    setDayTrade,
    /** Another stock was picked: a limit price belongs to one stock, so it starts again at that one's last. */
    restartFor: (last: number | undefined) => {
      if (priceType === 'limit' && last !== undefined) setPriceText(priceToInput(last));
      clearServerErrors();
    },
    margin,
    limitPrice,
    /** The messages to show now: a field's error shows once it has text or after a submit. */
    shownPriceError: showErrors || priceText !== '' ? priceError : null,
    shownQuantityError: showErrors || quantityText !== '' ? quantityError : null,
    quantityError,
    figures,
    available,
    status,
    stale,
    busy,
    money,
    price,
    submit,
  };
}

export type OrderTicket = ReturnType<typeof useOrderTicket>;
