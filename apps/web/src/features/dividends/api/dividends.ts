import { ZDividendsView } from '@kabuto/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/shared/api/client';

/** GET /api/dividends: upcoming dividends of the user's holdings and watchlist, and those received. */
export function dividendsQuery(userId: number | null, token: string | null) {
  return queryOptions({
    queryKey: ['dividends', userId] as const,
    queryFn: () => api.request({ path: '/dividends', schema: ZDividendsView }),
    enabled: token !== null,
  });
}
