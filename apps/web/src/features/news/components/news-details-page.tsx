import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from '@/shared/navigation/router';
import { useTranslation } from 'react-i18next';
import { newsDetailQuery, useReader } from '@/domains/news/news-api';
import { formatDateTime } from '@/shared/format/format';
import { useLocale } from '@/shared/i18n/use-locale';
import { navigateTo } from '@/shared/navigation/nav';
import { stockDetailUrl } from '@/shared/navigation/routes';
import { EmptyState } from '@/shared/ui/empty-state';
import { PageLoading } from '@/shared/ui/page-loading';

/**
 * /subPackages/details/details?id=N: one article in the reader's language (or the fallback, marked), its
 * HTML sanitised by the server (ADR 0029), with its related stocks linking to their pages.
 */
export function NewsDetailsPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const [params] = useSearchParams();
  const id = Number(params.get('id') ?? '0');
  const reader = useReader();
  const { data, isPending, isError } = useQuery(newsDetailQuery(reader, Number.isInteger(id) ? id : 0));
  if (!(id > 0) || isError) return <EmptyState description={t('news.notFound')} />;
  if (isPending) return <PageLoading />;
  return (
    <article className="news-article" data-testid="news-article" lang={data.locale}>
      <h1 className="news-article__title">{data.title}</h1>
      <p className="news-row__meta">
        <span>{data.source ?? t(`news.categories.${data.category}`)}</span>
        <time dateTime={data.published_at}>{formatDateTime(data.published_at, locale)}</time>
      </p>
      {data.fallback && (
        <p className="news-article__fallback" role="note" data-testid="news-fallback">
          {t('news.fallbackLong', { language: t(`news.languages.${data.locale}`) })}
        </p>
      )}
      {/* The server sanitised this HTML (no script, handler, frame or unsafe link: ADR 0029). */}
      <div className="news-article__body" dangerouslySetInnerHTML={{ __html: data.html }} />
      {data.link !== null && (
        <p>
          <a href={data.link} target="_blank" rel="noopener noreferrer">
            {t('news.original')}
          </a>
        </p>
      )}
      {data.codes.length > 0 && (
        <section aria-label={t('news.related')} className="news-article__related">
          <h2 className="section-title">{t('news.related')}</h2>
          <ul className="news-article__codes" data-testid="news-related">
            {data.codes.map((code) => (
              <li key={code}>
                <a
                  href={`#${stockDetailUrl(code)}`}
                  onClick={(event) => {
                    event.preventDefault();
                    navigateTo(stockDetailUrl(code));
                  }}
                >
                  {code}
                </a>
              </li>
            ))}
          </ul>
        </section>
      )}
    </article>
  );
}
