import {
  ZBars,
  ZIndexQuote,
  ZMarketList,
  ZSearchHistory,
  ZSearchResults,
  ZSectors,
  ZStockDetail,
  ZWatchlist,
  ZWatchResult,
  type LangCode,
  type TBar,
  type TBarPeriod,
} from '@kabuto/contract';
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/shared/api/client';
import { marketStatusKey } from '@/shared/market-clock/market-status';
import { BARS_LIMIT, marketReads, type ListParams } from './market-reads';

/**
 * Market queries shared by the home, market, search and stock-detail features. Keys carry the language
 * (names are localized) and the user (the `watched` flags); the realtime stream patches the cached
 * quotes in place (see shared/realtime/quote-cache.ts).
 */
export type { ListParams, MarketSort } from './market-reads';

type Viewer = { lang: LangCode; userId: number | null };

export const marketKeys = {
  all: ['market'] as const,
  status: marketStatusKey,
  indices: () => ['market', 'indices'] as const,
  lists: () => ['market', 'list'] as const,
  list: (v: Viewer, p: ListParams) =>
    ['market', 'list', v.lang, v.userId, p.sort, p.sector ?? '', p.limit ?? 50] as const,
  sectors: (lang: LangCode) => ['market', 'sectors', lang] as const,
  search: (lang: LangCode, q: string) => ['market', 'search', lang, q] as const,
  stocks: () => ['market', 'stock'] as const,
  stock: (v: Viewer, code: string) => ['market', 'stock', code, v.lang, v.userId] as const,
  bars: (code: string, period: TBarPeriod) => ['market', 'bars', code, period] as const,
  watchlist: (userId: number | null) => ['watchlist', userId] as const,
  watchlists: () => ['watchlist'] as const,
  history: (userId: number | null) => ['searchHistory', userId] as const,
};

export const ZIndexQuotes = z.array(ZIndexQuote);

export function indicesQuery() {
  return queryOptions({
    queryKey: marketKeys.indices(),
    queryFn: () => api.request({ ...marketReads.indices(), schema: ZIndexQuotes }),
    staleTime: 60_000,
  });
}

export function marketListQuery(viewer: Viewer, params: ListParams) {
  return queryOptions({
    queryKey: marketKeys.list(viewer, params),
    queryFn: () => api.request({ ...marketReads.list(params), schema: ZMarketList }),
    staleTime: 30_000,
  });
}

export function sectorsQuery(lang: LangCode) {
  return queryOptions({
    queryKey: marketKeys.sectors(lang),
    queryFn: () => api.request({ path: '/market/sectors', schema: ZSectors }),
    staleTime: 30_000,
  });
}

export function searchQuery(lang: LangCode, q: string) {
  return queryOptions({
    queryKey: marketKeys.search(lang, q),
    queryFn: () => api.request({ path: '/market/search', query: { q, limit: 20 }, schema: ZSearchResults }),
    enabled: q.trim() !== '',
    staleTime: 5 * 60_000,
  });
}

export function stockQuery(viewer: Viewer, code: string) {
  return queryOptions({
    queryKey: marketKeys.stock(viewer, code),
    queryFn: () => api.request({ ...marketReads.stock(code), schema: ZStockDetail }),
    enabled: code !== '',
    staleTime: 30_000,
  });
}

type TBars = z.infer<typeof ZBars>;

export { BARS_LIMIT };
/** A refetch of bars already in the cache asks only for the last few (the forming bar and any new ones). */
export const BARS_TAIL = 20;

/**
 * Puts a fetched tail of bars over the cached bars: keeps the cached bars before the tail's first bar and
 * the last BARS_LIMIT in all. Undefined when the two do not overlap (bars missed in between: fetch all).
 */
export function mergeBarsTail(old: readonly TBar[], tail: readonly TBar[]): TBar[] | undefined {
  const first = tail[0];
  const last = old.at(-1);
  if (first === undefined || last === undefined) return undefined;
  const firstMs = Date.parse(first.time);
  if (!(firstMs <= Date.parse(last.time)) || Date.parse(old[0]?.time ?? '') > firstMs) return undefined;
  let keep = old.length;
  while (keep > 0 && Date.parse(old[keep - 1]?.time ?? '') >= firstMs) keep -= 1;
  const merged = [...old.slice(0, keep), ...tail];
  return merged.length > BARS_LIMIT ? merged.slice(merged.length - BARS_LIMIT) : merged;
}

/**
 * Bars are fetched again on every change of period (staleTime 0): the chart should start fresh. When the
 * cache already holds them (a refetch, or coming back to a period), only the last BARS_TAIL are fetched and
 * merged over the cached ones: parsing and diffing 300 bars every minute made long tasks.
 */
export function barsQuery(code: string, period: TBarPeriod, refetchMs: number | false) {
  const fetchBars = (limit: number) =>
    api.request({ ...marketReads.bars(code, period, limit), schema: ZBars });
  return queryOptions({
    queryKey: marketKeys.bars(code, period),
    queryFn: async ({ client, queryKey }): Promise<TBars> => {
      const cached = client.getQueryData<TBars>(queryKey);
      if (cached !== undefined && cached.bars.length >= BARS_TAIL) {
        const tail = await fetchBars(BARS_TAIL);
        const bars = mergeBarsTail(cached.bars, tail.bars);
        if (bars !== undefined) return { ...tail, bars };
      }
      return fetchBars(BARS_LIMIT);
    },
    enabled: code !== '',
    staleTime: 0,
    refetchInterval: refetchMs,
    refetchOnWindowFocus: false,
  });
}

export function watchlistQuery(userId: number | null, token: string | null) {
  return queryOptions({
    queryKey: marketKeys.watchlist(userId),
    queryFn: () => api.request({ path: '/watchlist/list', schema: ZWatchlist }),
    enabled: token !== null,
    staleTime: 30_000,
  });
}

export function searchHistoryQuery(userId: number | null, token: string | null) {
  return queryOptions({
    queryKey: marketKeys.history(userId),
    queryFn: () => api.request({ path: '/search/history', schema: ZSearchHistory }),
    enabled: token !== null,
    staleTime: 0,
  });
}

export function setWatched(code: string, watched: boolean) {
  return api.request({
    method: 'POST',
    path: watched ? '/watchlist/add' : '/watchlist/remove',
    body: { code },
    schema: ZWatchResult,
  });
}
