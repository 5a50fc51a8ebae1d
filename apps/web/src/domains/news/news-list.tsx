import type { TNewsItem } from '@kabuto/contract';
import type { MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@/shared/format/format';
import { useLocale } from '@/shared/i18n/use-locale';
import { navigateTo } from '@/shared/navigation/nav';
import { PAGE_PATHS } from '@/shared/navigation/routes';

export const newsDetailsUrl = (id: number) => `${PAGE_PATHS.details}?id=${id}`;

/** A list of articles: title (wrapping, never cut mid-word), source or category, time, unread dot. */
export function NewsList({ items, label }: { items: readonly TNewsItem[]; label: string }) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <ol className="news-list" aria-label={label} data-testid="news-list">
      {items.map((item) => {
        const href = newsDetailsUrl(item.id);
        const open = (event: MouseEvent) => {
          event.preventDefault();
          navigateTo(href);
        };
        return (
          <li
            key={item.id}
            className={`news-row${item.read ? '' : ' news-row--unread'}`}
            data-testid="news-row"
          >
            <a className="news-row__link" href={`#${href}`} onClick={open}>
              <span className="news-row__title">
                {!item.read && (
                  <span
                    className="news-row__dot"
                    role="img"
                    aria-label={t('news.unread')}
                    data-testid="news-unread"
                  />
                )}
                {item.pinned && <span className="news-row__tag">{t('news.pinned')}</span>}
                {item.title}
              </span>
              {item.summary !== '' && <span className="news-row__summary">{item.summary}</span>}
              <span className="news-row__meta">
                <span>{item.source ?? t(`news.categories.${item.category}`)}</span>
                <time dateTime={item.published_at}>{formatDateTime(item.published_at, locale)}</time>
                {item.fallback && (
                  <span className="news-row__fallback" data-testid="news-fallback">
                    {t('news.fallback', { language: t(`news.languages.${item.locale}`) })}
                  </span>
                )}
              </span>
            </a>
          </li>
        );
      })}
    </ol>
  );
}
