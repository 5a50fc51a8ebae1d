import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZLedgerPage,
  ZLedgerQuery,
  ZStatementQuery,
  ZVerifyResult,
  envelope,
  lookup,
  translate,
  type TLedgerLine,
} from '@kabuto/contract';
import { AppError } from '../../lib/app-error.js';
import { requireUser, sessionOf } from '../../plugins/auth.js';
import { ok } from '../../plugins/reply.js';
import { chainHashes, ledgerLines } from './lines.js';
import { parseStatement, statementCsv, verifyStatement } from './statement.js';

const HEADER = [
  'seq',
  'entry',
  'timeUtc',
  'timeTokyo',
  'kind',
  'kindLabel',
  'account',
  'amount',
  'balance',
  'prevHash',
  'hash',
];

/** The user's ledger: lines with running balances, the statement download and its verification. */
export const ledgerRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['ledger'];
  const user = { onRequest: requireUser };

  app.get(
    '/ledger/entries',
    { ...user, schema: { tags, querystring: ZLedgerQuery, response: { 200: envelope(ZLedgerPage) } } },
    async (request) => {
      const { limit, offset, ...filter } = request.query;
      const { total, lines } = await ledgerLines(app.ctx.db, sessionOf(request).userId, filter, {
        limit,
        offset,
        newestFirst: true,
      });
      return ok(request, {
        total,
        items: lines.map((l) => ({
          seq: l.seq,
          at: l.at,
          kind: l.kind,
          account: l.account as TLedgerLine['account'],
          amount: l.amount,
          balance: l.balance,
          memo: l.memo,
          hash: l.hash,
        })),
      });
    },
  );

  app.get(
    '/ledger/statement',
    { ...user, schema: { tags, querystring: ZStatementQuery, produces: ['text/csv'] } },
    async (request, reply) => {
      const locale = request.locale;
      const { lines } = await ledgerLines(app.ctx.db, sessionOf(request).userId, request.query);
      const time = new Intl.DateTimeFormat(locale, {
        timeZone: 'Asia/Tokyo',
        dateStyle: 'short',
        timeStyle: 'medium',
      });
      const csv = statementCsv(
        lines,
        HEADER.map((h) => translate(locale, `statement.${h}`)),
        (kind) => lookup(locale, `ledgerKinds.${kind}`) ?? kind,
        (account) => lookup(locale, `accounts.${account}`) ?? account,
        (iso) => time.format(new Date(iso)),
      );
      const name = `kabuto-statement-${request.query.from ?? 'start'}-${request.query.to ?? 'now'}.csv`;
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}"`)
        .send(csv);
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
