import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { APP_VERSION, ZHealth, ZReady, envelope } from '@kabuto/contract';
import { ok } from '../../plugins/reply.js';

/**
 * GET /api/health is liveness: the process answers, with its realtime figures, and touches nothing else, so
 * it stays fast and a database outage does not get a healthy process restarted. GET /api/ready is readiness:
 * the database is pinged and the pub/sub connection looked at; 503 while the database does not answer, and
 * `degraded` (still 200: the API serves) while the pub/sub is lost and live quotes are stale (ADR 0032).
 */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    { schema: { tags: ['health'], response: { 200: envelope(ZHealth) } } },
    async (request) =>
      ok(request, { status: 'ok' as const, version: APP_VERSION, realtime: app.ctx.realtime.stats() }),
  );

  app.get(
    '/ready',
    { schema: { tags: ['health'], response: { 200: envelope(ZReady), 503: envelope(ZReady) } } },
    async (request, reply) => {
      let latency = -1;
      try {
        latency = await app.ctx.database.ping();
      } catch (error) {
        request.log.error({ err: error }, 'database ping failed');
      }
      const database = latency >= 0;
      const pubsub = app.ctx.pubsub.connected();
      const data = {
        status: !database ? ('unavailable' as const) : pubsub ? ('ok' as const) : ('degraded' as const),
        version: APP_VERSION,
        database: {
          ok: database,
          driver: app.ctx.database.driver,
          latency_ms: database ? Math.round(latency * 100) / 100 : -1,
        },
        pubsub: { ok: pubsub, kind: app.ctx.pubsub.kind },
      };
      if (!database) reply.status(503);
      return ok(request, data);
    },
  );
};
