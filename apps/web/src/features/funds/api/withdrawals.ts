import { ZWithdrawal, ZWithdrawalPage, ZWithdrawalRules, type TWithdrawalCreate } from '@kabuto/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/shared/api/client';
import { FUNDS_KEY } from '@/shared/messages/messages-api';
import { RECORDS_LIMIT } from './deposits';

export const withdrawalKeys = {
  all: [FUNDS_KEY, 'withdrawals'] as const,
  rules: (userId: number | null) => [...withdrawalKeys.all, 'rules', userId] as const,
  records: (userId: number | null) => [...withdrawalKeys.all, 'records', userId] as const,
};

/**
 * GET /api/index/withdrawal?user_id= (specification §7): minimum, hours, withdrawable amount. A withdrawal
 * never carries a fee, so the rules have no fee field (the page states "no fee" as a published rule).
 */
export function withdrawalRulesQuery(userId: number | null, token: string | null) {
  return queryOptions({
    queryKey: withdrawalKeys.rules(userId),
    queryFn: () =>
      api.request({
        path: '/index/withdrawal',
        query: { user_id: userId ?? undefined },
        schema: ZWithdrawalRules,
      }),
    enabled: token !== null && userId !== null,
    staleTime: 10_000,
  });
}

/** GET /api/withdrawals: the user's withdrawals, newest first. */
export function withdrawalRecordsQuery(userId: number | null, token: string | null) {
  return queryOptions({
    queryKey: withdrawalKeys.records(userId),
    queryFn: () =>
      api.request({ path: '/withdrawals', query: { limit: RECORDS_LIMIT }, schema: ZWithdrawalPage }),
    enabled: token !== null && userId !== null,
  });
}

/** POST /api/withdrawals with the attempt's Idempotency-Key; the answer says when it will be processed. */
export function fileWithdrawal(body: TWithdrawalCreate, idempotencyKey: string) {
  return api.request({
    method: 'POST',
    path: '/withdrawals',
    body,
    headers: { 'Idempotency-Key': idempotencyKey },
    schema: ZWithdrawal,
  });
}
