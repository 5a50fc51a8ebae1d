import {
  ZDeposit,
  ZDepositAccount,
  ZDepositPage,
  ZDepositUrlResponse,
  type TDepositCreate,
} from '@kabuto/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/shared/api/client';
import { FUNDS_KEY } from '@/shared/messages/messages-api';

export const depositKeys = {
  all: [FUNDS_KEY, 'deposits'] as const,
  account: (userId: number | null) => [...depositKeys.all, 'account', userId] as const,
  url: (userId: number | null) => [...depositKeys.all, 'url', userId] as const,
  records: (userId: number | null) => [...depositKeys.all, 'records', userId] as const,
};

/** GET /api/deposits/account: the user's virtual account for bank transfers, and the deposit URL if any. */
export function depositAccountQuery(userId: number | null, token: string | null) {
  return queryOptions({
    queryKey: depositKeys.account(userId),
    queryFn: () => api.request({ path: '/deposits/account', schema: ZDepositAccount }),
    enabled: token !== null && userId !== null,
    staleTime: 5 * 60_000,
  });
}

/** GET /api/index/getCzhiurl (specification §7): the deposit URL operators configured, or null. */
export function depositUrlQuery(userId: number | null, token: string | null) {
  return queryOptions({
    queryKey: depositKeys.url(userId),
    queryFn: () => api.request({ path: '/index/getCzhiurl', schema: ZDepositUrlResponse, notify: false }),
    enabled: token !== null && userId !== null,
    staleTime: 5 * 60_000,
  });
}

export const RECORDS_LIMIT = 50;

/** GET /api/deposits: the user's deposit notices, newest first. */
export function depositRecordsQuery(userId: number | null, token: string | null) {
  return queryOptions({
    queryKey: depositKeys.records(userId),
    queryFn: () => api.request({ path: '/deposits', query: { limit: RECORDS_LIMIT }, schema: ZDepositPage }),
    enabled: token !== null && userId !== null,
  });
}

/** POST /api/deposits with the attempt's Idempotency-Key (a retry reuses it: one notice, never two). */
export function fileDeposit(body: TDepositCreate, idempotencyKey: string) {
  return api.request({
    method: 'POST',
    path: '/deposits',
    body,
    headers: { 'Idempotency-Key': idempotencyKey },
    schema: ZDeposit,
  });
}
