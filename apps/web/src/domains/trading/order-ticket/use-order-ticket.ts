import {
  LOT_SIZE,
  sen,
  type TaxAccount,
  type TOrder,
  type TQuote,
  type TTradingRules,
} from '@kabuto/contract';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldIssuesOf } from '@kabuto/client/api-error';
import { queryClient } from '@/shared/api/query-client';
import { formatDate, formatDateTime, formatMoney } from '@/shared/format/format';
import { formatPrice, formatShares, priceDecimalsOf } from '@/shared/format/price';
import { useContractText } from '@/shared/i18n/use-contract-text';
import { marketStatusQuery } from '@/shared/market-clock/market-status';
import { useIsStale } from '@/shared/market-clock/staleness';
import { useSession } from '@/shared/session/session';
import { useUserInfo } from '@/shared/session/user-info-query';
import { showSuccess } from '@/shared/ui/overlays';
import { createIdempotentAction, sendWithRetry } from '../idempotent';
import { orderFigures, type Direction, type PriceType } from '../order-figures';
import { inputToPrice, inputToQuantity, priceToInput } from '../price-input';
import { reasonLabel } from '../order-labels';
import { brokerageAccountQuery, nisaQuotaQuery } from '../tax-accounts-api';
import { invalidateTrading, placeOrder } from '../trading-api';
import {
  confirmRows,
  effectiveAccount,
  isMarginTicket,
  limitPriceIssue,
  offeredAccounts,
  placeOrderBody,
  quantityIssue,
  repayDateAfter,
  steppedPriceText,
  steppedQuantity,
  ticketFields,
  type Leverage,
  type MarginKind,
  type TicketFixed,
  type TicketIssue,
  type TicketOrder,
  type TicketStock,
  type TradeKind,
  type Venue,
} from './order-ticket';
import { useLocale } from '@/shared/i18n/use-locale';

/**
 * The dialogs an order ticket opens, given by the view (order-ticket-view.tsx's ticketDialogs) so that this
 * hook is logic only; a test passes its own.
 */
export interface TicketDialogs {
  /**
   * The confirm dialog of an order, shown as its rows and, for a margin order, a sentence saying the amount
   * of the position it opens; true places the order.
   */
  confirmOrder: (rows: readonly (readonly [string, string])[], notice?: string) => Promise<boolean>;
  /** A yes/no question (the retry prompt after an unknown outcome). */
  confirm: (options: { content: string; confirmText: string; cancelText: string }) => Promise<boolean>;
  /** A message with one button. */
  alert: (options: { title?: string; content: string; confirmText: string }) => Promise<void>;
}

/** The collateral rates offered, lowest risk first: 100% / 50% / 33% (the wire's leverage 1 / 2 / 3). */
const ALL_LEVERAGES: readonly Leverage[] = [1, 2, 3];

/**
 * One order ticket's state and behaviour: the fields, their validation (client rules first, then the
 * server's field issues), the live figures, the confirm dialog and the submit with one Idempotency-Key
 * per attempt (the same key on a retry after an unknown outcome).
 *
 * It starts from the least risky choice (issue 23): 現物 (cash) in the customer's default account, the
 * smallest quantity; a margin ticket starts at 制度信用, 信用新規買 and the highest collateral rate (100%).
 */
export function useOrderTicket({
  stock,
  quote,
  rules,
  dialogs,
  venue = 'exchange',
  fixed = {},
  leverages = ALL_LEVERAGES,
  now = () => new Date(),
}: {
  stock: TicketStock;
  quote: TQuote;
  rules: TTradingRules;
  dialogs: TicketDialogs;
  /** 'pts': a PTS application (the caller fixes the kind to cash). */
  venue?: Venue;
  /** Fields the caller fixes; their controls are hidden. */
  fixed?: TicketFixed;
  /** The collateral rates offered, as leverages (all three unless the caller narrows them). */
  leverages?: readonly Leverage[];
  /** The clock for the 制度信用 deadline shown (a test passes its own). */
  now?: () => Date;
}) {
  const tContract = useContractText();
  const message = (issue: TicketIssue | null) => (issue === null ? null : tContract(issue.key, issue.params));
  const { t } = useTranslation();
  const locale = useLocale();
  const { userInfo } = useUserInfo();
  const token = useSession((s) => s.token);
  const userId = useSession((s) => (s.token === null ? null : s.userId));
  const status = useQuery(marketStatusQuery()).data;
  const brokerage = useQuery(brokerageAccountQuery(userId, token)).data;
  const stale = useIsStale(quote.time);
  const [kindState, setKind] = useState<TradeKind>('cash');
  const [marginTypeState, setMarginType] = useState<MarginKind>('standard');
  const [directionState, setDirection] = useState<Direction>('long');
  const [accountChoice, setAccount] = useState<TaxAccount | null>(null);
  const [priceType, setPriceType] = useState<PriceType>('market');
  const [priceText, setPriceText] = useState('');
  const [quantityText, setQuantityText] = useState(String(LOT_SIZE));
  const [leverageState, setLeverage] = useState<Leverage>(leverages[0] ?? 1);
  const [dayTradeState, setDayTrade] = useState(false);
  const kind = fixed.kind ?? kindState;
  const marginType = fixed.marginType ?? marginTypeState;
  const direction = kind === 'cash' ? 'long' : (fixed.direction ?? directionState);
  const leverage = kind === 'cash' ? 1 : leverageState;
  const dayTrade = kind === 'margin' && (fixed.dayTrade ?? dayTradeState);
  const [showErrors, setShowErrors] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const action = useMemo(() => createIdempotentAction(placeOrder), []);

  // The accounts: only those held (none known: the server's default), never NISA for margin.
  const heldAccounts = brokerage?.accounts;
  const accounts = useMemo(() => offeredAccounts(heldAccounts ?? [], kind), [heldAccounts, kind]);
  const account = effectiveAccount(accountChoice, accounts, brokerage?.default_account ?? null);
  const nisa = useQuery(nisaQuotaQuery(userId, token, account === 'nisa')).data;

  const decimals = priceDecimalsOf(stock.price_decimals);
  const margin = isMarginTicket({ kind });
  const limitPrice = priceType === 'limit' ? inputToPrice(priceText) : null;
  const quantity = inputToQuantity(quantityText);
  const money = useCallback((v: number) => formatMoney(sen(v), locale), [locale]);
  const price = useCallback((v: number) => formatPrice(v, decimals, locale), [decimals, locale]);

  const priceError =
    priceType !== 'limit'
      ? null
      : (message(limitPriceIssue(limitPrice, stock.topix500, quote, price)) ?? serverErrors['price'] ?? null);
  const quantityError = message(quantityIssue(quantity)) ?? serverErrors['quantity'] ?? null;

  const figures = orderFigures(
    {
      direction,
      priceType,
      limitPrice,
      quantity: quantity ?? 0,
      leverage,
      marginType: margin ? marginType : 'cash',
    },
    quote,
    rules,
  );
  const available = userInfo?.available_balance ?? 0;
  /** 信用建余力: what the cash can hold as collateral at this rate (an estimate; the server decides). */
  const marginPower = available * leverage;
  /** The 制度信用 deadline of a position opened now, as shown; null for 一般信用 and day trades. */
  const repayDeadline =
    !margin || dayTrade
      ? null
      : marginType === 'standard'
        ? t('ticket.repayStandard', { date: formatDate(`${repayDateAfter(now())}T00:00:00+09:00`, locale) })
        : t('ticket.repayGeneral');
  const nisaOver = account === 'nisa' && nisa !== undefined && figures.principal > nisa.annual_remaining;

  async function askRetry(): Promise<boolean> {
    return dialogs.confirm({
      content: t('trading.retryPrompt'),
      confirmText: t('trading.retry'),
      cancelText: t('common.cancel'),
    });
  }

  async function afterPlaced(order: TOrder) {
    void invalidateTrading(queryClient);
    void queryClient.invalidateQueries({ queryKey: ['tax'] });
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
    const order: TicketOrder = {
      kind,
      marginType,
      direction,
      priceType,
      limitPrice,
      quantity,
      leverage,
      dayTrade,
      account,
    };
    const rows = confirmRows(
      t,
      stock,
      order,
      figures,
      { price, money, shares: (n) => formatShares(n, locale) },
      dayTrade ? t('ticket.repayDayTrade') : repayDeadline,
    );
    const notice = margin
      ? t('ticket.marginConfirm', { amount: money(figures.principal), collateral: money(figures.collateral) })
      : undefined;
    if (!(await dialogs.confirmOrder(rows, notice))) return;
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

  // The controls' callbacks keep their identity from render to render (they read the latest state through
  // a ref), so that the memoised controls of order-ticket-view.tsx do not render again on each quote tick:
  // only the cells that show a price do (issue 21).
  const latest = useRef({ priceText, priceType, quantity, quote, stock, leverages, submit });
  useLayoutEffect(() => {
    latest.current = { priceText, priceType, quantity, quote, stock, leverages, submit };
  });
  const actions = useMemo(() => {
    const clear = () => {
      setServerErrors({});
    };
    return {
      /** 現物 or 信用; a margin ticket starts again at the highest collateral rate. */
      chooseKind: (next: TradeKind) => {
        setKind(next);
        setLeverage(latest.current.leverages[0] ?? 1);
        clear();
      },
      chooseAccount: (next: TaxAccount) => {
        setAccount(next);
        clear();
      },
      /** A limit price starts at the last price. */
      choosePriceType: (next: PriceType) => {
        setPriceType(next);
        const { priceText: text, quote: q } = latest.current;
        if (next === 'limit' && text === '') setPriceText(priceToInput(q.last));
      },
      changePriceText: (text: string) => {
        setPriceText(text);
        clear();
      },
      stepPrice: (dir: 1 | -1) => {
        const { priceText: text, quote: q, stock: s } = latest.current;
        setPriceText(steppedPriceText(text, q.last, s.topix500, dir));
        clear();
      },
      changeQuantityText: (text: string) => {
        setQuantityText(text);
        clear();
      },
      stepQuantity: (dir: 1 | -1) => {
        setQuantityText(String(steppedQuantity(latest.current.quantity, dir)));
        clear();
      },
      /** Another stock was picked: a limit price belongs to one stock, so it starts again at that one's last. */
      restartFor: (last: number | undefined) => {
        if (latest.current.priceType === 'limit' && last !== undefined) setPriceText(priceToInput(last));
        clear();
      },
      submit: () => latest.current.submit(),
    };
  }, []);

  return {
    stock,
    quote,
    rules,
    /** The fields to show, in order (a margin ticket: its collateral before the quantity). */
    fields: ticketFields(kind, fixed, accounts.length > 0),
    kind,
    chooseKind: actions.chooseKind,
    marginType,
    setMarginType,
    direction,
    setDirection,
    account,
    accounts,
    /** NISA is held but not offered (a margin ticket): the ticket says why */
    nisaHidden: kind === 'margin' && (brokerage?.accounts ?? []).includes('nisa'),
    chooseAccount: actions.chooseAccount,
    /** NISA's growth quota (when the NISA account is chosen and the quota is known). */
    nisa: account === 'nisa' ? (nisa ?? null) : null,
    nisaOver,
    priceType,
    choosePriceType: actions.choosePriceType,
    priceText,
    changePriceText: actions.changePriceText,
    stepPrice: actions.stepPrice,
    quantityText,
    changeQuantityText: actions.changeQuantityText,
    stepQuantity: actions.stepQuantity,
    leverage,
    setLeverage,
    leverages,
    fixed,
    venue,
    dayTrade,
    setDayTrade,
    restartFor: actions.restartFor,
    margin,
    limitPrice,
    /** The messages to show now: a field's error shows once it has text or after a submit. */
    shownPriceError: showErrors || priceText !== '' ? priceError : null,
    shownQuantityError: showErrors || quantityText !== '' ? quantityError : null,
    quantityError,
    figures,
    available,
    marginPower,
    repayDeadline,
    status,
    stale,
    busy,
    money,
    price,
    submit: actions.submit,
  };
}

export type OrderTicket = ReturnType<typeof useOrderTicket>;
