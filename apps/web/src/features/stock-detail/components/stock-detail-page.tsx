import { BAR_PERIODS, localeOf, type TBarPeriod, type TQuote, type TStockDetail } from '@kabuto/contract';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
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
} from '@/shared/format/price';
import { marketStatusQuery, stockQuery } from '@/shared/market/market-api';
import { SimulatedBadge } from '@/shared/market/simulated-badge';
import { StaleMarker } from '@/shared/market/stale-marker';
import { useIsStale } from '@/shared/market/staleness';
import { useViewer } from '@/shared/market/viewer';
import { WatchStar } from '@/shared/market/watch-star';
import { useQuoteStream } from '@/shared/realtime/realtime';
import { useSession } from '@/shared/session/session';
import { EmptyState } from '@/shared/ui/empty-state';
import { PageLoading } from '@/shared/ui/page-loading';
import { ChartPanel } from './chart-panel';
import { OrderPanel } from './order-form';

/** /subPackages/index/gupiaoDetail/gupiaoDetail?code=7203: the quote, live, and the chart. */
function isPeriod(value: string | null): value is TBarPeriod {
  return value !== null && (BAR_PERIODS as readonly string[]).includes(value);
}

export function StockDetailPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const code = (params.get('code') ?? '').trim().toUpperCase();
  const rawPeriod = params.get('period');
  const period: TBarPeriod = isPeriod(rawPeriod) ? rawPeriod : 'intraday';
  const viewer = useViewer();
  const locale = localeOf(viewer.lang);
  const { data, isPending, isError } = useQuery(stockQuery(viewer, code));
  const status = useQuery(marketStatusQuery()).data;
  useQuoteStream(data?.tradable === true ? [code] : []);

  if (code === '') return <EmptyState description={t('stock.notFound')} />;
  if (isPending) return <PageLoading />;
  if (isError) return <EmptyState description={t('stock.notFound')} />;
  return (
    <div className="stock-detail">
      <StockHeader stock={data} />
      {data.quote === null ? (
        <p className="notice-card" role="note">
          {t('stock.notTradable')}
        </p>
      ) : (
        <>
          <QuoteFigures stock={data} quote={data.quote} />
          <ChartPanel
            code={code}
            period={period}
            onPeriod={(next) => {
              setParams({ code, period: next }, { replace: true });
            }}
            quote={data.quote}
            priceDecimals={priceDecimalsOf(data.price_decimals)}
            alwaysOpen={status?.always_open === true}
            locale={locale}
          />
          {data.tradable && <OrderPanel stock={data} quote={data.quote} />}
        </>
      )}
    </div>
  );
}

function StockHeader({ stock }: { stock: TStockDetail }) {
  const { t } = useTranslation();
  const locale = localeOf(useSession((s) => s.lang));
  const quote = stock.quote;
  const stale = useIsStale(quote?.time);
  const decimals = priceDecimalsOf(stock.price_decimals);
  const cls = quote === null ? '' : changeClass(quote.change);
  return (
    <header className={`stock-header${stale ? ' quote--stale' : ''}`}>
      <div className="stock-header__top">
        <div>
          <h2 className="stock-header__name">{stock.name}</h2>
          <p className="stock-header__meta">
            <span data-testid="stock-code">{stock.code}</span>
            <span>{stock.market}</span>
            {stock.name_ja !== stock.name && <span lang="ja">{stock.name_ja}</span>}
          </p>
        </div>
        <WatchStar code={stock.code} name={stock.name} watched={stock.watched} />
      </div>
      {quote !== null && (
        <div className="stock-header__quote">
          <p className={`stock-header__price ${cls}`}>
            <span className="visually-hidden">{t('stock.lastPrice')} </span>
            <span data-testid="last-price">{formatPrice(quote.last, decimals, locale)}</span>
          </p>
          <p className={`stock-header__change ${cls}`}>
            <span className="visually-hidden">{t('stock.change')} </span>
            <span data-testid="price-change">{formatSignedPrice(quote.change, decimals, locale)}</span>{' '}
            <span data-testid="price-change-pct">{formatChangeBp(quote.change_bp, locale)}</span>
          </p>
          {stale && <StaleMarker />}
          <p className="stock-header__time">
            {t('stock.quoteTime', { time: formatDateTime(quote.time, locale) })}
          </p>
        </div>
      )}
      <SimulatedBadge />
    </header>
  );
}

function QuoteFigures({ stock, quote }: { stock: TStockDetail; quote: TQuote }) {
  const { t } = useTranslation();
  const locale = localeOf(useSession((s) => s.lang));
  const decimals = priceDecimalsOf(stock.price_decimals);
  const p = (v: number) => (v > 0 ? formatPlainPrice(v, decimals, locale) : '—');
  const versus = (v: number) => (v > 0 ? changeClass(v - quote.prev_close) : '');
  const rows: [string, string, string?][] = [
    ['stock.open', p(quote.open), versus(quote.open)],
    ['stock.prevClose', p(quote.prev_close)],
    ['stock.high', p(quote.high), versus(quote.high)],
    ['stock.low', p(quote.low), versus(quote.low)],
    ['stock.volume', formatShares(quote.volume, locale)],
    ['stock.turnover', `¥${formatCompact(Math.trunc(quote.turnover / 100), locale)}`],
    ['stock.bid', p(quote.bid)],
    ['stock.ask', p(quote.ask)],
    ['stock.limitUp', p(quote.limit_up), 'price-rise'],
    ['stock.limitDown', p(quote.limit_down), 'price-fall'],
  ];
  return (
    <section className="quote-figures" aria-label={t('stock.figures')}>
      <dl className="quote-figures__grid">
        {rows.map(([key, value, cls]) => (
          <div key={key} className="quote-figures__item">
            <dt>{t(key)}</dt>
            <dd className={cls ?? ''} data-testid={`figure-${key.slice(6)}`}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
