import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZBankAccountReview,
  ZBankAccountReviewPage,
  ZDepositApprove,
  ZDepositReview,
  ZDepositReviewPage,
  ZIdentityReview,
  ZIdentityReviewPage,
  ZQueueQuery,
  ZReject,
  ZReviewOutcome,
  ZWithdrawalReview,
  ZWithdrawalReviewPage,
  envelope,
} from '@kabuto/contract';
import type { Tx } from '../../db/types.js';
import { operatorOf, requireOperator } from '../../plugins/operator-auth.js';
import { ok } from '../../plugins/reply.js';
import { publishOutbox, type EventOutbox } from '../messages/messages.js';
import {
  reviewBy,
  reviewDeposit,
  reviewWithdrawal,
  type Decision,
  type ReviewDeps,
  type ReviewStatus,
} from './review.js';
import {
  bankAccountQueue,
  depositQueue,
  identityQueue,
  only,
  withdrawalQueue,
  type Page,
  type QueueQuery,
} from './views.js';

const ZIdParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const ZApprove = z.object({}).strict();

type Review = (
  tx: Tx,
  deps: ReviewDeps,
  id: number,
  decision: Decision,
  outbox: EventOutbox,
) => Promise<ReviewStatus>;

/** One description per queue: its path, its page and item schemas, how it is read and decided. */
interface Queue<T> {
  path: string;
  page: z.ZodType<{ total: number; items: T[] }>;
  item: z.ZodType<T>;
  list: (q: QueueQuery, id?: number) => Promise<Page<T>>;
  review: Review;
  /** what an approval takes: nothing, or (deposits) an optional reason */
  approve?: z.ZodType<{ reason?: string | undefined } | undefined>;
}

/**
 * The four review queues of the console (identity checks, bank accounts, deposit notices, withdrawals):
 * list with filters, one item, approve, reject with a reason. Any operator may review.
 */
export const reviewRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['console'];
  const user = { onRequest: requireOperator };
  const list = { tags, querystring: ZQueueQuery };
  const one = { tags, params: ZIdParams };
  const first = { limit: 1, offset: 0 };
  const { db, config } = app.ctx;

  /** Approve and reject of one queue; the decision runs in one transaction, its events go out after it. */
  const decide = async (request: FastifyRequest, review: Review, id: number, decision: Decision) => {
    const outbox: EventOutbox = [];
    const deps = { clock: app.ctx.clock, operator: operatorOf(request) };
    const status = await db.transaction((tx) => review(tx, deps, id, decision, outbox));
    await publishOutbox(app.ctx.realtime, outbox);
    return ok(request, { id, status });
  };

  const queue = <T>(q: Queue<T>) => {
    app.get(q.path, { ...user, schema: { ...list, response: { 200: envelope(q.page) } } }, async (r) =>
      ok(r, await q.list(r.query)),
    );
    app.get(
      `${q.path}/:id`,
      { ...user, schema: { ...one, response: { 200: envelope(q.item) } } },
      async (r) => ok(r, only(await q.list(first, r.params.id))),
    );
    app.post(
      `${q.path}/:id/approve`,
      {
        ...user,
        schema: {
          ...one,
          body: (q.approve ?? ZApprove).optional(),
          response: { 200: envelope(ZReviewOutcome) },
        },
      },
      async (request) =>
        decide(request, q.review, request.params.id, { approve: true, reason: request.body?.reason }),
    );
    app.post(
      `${q.path}/:id/reject`,
      { ...user, schema: { ...one, body: ZReject, response: { 200: envelope(ZReviewOutcome) } } },
      async (request) =>
        decide(request, q.review, request.params.id, { approve: false, reason: request.body.reason }),
    );
  };

  queue({
    path: '/identity',
    page: ZIdentityReviewPage,
    item: ZIdentityReview,
    list: (q, id) => identityQueue(db, q, id),
    review: reviewBy('identity'),
  });
  queue({
    path: '/bank-accounts',
    page: ZBankAccountReviewPage,
    item: ZBankAccountReview,
    list: (q, id) => bankAccountQueue(db, q, id),
    review: reviewBy('bank_account'),
  });
  queue({
    path: '/deposits',
    page: ZDepositReviewPage,
    item: ZDepositReview,
    list: (q, id) => depositQueue(db, config, q, id),
    review: reviewDeposit,
    approve: ZDepositApprove,
  });
  queue({
    path: '/withdrawals',
    page: ZWithdrawalReviewPage,
    item: ZWithdrawalReview,
    list: (q, id) => withdrawalQueue(db, q, id),
    review: reviewWithdrawal,
  });
};
