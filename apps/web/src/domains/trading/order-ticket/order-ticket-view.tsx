import type { TTradingRules } from '@kabuto/contract';
import { Button, Dialog, Switch } from 'antd-mobile';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '@/shared/format/format';
import { formatShares } from '@/shared/format/price';
import { Segmented, StepperField } from '@/shared/ui/segmented';
import { tickSizeAt, type Leverage } from './order-ticket';
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
    confirmOrder: (rows) =>
      Dialog.confirm({
        title: t('trading.confirmTitle'),
        content: (
          <>
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
  /** The submit button's text (default: open long / open short). */
  submitLabel?: string;
}) {
  const { t } = useTranslation();
  const { direction, busy } = ticket;
  const venueClosed =
    ticket.status !== undefined &&
    (ticket.venue === 'pts' ? !ticket.status.pts_open : !ticket.status.continuous);
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
        {submitLabel ?? t(direction === 'long' ? 'trading.submitLong' : 'trading.submitShort')}
      </Button>
      {footer}
    </form>
  );
}

const prefixOf = (variant: TicketVariant) => (variant === 'full' ? '' : 'ai-');

/**
 * Direction, price type, limit price or market note, quantity, leverage and the margin notes. Fields the
 * caller fixed (ticket.fixed) have no control; the leverage control offers ticket.leverages.
 */
export function OrderTicketFields({ ticket, variant }: { ticket: OrderTicket; variant: TicketVariant }) {
  const { t } = useTranslation();
  const { stock, quote, direction, margin, price, money } = ticket;
  const p = prefixOf(variant);
  const leverageLabel = (n: Leverage) =>
    n === 1 ? t('trading.leverage1') : t('trading.leverageN', { leverage: n });
  return (
    <>
      {ticket.fixed.direction === undefined && (
        <Segmented
          label={t('trading.direction')}
          value={direction}
          onChange={ticket.setDirection}
          testId={`${p}order-direction`}
          options={[
            { value: 'long', label: t('trading.long'), className: 'segmented__item--long' },
            { value: 'short', label: t('trading.short'), className: 'segmented__item--short' },
          ]}
        />
      )}
      {direction === 'short' && (
        <p className="order-form__note" role="note">
          {t('trading.shortIsMargin')}
        </p>
      )}
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
      {ticket.priceType === 'limit' ? (
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
      )}
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
      {ticket.fixed.leverage === undefined && (
        <Segmented<Leverage>
          label={t('trading.leverage')}
          value={ticket.leverage}
          onChange={ticket.setLeverage}
          testId={`${p}order-leverage`}
          options={ticket.leverages.map((n) => ({ value: n, label: leverageLabel(n) }))}
        />
      )}
      {margin && variant === 'full' && ticket.fixed.dayTrade === undefined && (
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
          <p className="order-form__note">
            {t('trading.dayTradeNote')}{' '}
            {t('trading.minCollateralNote', { amount: money(ticket.rules.min_collateral) })}
          </p>
        </>
      )}
      {margin && variant === 'compact' && (
        <p className="order-form__note">
          {t('trading.minCollateralNote', { amount: money(ticket.rules.min_collateral) })}
        </p>
      )}
    </>
  );
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
