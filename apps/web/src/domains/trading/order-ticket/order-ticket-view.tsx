import type { TTradingRules } from '@kabuto/contract';
import { Button, Switch } from 'antd-mobile';
import { memo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '@/shared/format/format';
import { formatShares } from '@/shared/format/price';
import { Segmented, StepperField } from '@/shared/ui/segmented';
import { accountLabel, collateralRatePercent, tradeLabel } from '../order-labels';
import { tickSizeAt, type TicketField } from './order-ticket';
import type { OrderTicket, TicketDialogs } from './use-order-ticket';
import { useLocale } from '@/shared/i18n/use-locale';
import { dialog } from '@/shared/ui/overlays';

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
      dialog.confirm({
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
    confirm: (options) => dialog.confirm(options),
    alert: (options) => dialog.alert(options),
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
 *
 * Each control is memoised on the values it shows and the hook's callbacks (which keep their identity), so
 * that a quote tick renders again only the cells that show a price: the market-order note, the margin
 * figures and the estimate (issue 21; use-order-ticket.test.tsx counts the renders).
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
  const { stock, quote, price, money } = ticket;
  const p = prefixOf(variant);
  switch (field) {
    case 'kind':
      return <KindControl value={ticket.kind} onChange={ticket.chooseKind} p={p} />;
    case 'marginType':
      return <MarginTypeControl value={ticket.marginType} onChange={ticket.setMarginType} p={p} />;
    case 'side':
      return <SideControl value={ticket.direction} onChange={ticket.setDirection} p={p} />;
    case 'account':
      return (
        <AccountControl
          value={ticket.account}
          accounts={ticket.accounts}
          onChange={ticket.chooseAccount}
          nisaYear={ticket.nisa?.year ?? null}
          nisaLeft={ticket.nisa === null ? null : money(ticket.nisa.annual_remaining)}
          nisaHidden={ticket.nisaHidden}
          p={p}
        />
      );
    case 'collateralRate':
      return (
        <CollateralRateControl
          value={ticket.leverage}
          leverages={ticket.leverages}
          onChange={ticket.setLeverage}
          maintenanceBp={ticket.rules.maintenance_bp}
          p={p}
        />
      );
    case 'marginFigures':
      return <MarginFigures ticket={ticket} p={p} />;
    case 'priceType':
      return <PriceTypeControl value={ticket.priceType} onChange={ticket.choosePriceType} p={p} />;
    case 'price':
      return ticket.priceType === 'limit' ? (
        <LimitPriceControl
          text={ticket.priceText}
          onChange={ticket.changePriceText}
          onStep={ticket.stepPrice}
          error={ticket.shownPriceError}
          tick={price(tickSizeAt(ticket.limitPrice ?? quote.last, stock.topix500))}
          lower={price(quote.limit_down)}
          upper={price(quote.limit_up)}
          p={p}
        />
      ) : (
        <MarketPriceNote ticket={ticket} />
      );
    case 'quantity':
      return (
        <QuantityControl
          text={ticket.quantityText}
          onChange={ticket.changeQuantityText}
          onStep={ticket.stepQuantity}
          error={ticket.shownQuantityError}
          minCollateral={ticket.margin ? money(ticket.rules.min_collateral) : null}
          p={p}
        />
      );
    case 'dayTrade':
      return variant === 'full' ? (
        <DayTradeControl checked={ticket.dayTrade} onChange={ticket.setDayTrade} />
      ) : null;
  }
}

const KindControl = memo(function KindControl({
  value,
  onChange,
  p,
}: {
  value: OrderTicket['kind'];
  onChange: OrderTicket['chooseKind'];
  p: string;
}) {
  const { t } = useTranslation();
  return (
    <Segmented
      label={t('ticket.kind')}
      value={value}
      onChange={onChange}
      testId={`${p}order-kind`}
      options={[
        { value: 'cash', label: t('ticket.kindCash') },
        { value: 'margin', label: t('ticket.kindMargin') },
      ]}
    />
  );
});

const MarginTypeControl = memo(function MarginTypeControl({
  value,
  onChange,
  p,
}: {
  value: OrderTicket['marginType'];
  onChange: OrderTicket['setMarginType'];
  p: string;
}) {
  const { t } = useTranslation();
  return (
    <Segmented
      label={t('ticket.marginTypeLabel')}
      value={value}
      onChange={onChange}
      testId={`${p}order-margin-type`}
      options={[
        { value: 'standard', label: t('ticket.marginType.standard') },
        { value: 'general', label: t('ticket.marginType.general') },
      ]}
    />
  );
});

const SideControl = memo(function SideControl({
  value,
  onChange,
  p,
}: {
  value: OrderTicket['direction'];
  onChange: OrderTicket['setDirection'];
  p: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Segmented
        label={t('ticket.side')}
        value={value}
        onChange={onChange}
        testId={`${p}order-direction`}
        options={[
          { value: 'long', label: t('ticket.trade.marginOpenLong'), className: 'segmented__item--long' },
          { value: 'short', label: t('ticket.trade.marginOpenShort'), className: 'segmented__item--short' },
        ]}
      />
      {value === 'short' && (
        <p className="order-form__note" role="note">
          {t('trading.shortIsMargin')}
        </p>
      )}
    </>
  );
});

const AccountControl = memo(function AccountControl({
  value,
  accounts,
  onChange,
  nisaYear,
  nisaLeft,
  nisaHidden,
  p,
}: {
  value: OrderTicket['account'];
  accounts: OrderTicket['accounts'];
  onChange: OrderTicket['chooseAccount'];
  nisaYear: number | null;
  nisaLeft: string | null;
  nisaHidden: boolean;
  p: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Segmented
        label={t('ticket.accountLabel')}
        value={value ?? ''}
        onChange={(next) => {
          const chosen = accounts.find((a) => a === next);
          if (chosen !== undefined) onChange(chosen);
        }}
        testId={`${p}order-account`}
        options={accounts.map((a) => ({ value: a, label: accountLabel(t, a) }))}
      />
      {nisaYear !== null && nisaLeft !== null && (
        <p className="order-form__note" data-testid={`${p}order-nisa-left`}>
          {t('ticket.nisaLeft', { year: String(nisaYear), amount: nisaLeft })}
        </p>
      )}
      {nisaHidden && <p className="order-form__note">{t('ticket.nisaNoMargin')}</p>}
    </>
  );
});

const CollateralRateControl = memo(function CollateralRateControl({
  value,
  leverages,
  onChange,
  maintenanceBp,
  p,
}: {
  value: OrderTicket['leverage'];
  leverages: OrderTicket['leverages'];
  onChange: OrderTicket['setLeverage'];
  maintenanceBp: number;
  p: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Segmented
        label={t('ticket.collateralRate')}
        value={value}
        onChange={onChange}
        testId={`${p}order-collateral-rate`}
        options={leverages.map((n) => ({
          value: n,
          label: t('ticket.rate', { rate: collateralRatePercent(n) }),
        }))}
      />
      <p className="order-form__note">
        {t('ticket.collateralRateHint')}{' '}
        {t('ticket.maintenanceNote', { rate: `${String(maintenanceBp / 100)}%` })}
      </p>
    </>
  );
});

/** The buying power, the collateral and the repayment deadline: price cells, they follow the quote. */
function MarginFigures({ ticket, p }: { ticket: OrderTicket; p: string }) {
  const { t } = useTranslation();
  const { money } = ticket;
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
}

const PriceTypeControl = memo(function PriceTypeControl({
  value,
  onChange,
  p,
}: {
  value: OrderTicket['priceType'];
  onChange: OrderTicket['choosePriceType'];
  p: string;
}) {
  const { t } = useTranslation();
  return (
    <Segmented
      label={t('trading.priceType')}
      value={value}
      onChange={onChange}
      testId={`${p}order-price-type`}
      options={[
        { value: 'market', label: t('trading.market') },
        { value: 'limit', label: t('trading.limit') },
      ]}
    />
  );
});

/** A limit price: its hint (tick, lower and upper limits) changes only when the tick band or the day does. */
const LimitPriceControl = memo(function LimitPriceControl({
  text,
  onChange,
  onStep,
  error,
  tick,
  lower,
  upper,
  p,
}: {
  text: string;
  onChange: OrderTicket['changePriceText'];
  onStep: OrderTicket['stepPrice'];
  error: string | null;
  tick: string;
  lower: string;
  upper: string;
  p: string;
}) {
  const { t } = useTranslation();
  return (
    <StepperField
      label={t('trading.limitPrice')}
      value={text}
      onChange={onChange}
      onStep={onStep}
      inputMode="decimal"
      decLabel={t('trading.priceDown')}
      incLabel={t('trading.priceUp')}
      suffix={t('trading.yen')}
      error={error}
      hint={t('trading.priceHint', { tick, lower, upper })}
      testId={`${p}order-price`}
    />
  );
});

/** A market order's note: the price it would fill at now (a price cell: it follows the quote). */
function MarketPriceNote({ ticket }: { ticket: OrderTicket }) {
  const { t } = useTranslation();
  return (
    <p className="order-form__note">
      {t(ticket.direction === 'long' ? 'trading.marketNoteAsk' : 'trading.marketNoteBid', {
        price: ticket.price(ticket.figures.price),
      })}
      {ticket.stale && <span className="order-form__warn"> {t('trading.staleNote')}</span>}
    </p>
  );
}

const QuantityControl = memo(function QuantityControl({
  text,
  onChange,
  onStep,
  error,
  minCollateral,
  p,
}: {
  text: string;
  onChange: OrderTicket['changeQuantityText'];
  onStep: OrderTicket['stepQuantity'];
  error: string | null;
  /** a margin ticket's minimum collateral, formatted; null for 現物 */
  minCollateral: string | null;
  p: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      <StepperField
        label={t('trading.quantity')}
        value={text}
        onChange={onChange}
        onStep={onStep}
        decLabel={t('trading.quantityDown')}
        incLabel={t('trading.quantityUp')}
        suffix={t('trading.sharesUnit')}
        error={error}
        hint={t('trading.lotHint')}
        testId={`${p}order-quantity`}
      />
      {minCollateral !== null && (
        <p className="order-form__note">{t('trading.minCollateralNote', { amount: minCollateral })}</p>
      )}
    </>
  );
});

const DayTradeControl = memo(function DayTradeControl({
  checked,
  onChange,
}: {
  checked: boolean;
  onChange: OrderTicket['setDayTrade'];
}) {
  const { t } = useTranslation();
  return (
    <>
      <div className="order-form__switch">
        <span id="day-trade-label">{t('trading.dayTrade')}</span>
        <Switch
          checked={checked}
          onChange={onChange}
          aria-labelledby="day-trade-label"
          data-testid="order-day-trade"
        />
      </div>
      <p className="order-form__note">{t('trading.dayTradeNote')}</p>
    </>
  );
});

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
