import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZAccountApplication, ZIdentityApplication, envelope } from '@kabuto/contract';
import { requireUser, sessionOf } from '../../plugins/auth.js';
import { ok } from '../../plugins/reply.js';
import { publishOutbox, type EventOutbox } from '../messages/messages.js';
import { openingSettings } from '../settings/settings.js';
import { identityView, latestIdentity, submitIdentity } from './identity.js';

/** Real-name verification with the account application (ADR 0022): its state, and filing it (again after a rejection). */
export const identityRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['identity'];
  app.get(
    '/identity',
    { onRequest: requireUser, schema: { tags, response: { 200: envelope(ZIdentityApplication) } } },
    async (request) => ok(request, identityView(await latestIdentity(app.ctx.db, sessionOf(request).userId))),
  );

  app.post(
    '/identity',
    {
      onRequest: requireUser,
      schema: { tags, body: ZAccountApplication, response: { 200: envelope(ZIdentityApplication) } },
    },
    async (request) => {
      const userId = sessionOf(request).userId;
      const outbox: EventOutbox = [];
      const settings = await openingSettings(app.ctx.db, app.ctx.config);
      const row = await app.ctx.db.transaction((tx) =>
        submitIdentity(tx, app.ctx.clock, userId, request.body, outbox, {
          myNumberKey: app.ctx.myNumberKey,
          settings,
        }),
      );
      await publishOutbox(app.ctx.realtime, outbox);
      return ok(request, identityView(row));
    },
  );
};
