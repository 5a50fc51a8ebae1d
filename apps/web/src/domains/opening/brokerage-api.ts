import { ZBrokerageAccountView } from '@kabuto/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/shared/api/client';

export const brokerageKeys = {
  all: ['brokerage'] as const,
  detail: (userId: number | null) => ['brokerage', userId] as const,
};

/** GET /api/account/brokerage: whether the securities account is open, its tax accounts, its suitability. */
export function brokerageQuery(userId: number | null, token: string | null) {
  return queryOptions({
    queryKey: brokerageKeys.detail(userId),
    queryFn: () => api.request({ path: '/account/brokerage', schema: ZBrokerageAccountView }),
    enabled: token !== null && userId !== null,
    staleTime: 30_000,
  });
}
