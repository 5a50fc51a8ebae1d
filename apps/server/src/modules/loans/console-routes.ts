import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZLoanApprove,
  ZLoanOutcome,
  ZLoanProduct,
  ZLoanProductCreate,
  ZLoanProductPage,
  ZLoanQueueQuery,
  ZLoanReject,
  ZLoanReview,
  ZLoanReviewPage,
  envelope,
} from '@kabuto/contract';
import { AppError } from '../../lib/app-error.js';
import { operatorOf, requireAdministrator, requireOperator } from '../../plugins/operator-auth.js';
import { ok } from '../../plugins/reply.js';
import { publishOutbox, type EventOutbox } from '../messages/messages.js';
import { approveLoan, createProduct, listProducts, loanQueue, rejectLoan, retireProduct } from './review.js';

const ZIdParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

/**
 * The console's loans (issue 18): the review queue (any operator approves or rejects; four-eyes above the
 * policy's amount) and the products (administrators publish and retire them; the legal caps are the server's).
 */
export const loanConsoleRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['console'];
  const { db } = app.ctx;
  const deps = (request: Parameters<typeof operatorOf>[0]) => ({
    clock: app.ctx.clock,
    operator: operatorOf(request),
    locale: request.locale,
  });

  app.get(
    '/loans/products',
    { onRequest: requireOperator, schema: { tags, response: { 200: envelope(ZLoanProductPage) } } },
    async (request) => ok(request, { items: await listProducts(db) }),
  );
  app.post(
    '/loans/products',
    {
      onRequest: requireAdministrator,
      schema: { tags, body: ZLoanProductCreate, response: { 200: envelope(ZLoanProduct) } },
    },
    async (request) =>
      ok(request, await db.transaction((tx) => createProduct(tx, deps(request), request.body))),
  );
  app.post(
    '/loans/products/:id/retire',
    {
      onRequest: requireAdministrator,
      schema: { tags, params: ZIdParams, response: { 200: envelope(ZLoanProduct) } },
    },
    async (request) =>
      ok(request, await db.transaction((tx) => retireProduct(tx, deps(request), request.params.id))),
  );

  app.get(
    '/loans',
    {
      onRequest: requireOperator,
      schema: { tags, querystring: ZLoanQueueQuery, response: { 200: envelope(ZLoanReviewPage) } },
    },
    async (request) => ok(request, await loanQueue(db, request.query, app.ctx.clock.now())),
  );
  app.get(
    '/loans/:id',
    {
      onRequest: requireOperator,
      schema: { tags, params: ZIdParams, response: { 200: envelope(ZLoanReview) } },
    },
    async (request) => {
      const page = await loanQueue(db, { limit: 1, offset: 0 }, app.ctx.clock.now(), request.params.id);
      const [item] = page.items;
      if (!item) throw new AppError('LOAN_NOT_FOUND');
      return ok(request, item);
    },
  );
  app.post(
    '/loans/:id/approve',
    {
      onRequest: requireOperator,
      schema: { tags, params: ZIdParams, body: ZLoanApprove, response: { 200: envelope(ZLoanOutcome) } },
    },
    async (request) => {
      const outbox: EventOutbox = [];
      const id = request.params.id;
      const status = await db.transaction((tx) => approveLoan(tx, deps(request), id, request.body, outbox));
      await publishOutbox(app.ctx.realtime, outbox);
      return ok(request, { id, status });
    },
  );
  app.post(
    '/loans/:id/reject',
    {
      onRequest: requireOperator,
      schema: { tags, params: ZIdParams, body: ZLoanReject, response: { 200: envelope(ZLoanOutcome) } },
    },
    async (request) => {
      const outbox: EventOutbox = [];
      const id = request.params.id;
      const status = await db.transaction((tx) => rejectLoan(tx, deps(request), id, request.body, outbox));
      await publishOutbox(app.ctx.realtime, outbox);
      return ok(request, { id, status });
    },
  );
};
