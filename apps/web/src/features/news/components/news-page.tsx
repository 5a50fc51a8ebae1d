import { NEWS_CATEGORIES, type TMarketEvent, type TNewsCategory } from '@kabuto/contract';
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { InfiniteScroll, PullToRefresh, Tabs } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { marketEventsQuery, newsKeys, newsListQuery, useReader } from '@/domains/news/news-api';
import { NewsList } from '@/domains/news/news-list';
import { formatChangeBp } from '@/shared/format/price';
import { useLocale } from '@/shared/i18n/use-locale';
import { navigateTo } from '@/shared/navigation/nav';
import { stockDetailUrl } from '@/shared/navigation/routes';
import { EmptyState } from '@/shared/ui/empty-state';
import { PageLoading } from '@/shared/ui/page-loading';

type Tab = TNewsCategory | 'all' | 'events';
const TABS: readonly Tab[] = ['all', 'events', ...NEWS_CATEGORIES];

/**
 * /pages/record/record: the news tab. Categories in a scrolling row (its edges fade while there is more),
 * pull to refresh, more loaded at the end of the list, unread marks; the market events tab lists what the
 * market data shows today (limit-up and -down, the biggest movers), labelled as derived.
 */
export function NewsPage() {
  const { t } = useTranslation();
  const [tab, setTab] = useState<Tab>('all');
  return (
    <div className="news-page">
      <Tabs
        activeKey={tab}
        onChange={(key) => {
          setTab(key as Tab);
        }}
        className="news-tabs"
        data-testid="news-tabs"
      >
        {TABS.map((key) => (
          <Tabs.Tab
            key={key}
            title={t(key === 'all' || key === 'events' ? `news.tabs.${key}` : `news.categories.${key}`)}
          />
        ))}
      </Tabs>
      {tab === 'events' ? <MarketEvents /> : <Articles category={tab} />}
    </div>
  );
}

function Articles({ category }: { category: TNewsCategory | 'all' }) {
  const { t } = useTranslation();
  const reader = useReader();
  const client = useQueryClient();
  const query = useInfiniteQuery(newsListQuery(reader, category));
  const items = query.data?.pages.flatMap((p) => p.items) ?? [];
  if (query.isPending) return <PageLoading />;
  return (
    <PullToRefresh
      onRefresh={() => client.resetQueries({ queryKey: newsKeys.all })}
      pullingText={t('news.pull')}
      canReleaseText={t('news.release')}
      refreshingText={t('news.refreshing')}
      completeText={t('news.refreshed')}
    >
      {items.length === 0 ? (
        <EmptyState description={t('news.empty')} />
      ) : (
        <>
          <NewsList items={items} label={t('titles.news')} />
          <InfiniteScroll
            hasMore={query.hasNextPage}
            loadMore={async () => {
              await query.fetchNextPage();
            }}
          >
            <span className="news-more" data-testid="news-more">
              {query.hasNextPage ? t('news.loadingMore') : t('news.end')}
            </span>
          </InfiniteScroll>
        </>
      )}
    </PullToRefresh>
  );
}

function MarketEvents() {
  const { t } = useTranslation();
  const locale = useLocale();
  const reader = useReader();
  const { data, isPending } = useQuery(marketEventsQuery(reader.lang));
  if (isPending) return <PageLoading />;
  const items = data?.items ?? [];
  return (
    <section aria-label={t('news.tabs.events')}>
      <p className="news-derived" role="note">
        {t('news.derived')}
      </p>
      {items.length === 0 ? (
        <EmptyState description={t('news.noEvents')} />
      ) : (
        <ol className="news-list" data-testid="market-events">
          {items.map((e: TMarketEvent) => (
            <li key={`${e.kind}-${e.code}`} className="news-row">
              <a
                className="news-row__link"
                href={`#${stockDetailUrl(e.code)}`}
                onClick={(event) => {
                  event.preventDefault();
                  navigateTo(stockDetailUrl(e.code));
                }}
              >
                <span className="news-row__title">
                  <span className={`news-row__tag news-row__tag--${e.kind}`}>
                    {t(`news.events.${e.kind}`)}
                  </span>
                  {e.name} ({e.code})
                </span>
                {e.change_bp !== null && (
                  <span className="news-row__meta">{formatChangeBp(e.change_bp, locale)}</span>
                )}
              </a>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
