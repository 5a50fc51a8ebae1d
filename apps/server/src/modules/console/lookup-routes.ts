import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZAuditPage,
  ZAuditQuery,
  ZConsoleUser,
  ZConsoleUserPage,
  ZLedgerPage,
  ZLedgerQuery,
  ZOrder,
  ZOrdersQuery,
  ZPosition,
  ZPositionsQuery,
  ZStatementQuery,
  ZUserSearch,
  envelope,
} from '@kabuto/contract';
import { operatorOf, requireOperator } from '../../plugins/operator-auth.js';
import { ok } from '../../plugins/reply.js';
import { ledgerPage, statementFile } from '../ledger/pages.js';
import { fillsFrom } from '../../market/venues.js';
import { listOrders, listPositions } from '../trading/queries.js';
import { orderView, positionView } from '../trading/views.js';
import { audit } from './audit.js';
import { searchAudit } from './audit-search.js';
import { consoleUser, requireUserRow, searchUsers } from './users.js';

const ZUserParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

/**
 * Read-only lookups for every operator: the audit log, and users (search, profile, ledger, statement,
 * orders, positions). Opening a user's page and downloading a statement are themselves audited.
 */
export const lookupRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['console'];
  const anyOperator = { onRequest: requireOperator };
  const { db, clock, market } = app.ctx;

  app.get(
    '/audit',
    { ...anyOperator, schema: { tags, querystring: ZAuditQuery, response: { 200: envelope(ZAuditPage) } } },
    async (request) => ok(request, await searchAudit(db, request.query)),
  );

  app.get(
    '/users',
    {
      ...anyOperator,
      schema: { tags, querystring: ZUserSearch, response: { 200: envelope(ZConsoleUserPage) } },
    },
    async (request) => ok(request, await searchUsers(db, request.query)),
  );

  app.get(
    '/users/:id',
    { ...anyOperator, schema: { tags, params: ZUserParams, response: { 200: envelope(ZConsoleUser) } } },
    async (request) => {
      const { id } = request.params;
      const user = await consoleUser(db, id);
      await audit(db, {
        operatorId: operatorOf(request).id,
        action: 'user.view',
        targetType: 'user',
        targetId: id,
        userId: id,
        at: clock.now(),
      });
      return ok(request, user);
    },
  );

  app.get(
    '/users/:id/ledger',
    {
      ...anyOperator,
      schema: {
        tags,
        params: ZUserParams,
        querystring: ZLedgerQuery,
        response: { 200: envelope(ZLedgerPage) },
      },
    },
    async (request) => {
      await requireUserRow(db, request.params.id);
      return ok(request, await ledgerPage(db, request.params.id, request.query));
    },
  );

  app.get(
    '/users/:id/statement',
    {
      ...anyOperator,
      schema: { tags, params: ZUserParams, querystring: ZStatementQuery, produces: ['text/csv'] },
    },
    async (request, reply) => {
      const { id } = request.params;
      await requireUserRow(db, id);
      const file = await statementFile(db, id, request.locale, request.query);
      await audit(db, {
        operatorId: operatorOf(request).id,
        action: 'user.statement',
        targetType: 'user',
        targetId: id,
        userId: id,
        after: { from: request.query.from ?? null, to: request.query.to ?? null, lines: file.lines },
        at: clock.now(),
      });
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="${file.filename.replace('kabuto-statement-', `kabuto-statement-${id}-`)}"`,
        )
        .send(file.csv);
    },
  );

  app.get(
    '/users/:id/orders',
    {
      ...anyOperator,
      schema: {
        tags,
        params: ZUserParams,
        querystring: ZOrdersQuery,
        response: { 200: envelope(z.array(ZOrder)) },
      },
    },
    async (request) => {
      const { id } = request.params;
      await requireUserRow(db, id);
      const rows = await listOrders(db, id, request.query.status, request.query.venue);
      const now = clock.now();
      return ok(
        request,
        rows.map((o) => orderView(o, request.locale, fillsFrom(market, now, o.venue))),
      );
    },
  );

  app.get(
    '/users/:id/positions',
    {
      ...anyOperator,
      schema: {
        tags,
        params: ZUserParams,
        querystring: ZPositionsQuery,
        response: { 200: envelope(z.array(ZPosition)) },
      },
    },
    async (request) => {
      const { id } = request.params;
      await requireUserRow(db, id);
      const rows = await listPositions(db, id, request.query.status);
      return ok(
        request,
        rows.map((p) => positionView(p, request.locale, market)),
      );
    },
  );
};
