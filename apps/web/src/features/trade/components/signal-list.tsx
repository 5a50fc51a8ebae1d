import { type Locale, type TStockRow } from '@kabuto/contract';
import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { memo, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  changeClass,
  formatChangeBp,
  formatPrice,
  priceDecimalsOf,
  type PriceDecimals,
} from '@/shared/format/price';
import { EmptyState } from '@/shared/ui/empty-state';
import { dailyBarsQuery } from '../api/daily-bars';
import { formatAverage, formatRsi, formatSessionDate } from '../format';
import {
  CHANGE_SESSIONS,
  computeSignals,
  type ChangeSignal,
  type MaSignal,
  type RsiSignal,
  type StockSignals,
} from '../signals';
import { useLocale } from '@/shared/i18n/use-locale';

/**
 * One row per stock: the three mechanical signals with the numbers behind them. The row is a button that
 * opens the plain-words explanation of each rule (aria-expanded). Nothing here ranks, recommends or
 * predicts: the words describe what the past prices did.
 */
export function SignalList({ rows, label }: { rows: readonly TStockRow[]; label: string }) {
  const { t } = useTranslation();
  const locale = useLocale();
  if (rows.length === 0) return <EmptyState description={t('aiTrade.signalsEmpty')} />;
  return (
    <ul className="ai-signals" aria-label={label} data-testid="signal-list">
      {rows.map((row) => (
        <SignalRow key={row.code} row={row} locale={locale} />
      ))}
    </ul>
  );
}

const SignalRow = memo(function SignalRow({ row, locale }: { row: TStockRow; locale: Locale }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const { data: closes, isPending, isError } = useQuery(dailyBarsQuery(row.code));
  const signals = useMemo(() => (closes === undefined ? null : computeSignals(closes)), [closes]);
  const decimals = priceDecimalsOf(row.price_decimals);
  return (
    <li className="ai-signal" data-testid="signal-row" data-code={row.code}>
      <button
        type="button"
        className="ai-signal__toggle"
        aria-expanded={open}
        aria-controls={panelId}
        data-testid="signal-toggle"
        onClick={() => {
          setOpen((v) => !v);
        }}
      >
        <span className="ai-signal__head">
          <span className="ai-signal__name">{row.name}</span>
          <span className="ai-signal__code">{row.code}</span>
          <span className="ai-signal__chevron" aria-hidden="true">
            {open ? '▲' : '▼'}
          </span>
        </span>
        {isPending ? (
          <span className="ai-signal__status" role="status">
            {t('aiTrade.loadingBars')}
          </span>
        ) : isError || signals === null ? (
          <span className="ai-signal__status">{t('aiTrade.barsFailed')}</span>
        ) : (
          <SignalSummary signals={signals} decimals={decimals} locale={locale} />
        )}
      </button>
      <div id={panelId} className="ai-signal__explain" hidden={!open} data-testid="signal-explanation">
        {open && signals !== null && <Explanations signals={signals} decimals={decimals} locale={locale} />}
        {open && signals === null && !isPending && <p>{t('aiTrade.barsFailed')}</p>}
      </div>
    </li>
  );
});

function maTag(t: TFunction, ma: MaSignal): string {
  switch (ma.kind) {
    case 'insufficient':
      return t('aiTrade.notEnough');
    case 'golden':
      return t('aiTrade.maGolden');
    case 'dead':
      return t('aiTrade.maDead');
    case 'above':
      return t('aiTrade.maAbove');
    case 'below':
      return t('aiTrade.maBelow');
    case 'level':
      return t('aiTrade.maLevel');
  }
}

function rsiTag(t: TFunction, rsi: RsiSignal): string {
  switch (rsi.kind) {
    case 'insufficient':
      return t('aiTrade.notEnough');
    case 'overbought':
      return t('aiTrade.rsiOverbought');
    case 'oversold':
      return t('aiTrade.rsiOversold');
    case 'neutral':
      return t('aiTrade.rsiNeutral');
  }
}

function SignalSummary({
  signals,
  decimals,
  locale,
}: {
  signals: StockSignals;
  decimals: PriceDecimals;
  locale: Locale;
}) {
  const { t } = useTranslation();
  const { ma, rsi, change } = signals;
  return (
    <span className="ai-signal__body">
      <span className="ai-signal__item" data-testid="signal-ma" data-kind={ma.kind}>
        <span className="ai-signal__label">{t('aiTrade.maLabel')}</span>
        <span className={`ai-tag ai-tag--${ma.kind}`}>{maTag(t, ma)}</span>
        {ma.kind !== 'insufficient' && (
          <span className="ai-signal__figures">
            {t('aiTrade.maFigures', {
              short: formatAverage(ma.short, decimals, locale),
              long: formatAverage(ma.long, decimals, locale),
            })}
          </span>
        )}
      </span>
      <span className="ai-signal__item" data-testid="signal-rsi" data-kind={rsi.kind}>
        <span className="ai-signal__label">{t('aiTrade.rsiLabel')}</span>
        <span className={`ai-tag ai-tag--${rsi.kind}`}>{rsiTag(t, rsi)}</span>
        {rsi.kind !== 'insufficient' && (
          <span className="ai-signal__figures">
            {t('aiTrade.rsiFigures', { value: formatRsi(rsi.value, locale) })}
          </span>
        )}
      </span>
      <span className="ai-signal__item" data-testid="signal-change" data-kind={change.kind}>
        <span className="ai-signal__label">{t('aiTrade.changeLabel', { sessions: CHANGE_SESSIONS })}</span>
        {change.kind === 'insufficient' ? (
          <span className="ai-tag ai-tag--insufficient">{t('aiTrade.notEnough')}</span>
        ) : (
          <span className={`ai-signal__figures ai-signal__change ${changeClass(change.bp)}`}>
            {formatChangeBp(change.bp, locale)}
          </span>
        )}
      </span>
    </span>
  );
}

function Explanations({
  signals,
  decimals,
  locale,
}: {
  signals: StockSignals;
  decimals: PriceDecimals;
  locale: Locale;
}) {
  const { t } = useTranslation();
  return (
    <>
      <section className="ai-explain">
        <h4 className="ai-explain__title">{t('aiTrade.maLabel')}</h4>
        <p>{maExplanation(t, signals.ma, decimals, locale)}</p>
        <p className="ai-explain__rule">{t('aiTrade.ruleMa')}</p>
      </section>
      <section className="ai-explain">
        <h4 className="ai-explain__title">{t('aiTrade.rsiLabel')}</h4>
        <p>{rsiExplanation(t, signals.rsi, locale)}</p>
        <p className="ai-explain__rule">{t('aiTrade.ruleRsi')}</p>
      </section>
      <section className="ai-explain">
        <h4 className="ai-explain__title">{t('aiTrade.changeLabel', { sessions: CHANGE_SESSIONS })}</h4>
        <p>{changeExplanation(t, signals.change, decimals, locale)}</p>
        <p className="ai-explain__rule">{t('aiTrade.ruleChange')}</p>
      </section>
      {signals.asOf !== null && (
        <p className="ai-explain__asof">
          {t('aiTrade.asOf', { date: formatSessionDate(signals.asOf, locale) })}
        </p>
      )}
    </>
  );
}

type T = TFunction;

function notEnough(t: T, signal: { needed: number; have: number }): string {
  return t('aiTrade.explainNotEnough', { needed: signal.needed, have: signal.have });
}

function maExplanation(t: T, ma: MaSignal, decimals: PriceDecimals, locale: Locale): string {
  if (ma.kind === 'insufficient') return notEnough(t, ma);
  const short = formatAverage(ma.short, decimals, locale);
  const long = formatAverage(ma.long, decimals, locale);
  switch (ma.kind) {
    case 'golden':
      return t('aiTrade.explainGolden', { date: formatSessionDate(ma.crossDate, locale), short, long });
    case 'dead':
      return t('aiTrade.explainDead', { date: formatSessionDate(ma.crossDate, locale), short, long });
    case 'above':
      return t('aiTrade.explainAbove', { short, long });
    case 'below':
      return t('aiTrade.explainBelow', { short, long });
    case 'level':
      return t('aiTrade.explainLevel', { short, long });
  }
}

function rsiExplanation(t: T, rsi: RsiSignal, locale: Locale): string {
  if (rsi.kind === 'insufficient') return notEnough(t, rsi);
  const value = formatRsi(rsi.value, locale);
  switch (rsi.kind) {
    case 'overbought':
      return t('aiTrade.explainOverbought', { value });
    case 'oversold':
      return t('aiTrade.explainOversold', { value });
    case 'neutral':
      return t('aiTrade.explainNeutral', { value });
  }
}

function changeExplanation(t: T, change: ChangeSignal, decimals: PriceDecimals, locale: Locale): string {
  if (change.kind === 'insufficient') return notEnough(t, change);
  return t('aiTrade.explainChange', {
    from: formatPrice(change.fromClose, decimals, locale),
    fromDate: formatSessionDate(change.fromDate, locale),
    to: formatPrice(change.toClose, decimals, locale),
    change: formatChangeBp(change.bp, locale),
  });
}
