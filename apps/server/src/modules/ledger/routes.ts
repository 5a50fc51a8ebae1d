import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZLedgerMovementPage,
  ZLedgerPage,
  ZLedgerQuery,
  ZMovementQuery,
  ZStatementQuery,
  ZVerifyResult,
  envelope,
} from '@kabuto/contract';
import { AppError } from '../../lib/app-error.js';
import { requireUser, sessionOf } from '../../plugins/auth.js';
import { ok } from '../../plugins/reply.js';
import { chainHashes, ledgerMovements } from './lines.js';
import { ledgerPage, statementFile } from './pages.js';
import { parseStatement, verifyStatement } from './statement.js';

/** The user's ledger: lines with running balances, the statement download and its verification. */
export const ledgerRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['ledger'];
  const user = { onRequest: requireUser };

  app.get(
    '/ledger/entries',
    { ...user, schema: { tags, querystring: ZLedgerQuery, response: { 200: envelope(ZLedgerPage) } } },
    async (request) => ok(request, await ledgerPage(app.ctx.db, sessionOf(request).userId, request.query)),
  );

  app.get(
    '/ledger/movements',
    {
      ...user,
      schema: { tags, querystring: ZMovementQuery, response: { 200: envelope(ZLedgerMovementPage) } },
    },
    async (request) =>
      ok(request, await ledgerMovements(app.ctx.db, sessionOf(request).userId, request.query)),
  );

  app.get(
    '/ledger/statement',
    { ...user, schema: { tags, querystring: ZStatementQuery, produces: ['text/csv'] } },
    async (request, reply) => {
      const file = await statementFile(app.ctx.db, sessionOf(request).userId, request.locale, request.query);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${file.filename}"`)
        .send(file.csv);
    },
  );

  app.post(
    '/ledger/verifyStatement',
    { ...user, bodyLimit: 10 * 1024 * 1024, schema: { tags, response: { 200: envelope(ZVerifyResult) } } },
    async (request) => {
      const text = typeof request.body === 'string' ? request.body : null;
      const lines = text === null ? null : parseStatement(text);
      if (lines === null) throw new AppError('STATEMENT_INVALID');
      const first = lines[0]?.seq ?? 1;
      const last = lines.at(-1)?.seq ?? 0;
      const known = await chainHashes(app.ctx.db, sessionOf(request).userId, Math.max(1, first - 1), last);
      return ok(
        request,
        verifyStatement(lines, (seq) => known.get(seq)),
      );
    },
  );

  // Statements are CSV text; accept them as a plain string body.
  app.addContentTypeParser(['text/csv', 'text/plain'], { parseAs: 'string' }, (_request, body, done) => {
    done(null, body);
  });
};
