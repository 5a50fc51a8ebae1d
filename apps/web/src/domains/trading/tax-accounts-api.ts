import { ZBrokerageAccount, ZNisaQuota } from '@kabuto/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/shared/api/client';

/**
 * What the order ticket needs to offer accounts (issue 23): the brokerage account (the 特定口座 / 一般口座 /
 * NISA held and the default) and NISA's growth quota left. Either may fail (an older server, no account yet):
 * the ticket then offers no account and leaves the choice to the server.
 */
export const taxAccountKeys = {
  brokerage: (userId: number | null) => ['account', 'brokerage', userId] as const,
  nisa: (userId: number | null) => ['tax', 'nisa', userId] as const,
};

export function brokerageAccountQuery(userId: number | null, token: string | null) {
  return queryOptions({
    queryKey: taxAccountKeys.brokerage(userId),
    queryFn: () => api.request({ path: '/account/brokerage', schema: ZBrokerageAccount, notify: false }),
    enabled: token !== null,
    staleTime: 60_000,
    retry: false,
  });
}

export function nisaQuotaQuery(userId: number | null, token: string | null, enabled: boolean) {
  return queryOptions({
    queryKey: taxAccountKeys.nisa(userId),
    queryFn: () => api.request({ path: '/tax/nisa', schema: ZNisaQuota, notify: false }),
    enabled: token !== null && enabled,
    staleTime: 10_000,
    retry: false,
  });
}
