import { localeOf } from '@kabuto/contract';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from '@/shared/navigation/router';
import { changeClass, formatChangeBp } from '@/shared/format/price';
import { IndexCards } from '@/domains/market/index-cards';
import { marketListQuery, sectorsQuery, watchlistQuery, type MarketSort } from '@/domains/market/market-api';
import { SearchEntry } from '@/domains/market/search-entry';
import { SimulatedBadge } from '@/domains/market/simulated-badge';
import { StockList } from '@/domains/market/stock-list';
import { useViewer } from '@/domains/market/viewer';
import { useSession } from '@/shared/session/session';
import { EmptyState } from '@/shared/ui/empty-state';
import { LoginPrompt } from '@/shared/ui/login-prompt';
import { PageLoading } from '@/shared/ui/page-loading';
import { ScrollRow } from '@/shared/ui/scroll-row';
import { SEGMENTS, segmentOf, type Segment } from '../api/market-page-reads';

/**
 * /pages/market/market: indices, the ranking lists, sectors and the user's watchlist. The chosen segment
 * (and sector) live in the URL so that coming back from a stock keeps them.
 */
export function MarketPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const segment = segmentOf(params);
  const sector = params.get('sector') ?? '';
  const select = (next: Segment) => {
    setParams({ tab: next }, { replace: true });
  };

  return (
    <div className="market-page">
      <SearchEntry />
      <SimulatedBadge />
      <IndexCards />
      <ScrollRow className="segments" active={segment} role="tablist" aria-label={t('market.segments')}>
        {SEGMENTS.map((s) => (
          <button
            key={s}
            type="button"
            role="tab"
            id={`segment-${s}`}
            aria-selected={segment === s}
            aria-controls="market-panel"
            className={`segments__tab${segment === s ? ' segments__tab--active' : ''}`}
            onClick={() => {
              select(s);
            }}
          >
            {t(`market.${s}`)}
          </button>
        ))}
      </ScrollRow>
      <section id="market-panel" role="tabpanel" aria-labelledby={`segment-${segment}`}>
        {segment === 'watchlist' ? (
          <WatchlistPanel />
        ) : segment === 'sectors' ? (
          sector === '' ? (
            <SectorsPanel
              onOpen={(s) => {
                setParams({ tab: 'sectors', sector: s }, { replace: true });
              }}
            />
          ) : (
            <SectorStocks
              sector={sector}
              onBack={() => {
                setParams({ tab: 'sectors' }, { replace: true });
              }}
            />
          )
        ) : (
          <RankingPanel sort={segment} label={t(`market.${segment}`)} />
        )}
      </section>
    </div>
  );
}

function RankingPanel({ sort, label }: { sort: MarketSort; label: string }) {
  const viewer = useViewer();
  const { data, isPending } = useQuery(marketListQuery(viewer, { sort }));
  if (isPending) return <PageLoading />;
  if (data === undefined || data.items.length === 0) return <EmptyState />;
  return <StockList rows={data.items} sortable label={label} testId={`list-${sort}`} />;
}

function WatchlistPanel() {
  const { t } = useTranslation();
  const token = useSession((s) => s.token);
  const viewer = useViewer();
  const { data, isPending } = useQuery(watchlistQuery(viewer.userId, token));
  if (token === null) return <LoginPrompt message={t('market.watchlistLogin')} />;
  if (isPending) return <PageLoading />;
  if (data === undefined || data.length === 0) return <EmptyState description={t('market.watchlistEmpty')} />;
  return <StockList rows={data} sortable label={t('market.watchlist')} testId="list-watchlist" />;
}

function SectorsPanel({ onOpen }: { onOpen: (sector: string) => void }) {
  const { t } = useTranslation();
  const lang = useSession((s) => s.lang);
  const locale = localeOf(lang);
  const { data, isPending } = useQuery(sectorsQuery(lang));
  if (isPending) return <PageLoading />;
  if (data === undefined || data.length === 0) return <EmptyState />;
  return (
    <ul className="sector-list" aria-label={t('market.sectors')}>
      {data.map((s) => (
        <li key={s.sector}>
          <button
            type="button"
            className="sector-list__item"
            onClick={() => {
              onOpen(s.sector);
            }}
          >
            <span className="sector-list__name">{s.name}</span>
            <span className="sector-list__count">{t('market.sectorCount', { count: s.count })}</span>
            <span className={`sector-list__change ${changeClass(s.change_bp)}`}>
              <span className="visually-hidden">{t('market.avgChange')} </span>
              {formatChangeBp(s.change_bp, locale)}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}

function SectorStocks({ sector, onBack }: { sector: string; onBack: () => void }) {
  const { t } = useTranslation();
  const viewer = useViewer();
  const sectors = useQuery(sectorsQuery(viewer.lang));
  const name = sectors.data?.find((s) => s.sector === sector)?.name ?? sector;
  const { data, isPending } = useQuery(marketListQuery(viewer, { sort: 'gainers', sector, limit: 100 }));
  return (
    <>
      <div className="sector-head">
        <button type="button" className="sector-head__back" onClick={onBack}>
          ‹ {t('market.allSectors')}
        </button>
        <h2 className="sector-head__name">{name}</h2>
      </div>
      {isPending ? (
        <PageLoading />
      ) : data === undefined || data.items.length === 0 ? (
        <EmptyState />
      ) : (
        <StockList rows={data.items} sortable label={name} testId="list-sector" />
      )}
    </>
  );
}
