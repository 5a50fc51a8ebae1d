import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZBankAccountReview,
  ZBankAccountReviewPage,
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
  reviewBankAccount,
  reviewDeposit,
  reviewIdentity,
  reviewWithdrawal,
  type Decision,
  type ReviewDeps,
  type ReviewStatus,
} from './review.js';
import { bankAccountQueue, depositQueue, identityQueue, only, withdrawalQueue } from './views.js';

const ZIdParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const ZApprove = z.object({}).strict();

type Review = (
  tx: Tx,
  deps: ReviewDeps,
  id: number,
  decision: Decision,
  outbox: EventOutbox,
) => Promise<ReviewStatus>;

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

  app.get(
    '/identity',
    { ...user, schema: { ...list, response: { 200: envelope(ZIdentityReviewPage) } } },
    async (r) => ok(r, await identityQueue(db, r.query)),
  );
  app.get(
    '/identity/:id',
    { ...user, schema: { ...one, response: { 200: envelope(ZIdentityReview) } } },
    async (r) => ok(r, only(await identityQueue(db, first, r.params.id))),
  );
  app.get(
    '/bank-accounts',
    { ...user, schema: { ...list, response: { 200: envelope(ZBankAccountReviewPage) } } },
    async (r) => ok(r, await bankAccountQueue(db, r.query)),
  );
  app.get(
    '/bank-accounts/:id',
    { ...user, schema: { ...one, response: { 200: envelope(ZBankAccountReview) } } },
    async (r) => ok(r, only(await bankAccountQueue(db, first, r.params.id))),
  );
  app.get(
    '/deposits',
    { ...user, schema: { ...list, response: { 200: envelope(ZDepositReviewPage) } } },
    async (r) => ok(r, await depositQueue(db, config, r.query)),
  );
  app.get(
    '/deposits/:id',
    { ...user, schema: { ...one, response: { 200: envelope(ZDepositReview) } } },
    async (r) => ok(r, only(await depositQueue(db, config, first, r.params.id))),
  );
  app.get(
    '/withdrawals',
    { ...user, schema: { ...list, response: { 200: envelope(ZWithdrawalReviewPage) } } },
    async (r) => ok(r, await withdrawalQueue(db, r.query)),
  );
  app.get(
    '/withdrawals/:id',
    { ...user, schema: { ...one, response: { 200: envelope(ZWithdrawalReview) } } },
    async (r) => ok(r, only(await withdrawalQueue(db, first, r.params.id))),
  );

  /** Approve and reject of one queue; the decision runs in one transaction, its events go out after it. */
  const decisions = (path: string, review: Review) => {
    const decide = async (request: FastifyRequest, id: number, decision: Decision) => {
      const outbox: EventOutbox = [];
      const deps = { clock: app.ctx.clock, operator: operatorOf(request) };
      const status = await db.transaction((tx) => review(tx, deps, id, decision, outbox));
      await publishOutbox(app.ctx.realtime, outbox);
      return ok(request, { id, status });
    };
    app.post(
      `${path}/:id/approve`,
      { ...user, schema: { ...one, body: ZApprove.optional(), response: { 200: envelope(ZReviewOutcome) } } },
      async (request) => decide(request, request.params.id, { approve: true }),
    );
    app.post(
      `${path}/:id/reject`,
      { ...user, schema: { ...one, body: ZReject, response: { 200: envelope(ZReviewOutcome) } } },
      async (request) => decide(request, request.params.id, { approve: false, reason: request.body.reason }),
    );
  };
  decisions('/identity', reviewIdentity);
  decisions('/bank-accounts', reviewBankAccount);
  decisions('/deposits', reviewDeposit);
  decisions('/withdrawals', reviewWithdrawal);
};
