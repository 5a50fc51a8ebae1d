import {
  LOT_SIZE,
  localeOf,
  sen,
  type TOrder,
  type TPlaceOrderRequest,
  type TQuote,
  type TStockDetail,
  type TTradingRules,
  isValidTick,
  tickDown,
  tickSize,
  tickUp,
} from '@kabuto/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Dialog, Switch } from 'antd-mobile';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryClient } from '@/shared/api/query-client';
import { fieldIssuesOf } from '@/shared/api/api-error';
import { formatDateTime, formatMoney } from '@/shared/format/format';
import { formatPrice, formatShares, priceDecimalsOf } from '@/shared/format/price';
import { tContract } from '@/shared/i18n/i18n';
import { marketStatusQuery } from '@/shared/market/market-api';
import { useIsStale } from '@/shared/market/staleness';
import { navigateTo } from '@/shared/navigation/nav';
import { ordersUrl } from '@/shared/navigation/routes';
import { useSession } from '@/shared/session/session';
import { useUserInfo } from '@/shared/session/user-info-query';
import { createIdempotentAction, sendWithRetry } from '@/shared/trading/idempotent';
import { orderFigures, type Direction, type PriceType } from '@/shared/trading/order-figures';
import { inputToPrice, inputToQuantity, priceToInput } from '@/shared/trading/price-input';
import { invalidateTrading, placeOrder, rulesQuery } from '@/shared/trading/trading-api';
import { LoginPrompt } from '@/shared/ui/login-prompt';
import { Segmented, StepperField } from '@/shared/ui/segmented';
import { showSuccess } from '@/shared/ui/toast';

/** The order form below the chart: open a long (買い建て) or short (売り建て) position in lots of 100. */
export function OrderPanel({ stock, quote }: { stock: TStockDetail; quote: TQuote }) {
  const { t } = useTranslation();
  const token = useSession((s) => s.token);
  const rules = useQuery(rulesQuery()).data;
  return (
    <section className="order-panel" aria-labelledby="order-panel-title">
      <h2 id="order-panel-title" className="order-panel__title">
        {t('trading.formTitle')}
      </h2>
      <TradingRulesNote rules={rules} />
      {token === null ? (
        <LoginPrompt message={t('trading.loginToTrade')} />
      ) : rules === undefined ? null : (
        <OrderForm stock={stock} quote={quote} rules={rules} />
      )}
    </section>
  );
}

/** The published fee schedule and the simulated-prices notice, in plain words. */
function TradingRulesNote({ rules }: { rules: TTradingRules | undefined }) {
  const { t } = useTranslation();
  const locale = localeOf(useSession((s) => s.lang));
  const zero = rules === undefined || (rules.fee_bp === 0 && rules.fee_min === 0);
  const rate = rules === undefined ? '' : `${formatShares(rules.fee_bp, locale)} bp`;
  return (
    <ul className="trading-rules" data-testid="trading-rules">
      <li>
        {zero
          ? t('trading.commissionZero')
          : t('trading.commissionRate', {
              rate,
              min: formatMoney(sen(rules.fee_min), locale),
              max: rules.fee_max > 0 ? formatMoney(sen(rules.fee_max), locale) : '—',
            })}
      </li>
      <li>{t('trading.simulatedPrices')}</li>
    </ul>
  );
}

type Leverage = 1 | 2 | 3;

function OrderForm({ stock, quote, rules }: { stock: TStockDetail; quote: TQuote; rules: TTradingRules }) {
  const { t } = useTranslation();
  const locale = localeOf(useSession((s) => s.lang));
  const { userInfo } = useUserInfo();
  const status = useQuery(marketStatusQuery()).data;
  const stale = useIsStale(quote.time);
  const decimals = priceDecimalsOf(stock.price_decimals);
  const [direction, setDirection] = useState<Direction>('long');
  const [priceType, setPriceType] = useState<PriceType>('market');
  const [priceText, setPriceText] = useState('');
  const [quantityText, setQuantityText] = useState(String(LOT_SIZE));
  const [leverage, setLeverage] = useState<Leverage>(1);
  const [dayTrade, setDayTrade] = useState(false);
  const [showErrors, setShowErrors] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const action = useMemo(() => createIdempotentAction(placeOrder), []);

  const margin = direction === 'short' || leverage > 1;
  const limitPrice = priceType === 'limit' ? inputToPrice(priceText) : null;
  const quantity = inputToQuantity(quantityText);
  const money = (v: number) => formatMoney(sen(v), locale);
  const price = (v: number) => formatPrice(v, decimals, locale);

  const priceError = (() => {
    if (priceType !== 'limit') return null;
    if (limitPrice === null) return tContract('validation.priceRequired');
    if (!isValidTick(limitPrice, stock.topix500)) {
      return tContract('errors.PRICE_OFF_TICK', {
        tick: price(tickSize(Math.max(1, limitPrice), stock.topix500)),
      });
    }
    if (quote.limit_down > 0 && quote.limit_up > 0) {
      if (limitPrice < quote.limit_down || limitPrice > quote.limit_up) {
        return tContract('errors.PRICE_OUTSIDE_LIMITS', {
          lower: price(quote.limit_down),
          upper: price(quote.limit_up),
        });
      }
    }
    return serverErrors['price'] ?? null;
  })();
  const quantityError = (() => {
    if (quantity === null) return tContract('validation.quantityRequired');
    if (quantity % LOT_SIZE !== 0) return tContract('validation.quantityLot');
    if (quantity > 10_000_000) return tContract('validation.quantityTooBig');
    return serverErrors['quantity'] ?? null;
  })();

  const figures = orderFigures(
    { direction, priceType, limitPrice, quantity: quantity ?? 0, leverage },
    quote,
    rules,
  );
  const available = userInfo?.available_balance ?? 0;
  const short = figures.total > available;

  const choosePriceType = (next: PriceType) => {
    setPriceType(next);
    // A limit price starts at the last price.
    if (next === 'limit' && priceText === '') setPriceText(priceToInput(quote.last));
  };
  const stepPrice = (dir: 1 | -1) => {
    const current = inputToPrice(priceText) ?? quote.last;
    setPriceText(
      priceToInput(
        dir === 1
          ? tickUp(Math.max(1, current), stock.topix500)
          : tickDown(Math.max(1, current), stock.topix500),
      ),
    );
    setServerErrors({});
  };
  const stepQuantity = (dir: 1 | -1) => {
    const current = quantity ?? 0;
    const base = Math.floor(current / LOT_SIZE) * LOT_SIZE;
    const next =
      dir === 1
        ? base + LOT_SIZE
        : Math.max(LOT_SIZE, (current % LOT_SIZE === 0 ? base : base + LOT_SIZE) - LOT_SIZE);
    setQuantityText(String(next));
    setServerErrors({});
  };

  const directionLabel = t(direction === 'long' ? 'trading.long' : 'trading.short');
  const typeLabel = t(priceType === 'market' ? 'trading.market' : 'trading.limit');
  const leverageLabel = margin ? t('trading.marginLeverage', { leverage }) : t('trading.cash');

  async function submit() {
    setShowErrors(true);
    if (priceError !== null || quantityError !== null || quantity === null) return;
    const body: TPlaceOrderRequest = {
      code: stock.code,
      direction,
      price_type: priceType,
      ...(priceType === 'limit' && limitPrice !== null ? { price: limitPrice } : {}),
      quantity,
      leverage,
      day_trade: margin && dayTrade,
    };
    const rows: [string, string][] = [
      [t('trading.stock'), `${stock.name} (${stock.code})`],
      [t('trading.direction'), directionLabel],
      [t('trading.priceType'), typeLabel],
      [
        t('trading.price'),
        priceType === 'market'
          ? t('trading.marketPriceEstimate', { price: price(figures.price) })
          : price(figures.price),
      ],
      [t('trading.quantity'), t('trading.shares', { quantity: formatShares(quantity, locale) })],
      [t('trading.leverage'), leverageLabel + (margin && dayTrade ? ` · ${t('trading.dayTrade')}` : '')],
      [t('trading.principal'), money(figures.principal)],
      [t('trading.fee'), money(figures.fee)],
      [margin ? t('trading.totalMargin') : t('trading.total'), money(figures.total)],
    ];
    const ok = await Dialog.confirm({
      title: t('trading.confirmTitle'),
      content: (
        <dl className="confirm-list" data-testid="order-confirm">
          {rows.map(([k, v]) => (
            <div key={k} className="confirm-list__row">
              <dt>{k}</dt>
              <dd>{v}</dd>
            </div>
          ))}
        </dl>
      ),
      confirmText: t('trading.confirmPlace'),
      cancelText: t('common.cancel'),
    });
    if (!ok) return;
    setBusy(true);
    setServerErrors({});
    try {
      const order = await sendWithRetry(action, body, askRetry);
      if (order !== null) await afterPlaced(order);
    } catch (error) {
      const issues: Record<string, string> = {};
      for (const issue of fieldIssuesOf(error)) issues[issue.field] = issue.message;
      setServerErrors(issues);
    } finally {
      setBusy(false);
    }
  }

  async function askRetry(): Promise<boolean> {
    return Dialog.confirm({
      content: t('trading.retryPrompt'),
      confirmText: t('trading.retry'),
      cancelText: t('common.cancel'),
    });
  }

  async function afterPlaced(order: TOrder) {
    void invalidateTrading(queryClient);
    if (order.status === 'rejected') {
      await Dialog.alert({
        title: t('orders.status.rejected'),
        content: `${t('orders.orderNo')}: ${order.order_no}${order.reason === null ? '' : ` · ${order.reason}`}`,
        confirmText: t('common.ok'),
      });
      return;
    }
    showSuccess(t('trading.placedToast', { orderNo: order.order_no }), 2000);
    if (order.status === 'pending' && order.fills_from !== null) {
      await Dialog.alert({
        content: t('trading.fillsFrom', { time: formatDateTime(order.fills_from, locale) }),
        confirmText: t('common.ok'),
      });
    }
  }

  return (
    <form
      className="order-form"
      aria-label={t('trading.formTitle')}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <Segmented
        label={t('trading.direction')}
        value={direction}
        onChange={setDirection}
        testId="order-direction"
        options={[
          { value: 'long', label: t('trading.long'), className: 'segmented__item--long' },
          { value: 'short', label: t('trading.short'), className: 'segmented__item--short' },
        ]}
      />
      {direction === 'short' && (
        <p className="order-form__note" role="note">
          {t('trading.shortIsMargin')}
        </p>
      )}
      <Segmented
        label={t('trading.priceType')}
        value={priceType}
        onChange={choosePriceType}
        testId="order-price-type"
        options={[
          { value: 'market', label: t('trading.market') },
          { value: 'limit', label: t('trading.limit') },
        ]}
      />
      {priceType === 'limit' ? (
        <StepperField
          label={t('trading.limitPrice')}
          value={priceText}
          onChange={(text) => {
            setPriceText(text);
            setServerErrors({});
          }}
          onStep={stepPrice}
          inputMode="decimal"
          decLabel={t('trading.priceDown')}
          incLabel={t('trading.priceUp')}
          suffix={t('trading.yen')}
          error={showErrors || priceText !== '' ? priceError : null}
          hint={t('trading.priceHint', {
            tick: price(tickSize(Math.max(1, limitPrice ?? quote.last), stock.topix500)),
            lower: price(quote.limit_down),
            upper: price(quote.limit_up),
          })}
          testId="order-price"
        />
      ) : (
        <p className="order-form__note">
          {t(direction === 'long' ? 'trading.marketNoteAsk' : 'trading.marketNoteBid', {
            price: price(figures.price),
          })}
          {stale && <span className="order-form__warn"> {t('trading.staleNote')}</span>}
        </p>
      )}
      <StepperField
        label={t('trading.quantity')}
        value={quantityText}
        onChange={(text) => {
          setQuantityText(text);
          setServerErrors({});
        }}
        onStep={stepQuantity}
        decLabel={t('trading.quantityDown')}
        incLabel={t('trading.quantityUp')}
        suffix={t('trading.sharesUnit')}
        error={showErrors || quantityText !== '' ? quantityError : null}
        hint={t('trading.lotHint')}
        testId="order-quantity"
      />
      <Segmented<Leverage>
        label={t('trading.leverage')}
        value={leverage}
        onChange={setLeverage}
        testId="order-leverage"
        options={[
          { value: 1, label: t('trading.leverage1') },
          { value: 2, label: t('trading.leverageN', { leverage: 2 }) },
          { value: 3, label: t('trading.leverageN', { leverage: 3 }) },
        ]}
      />
      {margin && (
        <>
          <div className="order-form__switch">
            <span id="day-trade-label">{t('trading.dayTrade')}</span>
            <Switch
              checked={dayTrade}
              onChange={setDayTrade}
              aria-labelledby="day-trade-label"
              data-testid="order-day-trade"
            />
          </div>
          <p className="order-form__note">
            {t('trading.dayTradeNote')}{' '}
            {t('trading.minCollateralNote', { amount: money(rules.min_collateral) })}
          </p>
        </>
      )}
      <dl className="order-figures" data-testid="order-figures" aria-live="polite">
        <Figure label={t('trading.principal')} value={money(figures.principal)} testId="fig-principal" />
        <Figure
          label={t('trading.marketValue')}
          value={money(figures.marketValue)}
          testId="fig-market-value"
        />
        <Figure label={t('trading.fee')} value={money(figures.fee)} testId="fig-fee" />
        <Figure
          label={margin ? t('trading.totalMargin') : t('trading.total')}
          value={money(figures.total)}
          testId="fig-total"
          strong
        />
        <Figure label={t('trading.available')} value={money(available)} testId="fig-available" />
      </dl>
      {short && quantityError === null && (
        <p className="order-form__warn" role="status">
          {t('trading.insufficientHint')}
        </p>
      )}
      {status !== undefined && !status.continuous && (
        <p className="order-form__note" role="note">
          {t('trading.sessionClosedNote')}
        </p>
      )}
      <Button
        type="submit"
        block
        color={direction === 'long' ? 'danger' : 'success'}
        className={`order-form__submit order-form__submit--${direction}`}
        loading={busy}
        disabled={busy}
      >
        {t(direction === 'long' ? 'trading.submitLong' : 'trading.submitShort')}
      </Button>
      <a
        className="order-form__link"
        href={`#${ordersUrl()}`}
        onClick={(event) => {
          event.preventDefault();
          navigateTo(ordersUrl());
        }}
      >
        {t('trading.toOrders')} ›
      </a>
    </form>
  );
}

function Figure({
  label,
  value,
  testId,
  strong,
}: {
  label: string;
  value: string;
  testId: string;
  strong?: boolean;
}) {
  return (
    <div className={`order-figures__item${strong === true ? ' order-figures__item--strong' : ''}`}>
      <dt>{label}</dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  );
}
