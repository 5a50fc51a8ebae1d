import { ZBars } from '@kabuto/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/shared/api/client';
import type { DailyClose } from '../signals';

/** The daily bars the signals use: GET /api/market/bars?code=&period=1d&limit=120. */
export const SIGNAL_BAR_LIMIT = 120;

export function dailyBarsQuery(code: string) {
  return queryOptions({
    queryKey: ['aiTrade', 'bars', code, '1d', SIGNAL_BAR_LIMIT] as const,
    queryFn: () =>
      api.request({
        path: '/market/bars',
        query: { code, period: '1d', limit: SIGNAL_BAR_LIMIT },
        schema: ZBars,
        // One row per stock says it when its bars are missing; ten toasts would say nothing more.
        notify: false,
      }),
    select: (data): DailyClose[] => data.bars.map((bar) => ({ date: bar.date, close: bar.close })),
    enabled: code !== '',
    staleTime: 60_000,
    refetchOnWindowFocus: false,
  });
}
