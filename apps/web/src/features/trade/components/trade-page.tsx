import type { TStockRow } from '@kabuto/contract';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { marketListQuery, watchlistQuery } from '@/domains/market/market-api';
import { SimulatedBadge } from '@/domains/market/simulated-badge';
import { useViewer } from '@/domains/market/viewer';
import { navigateTo } from '@/shared/navigation/nav';
import { ordersUrl } from '@/shared/navigation/routes';
import { useQuoteStream } from '@/shared/realtime/realtime';
import { EmptyState } from '@/shared/ui/empty-state';
import { LoginPrompt } from '@/shared/ui/login-prompt';
import { PageLoading } from '@/shared/ui/page-loading';
import { PositionsSummary } from './positions-summary';
import { QuickOrder } from './quick-order';
import { SignalList } from './signal-list';
import '../trade.css';
import { OpenAccountGate } from '@/domains/opening/account-opening-prompt';

/**
 * /pages/jiaoyi/jiaoyi ("AI trade"): mechanical price signals with their rules in plain words, a compact
 * order entry and the open positions. The disclaimer stays at the top whatever the state of the page.
 */
const TOP_LIMIT = 10;

export function TradePage() {
  const { t } = useTranslation();
  const { rows, source, isPending } = useSignalStocks();
  const viewer = useViewer();
  useQuoteStream(useMemo(() => rows.map((r) => r.code), [rows]));
  return (
    <div className="ai-trade">
      <section
        className="ai-disclaimer"
        role="note"
        aria-labelledby="ai-disclaimer-title"
        data-testid="ai-disclaimer"
      >
        <h2 id="ai-disclaimer-title" className="ai-disclaimer__title">
          {t('aiTrade.disclaimerTitle')}
        </h2>
        <p>{t('aiTrade.disclaimer')}</p>
        <SimulatedBadge className="ai-disclaimer__badge" />
      </section>

      <section className="ai-section" aria-labelledby="ai-signals-title">
        <header className="ai-section__head">
          <h2 id="ai-signals-title" className="ai-section__title">
            {t('aiTrade.signalsTitle')}
          </h2>
          <p className="ai-section__hint" data-testid="ai-signal-source">
            {source === 'watchlist' ? t('aiTrade.sourceWatchlist') : t('aiTrade.sourceTop')}
          </p>
        </header>
        {isPending ? (
          <PageLoading />
        ) : rows.length === 0 ? (
          <EmptyState description={t('aiTrade.signalsEmpty')} />
        ) : (
          <SignalList
            rows={rows}
            label={source === 'watchlist' ? t('aiTrade.sourceWatchlist') : t('aiTrade.sourceTop')}
          />
        )}
      </section>

      <section className="ai-section" aria-labelledby="ai-order-title">
        <header className="ai-section__head">
          <h2 id="ai-order-title" className="ai-section__title">
            {t('aiTrade.orderTitle')}
          </h2>
        </header>
        {viewer.token === null ? (
          <LoginPrompt message={t('aiTrade.loginToTrade')} />
        ) : isPending ? (
          <PageLoading />
        ) : (
          <div className="ai-section__body">
            <OpenAccountGate>
              <QuickOrder rows={rows} />
            </OpenAccountGate>
          </div>
        )}
      </section>

      {viewer.token !== null && (
        <section className="ai-section" aria-labelledby="ai-positions-title">
          <header className="ai-section__head">
            <h2 id="ai-positions-title" className="ai-section__title">
              {t('aiTrade.positionsTitle')}
            </h2>
            <a
              className="ai-section__more"
              href={`#${ordersUrl('holding')}`}
              onClick={(event) => {
                event.preventDefault();
                navigateTo(ordersUrl('holding'));
              }}
            >
              {t('aiTrade.positionsAll')} ›
            </a>
          </header>
          <PositionsSummary />
        </section>
      )}
    </div>
  );
}

/**
 * The stocks the signals cover: the watchlist when logged in and not empty, otherwise the 10 most-traded
 * stocks by turnover.
 */
function useSignalStocks(): { rows: readonly TStockRow[]; source: 'watchlist' | 'top'; isPending: boolean } {
  const viewer = useViewer();
  const watchlist = useQuery(watchlistQuery(viewer.userId, viewer.token));
  const loggedIn = viewer.token !== null;
  const watchPending = loggedIn && watchlist.isPending;
  const useWatchlist = loggedIn && (watchlist.data?.length ?? 0) > 0;
  const top = useQuery({
    ...marketListQuery(viewer, { sort: 'turnover', limit: TOP_LIMIT }),
    enabled: !watchPending && !useWatchlist,
  });
  if (watchPending) return { rows: [], source: 'top', isPending: true };
  if (useWatchlist) return { rows: watchlist.data ?? [], source: 'watchlist', isPending: false };
  return { rows: top.data?.items ?? [], source: 'top', isPending: top.isPending };
}
