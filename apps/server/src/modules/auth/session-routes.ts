import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZEmpty, ZSessionList, ZSessionParams, envelope } from '@kabuto/contract';
import { AppError } from '../../lib/app-error.js';
import { requireUser, sessionOf } from '../../plugins/auth.js';
import { ok } from '../../plugins/reply.js';
import { deviceOf, listSessions, revokeOwnSession } from './sessions.js';

/** The user's signed-in sessions, each of which the user can end (issue 22, ADR 0031). */
export const sessionRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['sessions'];

  app.get(
    '/sessions',
    { onRequest: requireUser, schema: { tags, response: { 200: envelope(ZSessionList) } } },
    async (request) => {
      const { userId, sessionId } = sessionOf(request);
      const rows = await listSessions(app.ctx.db, app.ctx.clock, app.ctx.sessionPolicy, userId);
      return ok(request, {
        items: rows.map((r) => ({
          id: r.id,
          device: deviceOf(r.userAgent),
          place: r.ipPrefix,
          started_at: r.createdAt.toISOString(),
          last_seen_at: r.lastSeenAt.toISOString(),
          current: r.id === sessionId,
        })),
      });
    },
  );

  app.post(
    '/sessions/:id/revoke',
    {
      onRequest: requireUser,
      schema: { tags, params: ZSessionParams, response: { 200: envelope(ZEmpty) } },
    },
    async (request) => {
      const { userId } = sessionOf(request);
      const sessionId = request.params.id;
      if (!(await revokeOwnSession(app.ctx.db, app.ctx.clock, userId, sessionId))) {
        throw new AppError('SESSION_NOT_FOUND');
      }
      // at once: this process's cache and sockets, and every other process's through pub/sub (ADR 0014)
      await app.ctx.revokedSessions({ sessionId });
      return ok(request, {});
    },
  );
};
