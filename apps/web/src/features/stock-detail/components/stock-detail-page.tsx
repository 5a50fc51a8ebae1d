import type { Locale, TMarketStatus } from '@kabuto/contract';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from '@/shared/navigation/router';
import { formatDateTime } from '@/shared/format/format';
import {
  changeClass,
  formatChangeBp,
  formatCompact,
  formatPlainPrice,
  formatPrice,
  formatShares,
  formatSignedPrice,
  priceDecimalsOf,
  type PriceDecimals,
} from '@/shared/format/price';
import { marketStatusQuery } from '@/shared/market-clock/market-status';
import { SimulatedBadge } from '@/domains/market/simulated-badge';
import { StaleMarker } from '@/domains/market/stale-marker';
import { useIsStale } from '@/shared/market-clock/staleness';
import { WatchStar } from '@/domains/market/watch-star';
import { useQuoteStream } from '@/shared/realtime/realtime';
import { EmptyState } from '@/shared/ui/empty-state';
import { PageLoading } from '@/shared/ui/page-loading';
import { chartPeriodOf, stockCodeOf } from '../api/stock-page-reads';
import { useStock } from '../live-stock';
import {
  selectFigures,
  selectHeaderPrice,
  selectInfo,
  selectQuoteMinute,
  selectQuoteTime,
  type StockInfo,
} from '../stock-selectors';
import { ChartPanel } from './chart-panel';
import { useLocale } from '@/shared/i18n/use-locale';
import { BelowTheFold } from '@/shared/ui/below-the-fold';

/**
 * The order book, the order form and the news: drawn after the first screen (BelowTheFold), and their code
 * (the order ticket, the account-opening gate; about 15 KiB gzipped) fetched then, not before the page's
 * largest paint (issue 21). They appear together, at the end of the page, so nothing drawn moves.
 */
const BelowTheChart = lazy(() => import('./below-the-chart').then((m) => ({ default: m.BelowTheChart })));

/** /subPackages/index/gupiaoDetail/gupiaoDetail?code=7203: the quote, live, and the chart. */
const selectAlwaysOpen = (status: TMarketStatus) => status.always_open;

/**
 * The page itself reads only the stock's fixed facts (name, decimals, tradable, whether it has a quote),
 * so a quote tick does not render it again; each live part below subscribes to the figures it draws
 * (see live-stock.ts).
 */
export function StockDetailPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const code = stockCodeOf(params);
  const period = chartPeriodOf(params);
  const locale = useLocale();
  const { data: info, isPending, isError } = useStock(code, selectInfo);
  const alwaysOpen = useQuery({ ...marketStatusQuery(), select: selectAlwaysOpen }).data === true;
  useQuoteStream(info?.tradable === true ? [code] : []);

  if (code === '') return <EmptyState description={t('stock.notFound')} />;
  if (isPending) return <PageLoading />;
  if (isError) return <EmptyState description={t('stock.notFound')} />;
  return (
    <div className="stock-detail">
      <StockHeader info={info} />
      {!info.hasQuote ? (
        <p className="notice-card" role="note">
          {t('stock.notTradable')}
        </p>
      ) : (
        <>
          <QuoteFigures code={code} decimals={priceDecimalsOf(info.price_decimals)} />
          <ChartPanel
            code={code}
            period={period}
            onPeriod={(next) => {
              setParams({ code, period: next }, { replace: true });
            }}
            priceDecimals={priceDecimalsOf(info.price_decimals)}
            alwaysOpen={alwaysOpen}
            locale={locale}
          />
          <BelowTheFold>
            <Suspense fallback={null}>
              <BelowTheChart code={code} info={info} decimals={priceDecimalsOf(info.price_decimals)} />
            </Suspense>
          </BelowTheFold>
        </>
      )}
    </div>
  );
}

function StockHeader({ info }: { info: StockInfo }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const decimals = priceDecimalsOf(info.price_decimals);
  return (
    <header className="stock-header">
      <div className="stock-header__top">
        <div>
          <h2 className="stock-header__name">{info.name}</h2>
          <p className="stock-header__meta">
            <span data-testid="stock-code">{info.code}</span>
            <span>{info.market}</span>
            {info.name_ja !== info.name && <span lang="ja">{info.name_ja}</span>}
          </p>
        </div>
        <WatchStar code={info.code} name={info.name} watched={info.watched} />
      </div>
      {info.hasQuote && (
        <StaleScope code={info.code} after={<QuoteTime code={info.code} locale={locale} />}>
          <HeaderQuotePrice code={info.code} decimals={decimals} locale={locale} />
        </StaleScope>
      )}
      <SimulatedBadge />
      {info.price_basis !== null && (
        <p className="stock-header__basis" data-testid="price-basis">
          {t(
            info.price_basis === 'calibrated'
              ? 'stock.priceBasisCalibrated'
              : info.price_basis === 'ipo'
                ? 'stock.priceBasisIpo'
                : 'stock.priceBasisDerived',
          )}
        </p>
      )}
    </header>
  );
}

/**
 * The quote area, greyed while the quote is stale. It follows every tick (the check needs the quote's
 * time), but its children are elements made by the header, so they do not render again with it.
 */
function StaleScope({ code, children, after }: { code: string; children: ReactNode; after: ReactNode }) {
  const time = useStock(code, selectQuoteTime).data ?? null;
  const stale = useIsStale(time);
  return (
    <div className={`stock-header__quote${stale ? ' quote--stale' : ''}`}>
      {children}
      {stale && <StaleMarker />}
      {after}
    </div>
  );
}

/** Price, change and percentage: renders again only when the price moves. */
function HeaderQuotePrice({
  code,
  decimals,
  locale,
}: {
  code: string;
  decimals: PriceDecimals;
  locale: Locale;
}) {
  const { t } = useTranslation();
  const price = useStock(code, selectHeaderPrice).data ?? null;
  if (price === null) return null;
  const cls = changeClass(price.change);
  return (
    <>
      <p className={`stock-header__price ${cls}`}>
        <span className="visually-hidden">{t('stock.lastPrice')} </span>
        <span data-testid="last-price">{formatPrice(price.last, decimals, locale)}</span>
      </p>
      <p className={`stock-header__change ${cls}`}>
        <span className="visually-hidden">{t('stock.change')} </span>
        <span data-testid="price-change">{formatSignedPrice(price.change, decimals, locale)}</span>{' '}
        <span data-testid="price-change-pct">{formatChangeBp(price.change_bp, locale)}</span>
      </p>
    </>
  );
}

/** The quote's time, shown to the minute: renders again once a minute. */
function QuoteTime({ code, locale }: { code: string; locale: Locale }) {
  const { t } = useTranslation();
  const minute = useStock(code, selectQuoteMinute).data ?? null;
  if (minute === null) return null;
  return (
    <p className="stock-header__time">
      {t('stock.quoteTime', { time: formatDateTime(new Date(minute), locale) })}
    </p>
  );
}

const FIGURE_KEYS = [
  'stock.open',
  'stock.prevClose',
  'stock.high',
  'stock.low',
  'stock.volume',
  'stock.turnover',
  'stock.bid',
  'stock.ask',
  'stock.limitUp',
  'stock.limitDown',
] as const;

/**
 * The figures under the header: render again when one of them changes (the volume does on most ticks).
 * Their labels are translated once per language, not on every tick.
 */
function QuoteFigures({ code, decimals }: { code: string; decimals: PriceDecimals }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const labels = useMemo(
    () => ({ section: t('stock.figures'), rows: FIGURE_KEYS.map((key) => t(key)) }),
    [t],
  );
  const quote = useStock(code, selectFigures).data ?? null;
  if (quote === null) return null;
  const p = (v: number) => (v > 0 ? formatPlainPrice(v, decimals, locale) : '—');
  const versus = (v: number) => (v > 0 ? changeClass(v - quote.prev_close) : '');
  const values: [string, string?][] = [
    [p(quote.open), versus(quote.open)],
    [p(quote.prev_close)],
    [p(quote.high), versus(quote.high)],
    [p(quote.low), versus(quote.low)],
    [formatShares(quote.volume, locale)],
    [`¥${formatCompact(Math.trunc(quote.turnover / 100), locale)}`],
    [p(quote.bid)],
    [p(quote.ask)],
    [p(quote.limit_up), 'price-rise'],
    [p(quote.limit_down), 'price-fall'],
  ];
  return (
    <section className="quote-figures" aria-label={labels.section}>
      <dl className="quote-figures__grid">
        {FIGURE_KEYS.map((key, i) => {
          const [value, cls] = values[i] ?? [''];
          return (
            <div key={key} className="quote-figures__item">
              <dt>{labels.rows[i]}</dt>
              <dd className={cls ?? ''} data-testid={`figure-${key.slice(6)}`}>
                {value}
              </dd>
            </div>
          );
        })}
      </dl>
    </section>
  );
}
