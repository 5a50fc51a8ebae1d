import {
  LOT_SIZE,
  isValidTick,
  localeOf,
  sen,
  tickDown,
  tickSize,
  tickUp,
  type TOrder,
  type TPlaceOrderRequest,
  type TStockRow,
  type TTradingRules,
} from '@kabuto/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Dialog } from 'antd-mobile';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldIssuesOf } from '@/shared/api/api-error';
import { queryClient } from '@/shared/api/query-client';
import { formatDateTime, formatMoney } from '@/shared/format/format';
import { formatPrice, formatShares, priceDecimalsOf } from '@/shared/format/price';
import { tContract } from '@/shared/i18n/i18n';
import { marketStatusQuery } from '@/shared/market/market-api';
import { useIsStale } from '@/shared/market/staleness';
import { useSession } from '@/shared/session/session';
import { useUserInfo } from '@/shared/session/user-info-query';
import { createIdempotentAction, sendWithRetry } from '@/shared/trading/idempotent';
import { orderFigures, type Direction, type PriceType } from '@/shared/trading/order-figures';
import { inputToPrice, inputToQuantity, priceToInput } from '@/shared/trading/price-input';
import { invalidateTrading, placeOrder, rulesQuery } from '@/shared/trading/trading-api';
import { EmptyState } from '@/shared/ui/empty-state';
import { Segmented, StepperField } from '@/shared/ui/segmented';
import { showSuccess } from '@/shared/ui/toast';

/**
 * A compact order entry for the stocks the tab lists: the same call as the stock page's order form
 * (POST /api/trade/placeOrder with one Idempotency-Key per attempt, the same key on a retry), a confirm
 * dialog with the estimate from the shared order figures and the published fee schedule first.
 */
type Leverage = 1 | 2 | 3;

export function QuickOrder({ rows }: { rows: readonly TStockRow[] }) {
  const { t } = useTranslation();
  const rules = useQuery(rulesQuery()).data;
  const tradable = useMemo(() => rows.filter((r) => r.tradable), [rows]);
  if (tradable.length === 0) return <EmptyState description={t('aiTrade.noTradable')} />;
  return (
    <>
      <FeeScheduleNote rules={rules} />
      {rules !== undefined && <QuickOrderForm rows={tradable} rules={rules} />}
    </>
  );
}

/** The published commission in plain words (the same texts as the stock page's order form). */
function useFeeScheduleText(rules: TTradingRules | undefined): string {
  const { t } = useTranslation();
  const locale = localeOf(useSession((s) => s.lang));
  if (rules === undefined) return '';
  if (rules.fee_bp === 0 && rules.fee_min === 0) return t('trading.commissionZero');
  return t('trading.commissionRate', {
    rate: `${formatShares(rules.fee_bp, locale)} bp`,
    min: formatMoney(sen(rules.fee_min), locale),
    max: rules.fee_max > 0 ? formatMoney(sen(rules.fee_max), locale) : '—',
  });
}

function FeeScheduleNote({ rules }: { rules: TTradingRules | undefined }) {
  const { t } = useTranslation();
  const text = useFeeScheduleText(rules);
  return (
    <ul className="trading-rules" data-testid="ai-fee-schedule">
      {text !== '' && <li>{text}</li>}
      <li>{t('trading.simulatedPrices')}</li>
    </ul>
  );
}

function QuickOrderForm({ rows, rules }: { rows: readonly TStockRow[]; rules: TTradingRules }) {
  const { t } = useTranslation();
  const locale = localeOf(useSession((s) => s.lang));
  const { userInfo } = useUserInfo();
  const status = useQuery(marketStatusQuery()).data;
  const feeSchedule = useFeeScheduleText(rules);
  const pickerId = useId();
  const [pickedCode, setCode] = useState<string>('');
  const [direction, setDirection] = useState<Direction>('long');
  const [priceType, setPriceType] = useState<PriceType>('market');
  const [priceText, setPriceText] = useState('');
  const [quantityText, setQuantityText] = useState(String(LOT_SIZE));
  const [leverage, setLeverage] = useState<Leverage>(1);
  const [showErrors, setShowErrors] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const action = useMemo(() => createIdempotentAction(placeOrder), []);

  // The picked stock, or the first one listed; its quote streams into the list's cache.
  const stock = rows.find((r) => r.code === pickedCode) ?? rows[0];
  const quote = stock?.quote;
  const stale = useIsStale(quote?.time);
  if (stock === undefined || quote === undefined) return null;

  const decimals = priceDecimalsOf(stock.price_decimals);
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

  const pick = (code: string) => {
    setCode(code);
    // A limit price belongs to one stock: start again from the new stock's last price.
    const next = rows.find((r) => r.code === code);
    if (priceType === 'limit' && next !== undefined) setPriceText(priceToInput(next.quote.last));
    setServerErrors({});
  };
  const choosePriceType = (next: PriceType) => {
    setPriceType(next);
    if (next === 'limit' && priceText === '') setPriceText(priceToInput(quote.last));
  };
  const stepPrice = (dir: 1 | -1) => {
    const current = Math.max(1, inputToPrice(priceText) ?? quote.last);
    setPriceText(
      priceToInput(dir === 1 ? tickUp(current, stock.topix500) : tickDown(current, stock.topix500)),
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

  async function submit(current: TStockRow) {
    setShowErrors(true);
    if (priceError !== null || quantityError !== null || quantity === null) return;
    const body: TPlaceOrderRequest = {
      code: current.code,
      direction,
      price_type: priceType,
      ...(priceType === 'limit' && limitPrice !== null ? { price: limitPrice } : {}),
      quantity,
      leverage,
      day_trade: false,
    };
    const confirmRows: [string, string][] = [
      [t('trading.stock'), `${current.name} (${current.code})`],
      [t('trading.direction'), directionLabel],
      [t('trading.priceType'), typeLabel],
      [
        t('trading.price'),
        priceType === 'market'
          ? t('trading.marketPriceEstimate', { price: price(figures.price) })
          : price(figures.price),
      ],
      [t('trading.quantity'), t('trading.shares', { quantity: formatShares(quantity, locale) })],
      [t('trading.leverage'), leverageLabel],
      [t('trading.principal'), money(figures.principal)],
      [t('trading.fee'), money(figures.fee)],
      [margin ? t('trading.totalMargin') : t('trading.total'), money(figures.total)],
    ];
    const ok = await Dialog.confirm({
      title: t('trading.confirmTitle'),
      content: (
        <>
          <dl className="confirm-list" data-testid="order-confirm">
            {confirmRows.map(([k, v]) => (
              <div key={k} className="confirm-list__row">
                <dt>{k}</dt>
                <dd>{v}</dd>
              </div>
            ))}
          </dl>
          <p className="ai-confirm__note" data-testid="order-confirm-fees">
            {feeSchedule}
          </p>
          <p className="ai-confirm__note">{t('aiTrade.confirmOwnDecision')}</p>
        </>
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

  return (
    <form
      className="order-form ai-order"
      aria-label={t('aiTrade.orderTitle')}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit(stock);
      }}
    >
      <div className="ai-order__picker">
        <label className="stepper-field__label" htmlFor={pickerId}>
          {t('trading.stock')}
        </label>
        <select
          id={pickerId}
          className="ai-order__select"
          value={stock.code}
          data-testid="ai-order-stock"
          onChange={(event) => {
            pick(event.target.value);
          }}
        >
          {rows.map((row) => (
            <option key={row.code} value={row.code}>
              {`${row.name} (${row.code})`}
            </option>
          ))}
        </select>
        <p className="stepper-field__hint" data-testid="ai-order-last">
          {t('aiTrade.lastPrice', { price: price(quote.last) })}
        </p>
      </div>
      <Segmented
        label={t('trading.direction')}
        value={direction}
        onChange={setDirection}
        testId="ai-order-direction"
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
        testId="ai-order-price-type"
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
          testId="ai-order-price"
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
        testId="ai-order-quantity"
      />
      <Segmented<Leverage>
        label={t('trading.leverage')}
        value={leverage}
        onChange={setLeverage}
        testId="ai-order-leverage"
        options={[
          { value: 1, label: t('trading.leverage1') },
          { value: 2, label: t('trading.leverageN', { leverage: 2 }) },
          { value: 3, label: t('trading.leverageN', { leverage: 3 }) },
        ]}
      />
      {margin && (
        <p className="order-form__note">
          {t('trading.minCollateralNote', { amount: money(rules.min_collateral) })}
        </p>
      )}
      <dl className="order-figures" data-testid="ai-order-figures" aria-live="polite">
        <Figure label={t('trading.principal')} value={money(figures.principal)} testId="ai-fig-principal" />
        <Figure label={t('trading.fee')} value={money(figures.fee)} testId="ai-fig-fee" />
        <Figure
          label={margin ? t('trading.totalMargin') : t('trading.total')}
          value={money(figures.total)}
          testId="ai-fig-total"
          strong
        />
        <Figure label={t('trading.available')} value={money(available)} testId="ai-fig-available" />
      </dl>
      {figures.total > available && quantityError === null && (
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
