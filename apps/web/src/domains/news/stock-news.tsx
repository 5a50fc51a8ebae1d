import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/shared/ui/empty-state';
import { PageLoading } from '@/shared/ui/page-loading';
import { newsListQuery, useReader } from './news-api';
import { NewsList } from './news-list';

/** The news about one stock (its detail page): the newest ten. */
export function StockNews({ code }: { code: string }) {
  const { t } = useTranslation();
  const reader = useReader();
  const query = useInfiniteQuery(newsListQuery(reader, 'all', code));
  const items = (query.data?.pages[0]?.items ?? []).slice(0, 10);
  return (
    <section className="stock-news" aria-label={t('news.stockNews')} data-testid="stock-news">
      <h2 className="section-title">{t('news.stockNews')}</h2>
      {query.isPending ? (
        <PageLoading />
      ) : items.length === 0 ? (
        <EmptyState description={t('news.emptyStock')} />
      ) : (
        <NewsList items={items} label={t('news.stockNews')} />
      )}
    </section>
  );
}
