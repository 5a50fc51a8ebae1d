import type { Locale, TBar, TBarPeriod } from '@kabuto/contract';
import { useQuery } from '@tanstack/react-query';
import { DotLoading } from 'antd-mobile';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { barsQuery } from '@/domains/market/market-api';
import { formatChangeBp, formatPrice, formatSignedPrice } from '@/shared/format/price';
import { EmptyState } from '@/shared/ui/empty-state';
import { isCalendarPeriod } from '../chart/chart-data';
import {
  INDICATOR_IDS,
  useIndicators,
  type IndicatorChoice,
  type IndicatorId,
} from '../chart/indicator-settings';
import { useStock } from '../live-stock';
import { selectQuote } from '../stock-selectors';

/** lightweight-charts stays out of the page's chunk: the chart component is imported on demand. */
const StockChart = lazy(() => import('../chart/stock-chart'));

/** The specification's chart periods: four tabs, and "more" with the time choices. */
export const MAIN_PERIODS: readonly { period: TBarPeriod; key: string }[] = [
  { period: 'intraday', key: 'chart.intraday' },
  { period: '1d', key: 'chart.daily' },
  { period: '7m', key: 'chart.m7' },
  { period: '30m', key: 'chart.m30' },
];
export const MORE_PERIODS: readonly { period: TBarPeriod; key: string }[] = [
  { period: '1m', key: 'chart.c1m' },
  { period: '5m', key: 'chart.c5m' },
  { period: '15m', key: 'chart.c15m' },
  { period: '30m', key: 'chart.c30m' },
  { period: '45m', key: 'chart.c45m' },
  { period: '1d', key: 'chart.c1d' },
  { period: '1w', key: 'chart.c1w' },
  { period: '1mo', key: 'chart.c1mo' },
];

/** The tabs and the chart area; renders again on a change of period or bars, not on quote ticks. */
export function ChartPanel(props: {
  code: string;
  period: TBarPeriod;
  onPeriod: (period: TBarPeriod) => void;
  priceDecimals: 0 | 1;
  alwaysOpen: boolean;
  locale: Locale;
}) {
  const { t } = useTranslation();
  const { code, period, onPeriod } = props;
  const fromMore =
    MORE_PERIODS.some((p) => p.period === period) && !MAIN_PERIODS.some((p) => p.period === period);
  const [moreOpen, setMoreOpen] = useState(fromMore);
  // Minute bars move on the server's clock: fetch them again now and then (calendar bars follow the quote).
  const refetchMs = isCalendarPeriod(period) ? false : 60_000;
  const { data, isPending, isError } = useQuery(barsQuery(code, period, refetchMs));
  const label = [...MAIN_PERIODS, ...MORE_PERIODS].find((p) => p.period === period)?.key ?? 'chart.intraday';
  const moreChoice = MORE_PERIODS.find((p) => p.period === period);
  const [indicators, setIndicator] = useIndicators();

  const tab = (p: { period: TBarPeriod; key: string }, group: string) => (
    <button
      key={`${group}-${p.period}`}
      type="button"
      role="tab"
      aria-selected={period === p.period}
      aria-controls="chart-area"
      className={`chart-tabs__tab${period === p.period ? ' chart-tabs__tab--active' : ''}`}
      onClick={() => {
        onPeriod(p.period);
      }}
    >
      {t(p.key)}
    </button>
  );

  return (
    <section className="chart-panel" aria-label={t('chart.label', { period: t(label) })}>
      <div className="chart-tabs">
        <div role="tablist" aria-label={t('chart.periods')} className="chart-tabs__list">
          {MAIN_PERIODS.map((p) => tab(p, 'main'))}
        </div>
        <button
          type="button"
          className={`chart-tabs__more${fromMore ? ' chart-tabs__tab--active' : ''}`}
          aria-expanded={moreOpen}
          aria-controls="chart-more"
          onClick={() => {
            setMoreOpen((open) => !open);
          }}
        >
          {fromMore && moreChoice !== undefined ? t(moreChoice.key) : t('chart.more')}
          <span aria-hidden="true"> {moreOpen ? '▴' : '▾'}</span>
        </button>
      </div>
      {moreOpen && (
        <div
          id="chart-more"
          role="tablist"
          aria-label={t('chart.morePeriods')}
          className="chart-tabs__list chart-tabs__list--more"
        >
          {MORE_PERIODS.map((p) => tab(p, 'more'))}
        </div>
      )}
      <IndicatorMenu choice={indicators} onChange={setIndicator} />
      <div id="chart-area" role="tabpanel" className="chart-area" aria-busy={isPending}>
        {data !== undefined && data.bars.length > 0 ? (
          <Suspense fallback={<ChartLoading />}>
            <LiveStockChart
              key={`${period}-${props.priceDecimals}-${props.locale}`}
              code={code}
              period={period}
              bars={data.bars}
              priceDecimals={props.priceDecimals}
              alwaysOpen={props.alwaysOpen}
              locale={props.locale}
              label={t('chart.label', { period: t(label) })}
              indicators={indicators}
            />
          </Suspense>
        ) : isPending ? (
          <ChartLoading />
        ) : (
          <EmptyState description={isError ? undefined : t('chart.empty')} />
        )}
      </div>
    </section>
  );
}

/** The chart follows every quote tick: only this part subscribes to the whole quote. */
function LiveStockChart(props: {
  code: string;
  period: TBarPeriod;
  bars: readonly TBar[];
  priceDecimals: 0 | 1;
  alwaysOpen: boolean;
  locale: Locale;
  label: string;
  indicators: IndicatorChoice;
}) {
  const { code, label, ...rest } = props;
  const { t } = useTranslation();
  const quote = useStock(code, selectQuote).data ?? null;
  // the chart's text alternative (issue 21): its period, then the latest price and change
  const summary =
    quote === null
      ? label
      : t('chart.summary', {
          chart: label,
          price: formatPrice(quote.last, props.priceDecimals, props.locale),
          change: formatSignedPrice(quote.change, props.priceDecimals, props.locale),
          pct: formatChangeBp(quote.change_bp, props.locale),
        });
  return <StockChart {...rest} label={summary} quote={quote} />;
}

function ChartLoading() {
  const { t } = useTranslation();
  return (
    <div className="chart-area__loading" role="status">
      <DotLoading color="primary" />
      <span className="visually-hidden">{t('chart.loading')}</span>
    </div>
  );
}

/** The indicators menu: a button that opens a list of check boxes, one per indicator (remembered). */
function IndicatorMenu({
  choice,
  onChange,
}: {
  choice: IndicatorChoice;
  onChange: (id: IndicatorId, on: boolean) => void;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <div className="indicator-menu">
      <button
        type="button"
        className="indicator-menu__toggle"
        aria-expanded={open}
        aria-controls="indicator-list"
        data-testid="indicator-menu"
        onClick={() => {
          setOpen((was) => !was);
        }}
      >
        {t('indicators.menu')}
        <span aria-hidden="true"> {open ? '▴' : '▾'}</span>
      </button>
      {open && (
        <fieldset id="indicator-list" className="indicator-menu__list">
          <legend className="visually-hidden">{t('indicators.title')}</legend>
          {INDICATOR_IDS.map((id) => (
            <label key={id} className="indicator-menu__item">
              <input
                type="checkbox"
                checked={choice[id]}
                data-testid={`indicator-${id}`}
                onChange={(event) => {
                  onChange(id, event.target.checked);
                }}
              />
              {t(`indicators.${id}`)}
            </label>
          ))}
        </fieldset>
      )}
    </div>
  );
}
