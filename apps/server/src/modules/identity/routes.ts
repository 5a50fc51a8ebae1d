import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZIdentity, ZIdentitySubmit, envelope } from '@kabuto/contract';
import { requireUser, sessionOf } from '../../plugins/auth.js';
import { ok } from '../../plugins/reply.js';
import { publishOutbox, type EventOutbox } from '../messages/messages.js';
import { identityView, latestIdentity, submitIdentity } from './identity.js';

/** Real-name verification: its state, and filing it (again after a rejection). */
export const identityRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['identity'];
  app.get(
    '/identity',
    { onRequest: requireUser, schema: { tags, response: { 200: envelope(ZIdentity) } } },
    async (request) => ok(request, identityView(await latestIdentity(app.ctx.db, sessionOf(request).userId))),
  );

  app.post(
    '/identity',
    {
      onRequest: requireUser,
      schema: { tags, body: ZIdentitySubmit, response: { 200: envelope(ZIdentity) } },
    },
    async (request) => {
      const userId = sessionOf(request).userId;
      const outbox: EventOutbox = [];
      const row = await app.ctx.db.transaction((tx) =>
        submitIdentity(tx, app.ctx.clock, userId, request.body, outbox),
      );
      await publishOutbox(app.ctx.realtime, outbox);
      return ok(request, identityView(row));
    },
  );
};
