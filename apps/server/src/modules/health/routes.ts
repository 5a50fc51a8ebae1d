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
  // Both answers are a few hundred bytes, under the compression threshold: the route leaves out the
  // compression plugin's per-request hooks (issue 21's framework overhead, ADR 0047). Liveness answers at
  // once, not through a promise.
  app.get(
    '/health',
    { schema: { tags: ['health'], response: { 200: envelope(ZHealth) } }, compress: false },
    (request) =>
      ok(request, { status: 'ok' as const, version: APP_VERSION, realtime: app.ctx.realtime.stats() }),
  );

  app.get(
    '/ready',
    {
      schema: { tags: ['health'], response: { 200: envelope(ZReady), 503: envelope(ZReady) } },
      compress: false,
    },
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
