import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { APP_VERSION, ZHealth, envelope } from '@kabuto/contract';
import { ok } from '../../plugins/reply.js';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    { schema: { tags: ['health'], response: { 200: envelope(ZHealth), 503: envelope(ZHealth) } } },
    async (request, reply) => {
      let latency = -1;
      try {
        latency = await app.ctx.database.ping();
      } catch (error) {
        request.log.error({ err: error }, 'database ping failed');
      }
      const healthy = latency >= 0;
      const data = {
        status: healthy ? ('ok' as const) : ('degraded' as const),
        database: {
          ok: healthy,
          driver: app.ctx.database.driver,
          latency_ms: Math.round(latency * 100) / 100,
        },
        version: APP_VERSION,
        realtime: app.ctx.realtime.stats(),
      };
      if (!healthy) reply.status(503);
      return ok(request, data);
    },
  );
};
