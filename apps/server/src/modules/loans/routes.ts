import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZLoan,
  ZLoanApply,
  ZLoanOverview,
  ZLoanPage,
  ZLoanQuote,
  ZLoanQuoteQuery,
  ZLoanRepay,
  envelope,
  sen,
} from '@kabuto/contract';
import { requireUser, sessionOf } from '../../plugins/auth.js';
import { idempotent } from '../../plugins/idempotency.js';
import { ok } from '../../plugins/reply.js';
import { ledgerClaim } from '../ledger/ledger.js';
import { publishOutbox, type EventOutbox } from '../messages/messages.js';
import { applyForLoan, listLoans, loanOverview, loanQuote, oneLoan, repayLoan, todayOf } from './loans.js';

const ZIdParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

/** The user's loans (issue 18): overview and limits, the calculator, applying, records, repayment. */
export const loanRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['loans'];
  const user = { onRequest: requireUser };

  app.get(
    '/loans/overview',
    { ...user, schema: { tags, response: { 200: envelope(ZLoanOverview) } } },
    async (request) =>
      ok(request, await loanOverview(app.ctx.db, sessionOf(request).userId, app.ctx.clock.now())),
  );

  app.get(
    '/loans/quote',
    { ...user, schema: { tags, querystring: ZLoanQuoteQuery, response: { 200: envelope(ZLoanQuote) } } },
    async (request) =>
      ok(
        request,
        await loanQuote(
          app.ctx.db,
          sessionOf(request).userId,
          sen(request.query.amount),
          app.ctx.clock.now(),
        ),
      ),
  );

  app.post(
    '/loans',
    { ...user, schema: { tags, body: ZLoanApply, response: { 200: envelope(ZLoan) } } },
    async (request) => {
      const userId = sessionOf(request).userId;
      const outbox: EventOutbox = [];
      const deps = { clock: app.ctx.clock, locale: request.locale };
      const loan = await idempotent(app.ctx.db, request, userId, ledgerClaim(), (tx) =>
        applyForLoan(tx, deps, userId, request.body, outbox),
      );
      await publishOutbox(app.ctx.realtime, outbox);
      return ok(request, loan);
    },
  );

  app.get('/loans', { ...user, schema: { tags, response: { 200: envelope(ZLoanPage) } } }, async (request) =>
    ok(request, await listLoans(app.ctx.db, sessionOf(request).userId, todayOf(app.ctx.clock))),
  );

  app.get(
    '/loans/:id',
    { ...user, schema: { tags, params: ZIdParams, response: { 200: envelope(ZLoan) } } },
    async (request) =>
      ok(
        request,
        await oneLoan(app.ctx.db, sessionOf(request).userId, request.params.id, todayOf(app.ctx.clock)),
      ),
  );

  app.post(
    '/loans/:id/repay',
    { ...user, schema: { tags, params: ZIdParams, body: ZLoanRepay, response: { 200: envelope(ZLoan) } } },
    async (request) => {
      const userId = sessionOf(request).userId;
      const outbox: EventOutbox = [];
      const deps = { clock: app.ctx.clock, locale: request.locale };
      const loan = await idempotent(app.ctx.db, request, userId, ledgerClaim(), (tx) =>
        repayLoan(tx, deps, userId, request.params.id, sen(request.body.amount), outbox),
      );
      await publishOutbox(app.ctx.realtime, outbox);
      return ok(request, loan);
    },
  );
};
