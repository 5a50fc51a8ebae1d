import {
  ZBankAccountReview,
  ZBankAccountReviewPage,
  ZDepositReview,
  ZDepositReviewPage,
  ZIdentityReview,
  ZIdentityReviewPage,
  ZReviewOutcome,
  ZWithdrawalReview,
  ZWithdrawalReviewPage,
  type TBankAccountReview,
  type TDepositReview,
  type TIdentityReview,
  type TReviewStatus,
  type TWithdrawalReview,
} from '@kabuto/contract';
import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '@/shared/client';

export const QUEUE_KINDS = ['identity', 'bank-accounts', 'deposits', 'withdrawals'] as const;
export type QueueKind = (typeof QUEUE_KINDS)[number];

interface Items {
  identity: TIdentityReview;
  'bank-accounts': TBankAccountReview;
  deposits: TDepositReview;
  withdrawals: TWithdrawalReview;
}
export type QueueItem<K extends QueueKind> = Items[K];
export interface QueuePageData<K extends QueueKind> {
  total: number;
  items: Items[K][];
}

const schemas: { [K in QueueKind]: { page: z.ZodType<QueuePageData<K>>; item: z.ZodType<Items[K]> } } = {
  identity: { page: ZIdentityReviewPage, item: ZIdentityReview },
  'bank-accounts': { page: ZBankAccountReviewPage, item: ZBankAccountReview },
  deposits: { page: ZDepositReviewPage, item: ZDepositReview },
  withdrawals: { page: ZWithdrawalReviewPage, item: ZWithdrawalReview },
};

export interface QueueFilter {
  status?: TReviewStatus;
  user_id?: number;
  limit: number;
  offset: number;
}

/**
 * GET /api/console/<queue>: one page of a review queue, newest first. A work queue is read fresh whenever
 * it is opened and every 15 s while it is shown, so that an item filed a moment ago is there.
 */
export const queueQuery = <K extends QueueKind>(kind: K, filter: QueueFilter) =>
  queryOptions({
    queryKey: ['queue', kind, 'list', filter],
    staleTime: 0,
    refetchInterval: 15_000,
    queryFn: () =>
      api.request({
        path: `/${kind}`,
        query: { ...filter },
        schema: schemas[kind].page,
      }),
  });

/** GET /api/console/<queue>/:id */
export const queueItemQuery = <K extends QueueKind>(kind: K, id: number) =>
  queryOptions({
    queryKey: ['queue', kind, 'item', id],
    queryFn: () => api.request({ path: `/${kind}/${id}`, schema: schemas[kind].item }),
  });

/**
 * POST /api/console/<queue>/:id/approve or /reject (with the reason the user will read). A refusal is shown
 * in the decision's own dialog (ReviewActions), not as a toast.
 */
export function decide(
  kind: QueueKind,
  id: number,
  decision: { approve: true; reason?: string } | { approve: false; reason: string },
) {
  return api.request({
    path: `/${kind}/${id}/${decision.approve ? 'approve' : 'reject'}`,
    body: decision.reason === undefined ? {} : { reason: decision.reason },
    schema: ZReviewOutcome,
    notify: false,
  });
}
