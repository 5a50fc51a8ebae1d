import { ZMarketEvents, ZNewsDetail, ZNewsPage, type TNewsCategory } from '@kabuto/contract';
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { api } from '@/shared/api/client';
import { useSession } from '@/shared/session/session';

export const NEWS_PAGE_SIZE = 20;

/** Who reads: the language picks the version, the user the unread marks. */
export function useReader(): { lang: string; userId: number | null } {
  const lang = useSession((s) => s.lang);
  const userId = useSession((s) => (s.token === null ? null : s.userId));
  return { lang, userId };
}

type Reader = ReturnType<typeof useReader>;

export const newsKeys = {
  all: ['news'] as const,
  list: (reader: Reader, category: TNewsCategory | 'all', code: string | null) =>
    ['news', 'list', reader.lang, reader.userId, category, code] as const,
  detail: (reader: Reader, id: number) => ['news', 'detail', reader.lang, reader.userId, id] as const,
  events: (lang: string) => ['news', 'events', lang] as const,
};

/** GET /api/news: pages of articles, newest first, by category or by stock. */
export function newsListQuery(reader: Reader, category: TNewsCategory | 'all', code: string | null = null) {
  return infiniteQueryOptions({
    queryKey: newsKeys.list(reader, category, code),
    queryFn: ({ pageParam }) =>
      api.request({
        path: '/news',
        query: {
          limit: NEWS_PAGE_SIZE,
          ...(category === 'all' ? {} : { category }),
          ...(code === null ? {} : { code }),
          ...(pageParam === null ? {} : { before: pageParam }),
        },
        schema: ZNewsPage,
      }),
    initialPageParam: null as number | null,
    getNextPageParam: (last) => last.next,
    staleTime: 60_000,
  });
}

/** GET /api/news/:id (opening it marks it read). */
export function newsDetailQuery(reader: Reader, id: number) {
  return queryOptions({
    queryKey: newsKeys.detail(reader, id),
    queryFn: () => api.request({ path: `/news/${id}`, schema: ZNewsDetail }),
    enabled: id > 0,
    staleTime: 5 * 60_000,
  });
}

/** GET /api/news/events: market events derived from the data. */
export function marketEventsQuery(lang: string) {
  return queryOptions({
    queryKey: newsKeys.events(lang),
    queryFn: () => api.request({ path: '/news/events', schema: ZMarketEvents }),
    staleTime: 60_000,
  });
}
