import type { TTradingRules } from '@kabuto/contract';
import { Button, Dialog, Switch } from 'antd-mobile';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '@/shared/format/format';
import { formatShares } from '@/shared/format/price';
import { Segmented, StepperField } from '@/shared/ui/segmented';
import { accountLabel, collateralRatePercent, tradeLabel } from '../order-labels';
import { tickSizeAt, type TicketField } from './order-ticket';
import type { OrderTicket, TicketDialogs } from './use-order-ticket';
import { useLocale } from '@/shared/i18n/use-locale';

/**
 * The order ticket's markup. `full` (the stock page) adds the day-trade switch and its note and the
 * market value figure; `compact` (the AI-trade tab) leaves them out and prefixes its test ids with "ai-".
 */
export type TicketVariant = 'full' | 'compact';

/** The published commission in plain words; '' while the rules are loading. */
export function useFeeScheduleText(rules: TTradingRules | undefined): string {
  const { t } = useTranslation();
  const locale = useLocale();
  if (rules === undefined) return '';
  if (rules.fee_bp === 0 && rules.fee_min === 0) return t('trading.commissionZero');
  return t('trading.commissionRate', {
    rate: `${formatShares(rules.fee_bp, locale)} bp`,
    min: formatMoney(rules.fee_min, locale),
    max: rules.fee_max > 0 ? formatMoney(rules.fee_max, locale) : '—',
  });
}

/** The fee schedule and the simulated-prices notice. */
export function FeeScheduleNote({
  rules,
  testId,
  zeroWhileLoading = false,
}: {
  rules: TTradingRules | undefined;
  testId: string;
  /** Say "no commission" before the rules have loaded instead of leaving the line out. */
  zeroWhileLoading?: boolean;
}) {
  const { t } = useTranslation();
  const loaded = useFeeScheduleText(rules);
  const text = loaded === '' && zeroWhileLoading ? t('trading.commissionZero') : loaded;
  return (
    <ul className="trading-rules" data-testid={testId}>
      {text !== '' && <li>{text}</li>}
      <li>{t('trading.simulatedPrices')}</li>
    </ul>
  );
}

/** The confirm dialog's list of the order's rows. */
export function OrderConfirmList({ rows }: { rows: readonly (readonly [string, string])[] }) {
  return (
    <dl className="confirm-list" data-testid="order-confirm">
      {rows.map(([k, v]) => (
        <div key={k} className="confirm-list__row">
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * The order ticket's dialogs in antd-mobile: the confirm dialog lists the order's rows with `confirmNotes`
 * under them (the venue's or the tab's own notes).
 */
export function useTicketDialogs(confirmNotes?: ReactNode): TicketDialogs {
  const { t } = useTranslation();
  return {
    confirmOrder: (rows, notice) =>
      Dialog.confirm({
        title: t('trading.confirmTitle'),
        content: (
          <>
            {notice !== undefined && (
              <p className="order-form__warn" role="alert" data-testid="order-confirm-notice">
                {notice}
              </p>
            )}
            <OrderConfirmList rows={rows} />
            {confirmNotes}
          </>
        ),
        confirmText: t('trading.confirmPlace'),
        cancelText: t('common.cancel'),
      }),
    confirm: (options) => Dialog.confirm(options),
    alert: (options) => Dialog.alert(options),
  };
}

/** The whole ticket as a form: `header` goes first (the quick order's stock picker), `footer` last. */
export function OrderTicketForm({
  ticket,
  variant,
  label,
  className,
  header,
  footer,
  submitLabel,
}: {
  ticket: OrderTicket;
  variant: TicketVariant;
  label: string;
  className: string;
  header?: ReactNode;
  footer?: ReactNode;
  /** The submit button's text (default: "review the order" with the trade's name, e.g. 現物買). */
  submitLabel?: string;
}) {
  const { t } = useTranslation();
  const { direction, busy } = ticket;
  const venueClosed =
    ticket.status !== undefined &&
    (ticket.venue === 'pts' ? !ticket.status.pts_open : !ticket.status.continuous);
  const trade = tradeLabel(t, {
    kind: 'open',
    direction,
    leverage: ticket.leverage,
    margin_type: ticket.margin ? ticket.marginType : 'cash',
  });
  return (
    <form
      className={className}
      aria-label={label}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void ticket.submit();
      }}
    >
      {header}
      <OrderTicketFields ticket={ticket} variant={variant} />
      <OrderFiguresList ticket={ticket} variant={variant} />
      {ticket.figures.total > ticket.available && ticket.quantityError === null && (
        <p className="order-form__warn" role="status">
          {t('trading.insufficientHint')}
        </p>
      )}
      {ticket.nisaOver && ticket.nisa !== null && (
        <p className="order-form__warn" role="status" data-testid="order-nisa-over">
          {t('ticket.nisaOver', { amount: ticket.money(ticket.nisa.annual_remaining) })}
        </p>
      )}
      {venueClosed && (
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
        {submitLabel ?? t('ticket.submit', { trade })}
      </Button>
      {footer}
    </form>
  );
}

const prefixOf = (variant: TicketVariant) => (variant === 'full' ? '' : 'ai-');

/**
 * The fields in the hook's order (ticket.fields): 現物 / 信用 first; for 信用, 制度 / 一般, 信用新規買 /
 * 信用新規売, the account, the collateral rate with the buying power and the collateral, then the price
 * and the quantity. Fields the caller fixed have no control.
 */
export function OrderTicketFields({ ticket, variant }: { ticket: OrderTicket; variant: TicketVariant }) {
  return (
    <>
      {ticket.fields.map((field) => (
        <TicketFieldControl key={field} field={field} ticket={ticket} variant={variant} />
      ))}
    </>
  );
}

function TicketFieldControl({
  field,
  ticket,
  variant,
}: {
  field: TicketField;
  ticket: OrderTicket;
  variant: TicketVariant;
}) {
  const { t } = useTranslation();
  const { stock, quote, direction, price, money } = ticket;
  const p = prefixOf(variant);
  switch (field) {
    case 'kind':
      return (
        <Segmented
          label={t('ticket.kind')}
          value={ticket.kind}
          onChange={ticket.chooseKind}
          testId={`${p}order-kind`}
          options={[
            { value: 'cash', label: t('ticket.kindCash') },
            { value: 'margin', label: t('ticket.kindMargin') },
          ]}
        />
      );
    case 'marginType':
      return (
        <Segmented
          label={t('ticket.marginTypeLabel')}
          value={ticket.marginType}
          onChange={ticket.setMarginType}
          testId={`${p}order-margin-type`}
          options={[
            { value: 'standard', label: t('ticket.marginType.standard') },
            { value: 'general', label: t('ticket.marginType.general') },
          ]}
        />
      );
    case 'side':
      return (
        <>
          <Segmented
            label={t('ticket.side')}
            value={direction}
            onChange={ticket.setDirection}
            testId={`${p}order-direction`}
            options={[
              {
                value: 'long',
                label: t('ticket.trade.marginOpenLong'),
                className: 'segmented__item--long',
              },
              {
                value: 'short',
                label: t('ticket.trade.marginOpenShort'),
                className: 'segmented__item--short',
              },
            ]}
          />
          {direction === 'short' && (
            <p className="order-form__note" role="note">
              {t('trading.shortIsMargin')}
            </p>
          )}
        </>
      );
    case 'account':
      return (
        <>
          <Segmented
            label={t('ticket.accountLabel')}
            value={ticket.account ?? ''}
            onChange={(value) => {
              const next = ticket.accounts.find((a) => a === value);
              if (next !== undefined) ticket.chooseAccount(next);
            }}
            testId={`${p}order-account`}
            options={ticket.accounts.map((a) => ({ value: a, label: accountLabel(t, a) }))}
          />
          {ticket.nisa !== null && (
            <p className="order-form__note" data-testid={`${p}order-nisa-left`}>
              {t('ticket.nisaLeft', {
                year: String(ticket.nisa.year),
                amount: money(ticket.nisa.annual_remaining),
              })}
            </p>
          )}
          {ticket.nisaHidden && <p className="order-form__note">{t('ticket.nisaNoMargin')}</p>}
        </>
      );
    case 'collateralRate':
      return (
        <>
          <Segmented
            label={t('ticket.collateralRate')}
            value={ticket.leverage}
            onChange={ticket.setLeverage}
            testId={`${p}order-collateral-rate`}
            options={ticket.leverages.map((n) => ({
              value: n,
              label: t('ticket.rate', { rate: collateralRatePercent(n) }),
            }))}
          />
          <p className="order-form__note">
            {t('ticket.collateralRateHint')}{' '}
            {t('ticket.maintenanceNote', { rate: `${String(ticket.rules.maintenance_bp / 100)}%` })}
          </p>
        </>
      );
    case 'marginFigures':
      return (
        <dl className="order-figures" data-testid={`${p}order-margin-figures`}>
          <Figure
            label={t('ticket.marginPower')}
            value={money(ticket.marginPower)}
            testId={`${p}fig-margin-power`}
          />
          <Figure
            label={t('ticket.collateralNeeded')}
            value={money(ticket.figures.collateral)}
            testId={`${p}fig-collateral`}
            strong
          />
          <Figure
            label={t('ticket.repayDeadline')}
            value={ticket.dayTrade ? t('ticket.repayDayTrade') : (ticket.repayDeadline ?? '—')}
            testId={`${p}fig-repay-deadline`}
          />
        </dl>
      );
    case 'priceType':
      return (
        <Segmented
          label={t('trading.priceType')}
          value={ticket.priceType}
          onChange={ticket.choosePriceType}
          testId={`${p}order-price-type`}
          options={[
            { value: 'market', label: t('trading.market') },
            { value: 'limit', label: t('trading.limit') },
          ]}
        />
      );
    case 'price':
      return ticket.priceType === 'limit' ? (
        <StepperField
          label={t('trading.limitPrice')}
          value={ticket.priceText}
          onChange={ticket.changePriceText}
          onStep={ticket.stepPrice}
          inputMode="decimal"
          decLabel={t('trading.priceDown')}
          incLabel={t('trading.priceUp')}
          suffix={t('trading.yen')}
          error={ticket.shownPriceError}
          hint={t('trading.priceHint', {
            tick: price(tickSizeAt(ticket.limitPrice ?? quote.last, stock.topix500)),
            lower: price(quote.limit_down),
            upper: price(quote.limit_up),
          })}
          testId={`${p}order-price`}
        />
      ) : (
        <p className="order-form__note">
          {t(direction === 'long' ? 'trading.marketNoteAsk' : 'trading.marketNoteBid', {
            price: price(ticket.figures.price),
          })}
          {ticket.stale && <span className="order-form__warn"> {t('trading.staleNote')}</span>}
        </p>
      );
    case 'quantity':
      return (
        <>
          <StepperField
            label={t('trading.quantity')}
            value={ticket.quantityText}
            onChange={ticket.changeQuantityText}
            onStep={ticket.stepQuantity}
            decLabel={t('trading.quantityDown')}
            incLabel={t('trading.quantityUp')}
            suffix={t('trading.sharesUnit')}
            error={ticket.shownQuantityError}
            hint={t('trading.lotHint')}
            testId={`${p}order-quantity`}
          />
          {ticket.margin && (
            <p className="order-form__note">
              {t('trading.minCollateralNote', { amount: money(ticket.rules.min_collateral) })}
            </p>
          )}
        </>
      );
    case 'dayTrade':
      return variant === 'full' ? (
        <>
          <div className="order-form__switch">
            <span id="day-trade-label">{t('trading.dayTrade')}</span>
            <Switch
              checked={ticket.dayTrade}
              onChange={ticket.setDayTrade}
              aria-labelledby="day-trade-label"
              data-testid="order-day-trade"
            />
          </div>
          <p className="order-form__note">{t('trading.dayTradeNote')}</p>
        </>
      ) : null;
  }
}

/** The live estimate: principal, (market value,) fee, total and the available cash. */
export function OrderFiguresList({ ticket, variant }: { ticket: OrderTicket; variant: TicketVariant }) {
  const { t } = useTranslation();
  const { figures, money } = ticket;
  const p = prefixOf(variant);
  return (
    <dl className="order-figures" data-testid={`${p}order-figures`} aria-live="polite">
      <Figure label={t('trading.principal')} value={money(figures.principal)} testId={`${p}fig-principal`} />
      {variant === 'full' && (
        <Figure
          label={t('trading.marketValue')}
          value={money(figures.marketValue)}
          testId={`${p}fig-market-value`}
        />
      )}
      <Figure label={t('trading.fee')} value={money(figures.fee)} testId={`${p}fig-fee`} />
      <Figure
        label={ticket.margin ? t('trading.totalMargin') : t('trading.total')}
        value={money(figures.total)}
        testId={`${p}fig-total`}
        strong
      />
      <Figure label={t('trading.available')} value={money(ticket.available)} testId={`${p}fig-available`} />
    </dl>
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
