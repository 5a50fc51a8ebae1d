import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZBrokerageAccountView, envelope } from '@kabuto/contract';
import { requireUser, sessionOf } from '../../plugins/auth.js';
import { ok } from '../../plugins/reply.js';
import { tokyoParts } from '../../lib/tokyo-time.js';
import { brokerageView } from './brokerage.js';

/** The customer's brokerage account: open or not, its tax accounts, and what suitability offers (ADR 0022). */
export const openingRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/account/brokerage',
    {
      onRequest: requireUser,
      schema: { tags: ['account'], response: { 200: envelope(ZBrokerageAccountView) } },
    },
    async (request) =>
      ok(
        request,
        await brokerageView(app.ctx.db, sessionOf(request).userId, tokyoParts(app.ctx.clock.now()).date),
      ),
  );
};
