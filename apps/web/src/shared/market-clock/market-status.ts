import { ZMarketStatus } from '@kabuto/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../api/client';
import { marketStatusRead } from './status-read';

/**
 * The market's clock: whether a session is open, the server's time, how old a quote may be. Shared by the
 * trading and market domains and the pages, so it sits below both (ADR 0019).
 */
export const marketStatusKey = () => ['market', 'status'] as const;

export function marketStatusQuery() {
  return queryOptions({
    queryKey: marketStatusKey(),
    queryFn: () => api.request({ ...marketStatusRead(), schema: ZMarketStatus, notify: false }),
    staleTime: 30_000,
    refetchInterval: 60_000,
  });
}
