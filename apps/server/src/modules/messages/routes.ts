import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZMarkRead, ZMessagePage, ZMessagesQuery, ZUnreadCount, envelope } from '@kabuto/contract';
import { requireUser, sessionOf } from '../../plugins/auth.js';
import { ok } from '../../plugins/reply.js';
import { listMessages, markRead, unreadCount } from './messages.js';

/** The user's messages: list, unread count, mark read. New ones also arrive live on the user channel. */
export const messageRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['messages'];
  app.get(
    '/messages',
    {
      onRequest: requireUser,
      schema: { tags, querystring: ZMessagesQuery, response: { 200: envelope(ZMessagePage) } },
    },
    async (request) => {
      const { unread, limit, offset } = request.query;
      return ok(
        request,
        await listMessages(app.ctx.db, sessionOf(request).userId, {
          unread: unread === 'true',
          limit,
          offset,
        }),
      );
    },
  );

  app.get(
    '/messages/unread-count',
    { onRequest: requireUser, schema: { tags, response: { 200: envelope(ZUnreadCount) } } },
    async (request) => ok(request, { unread: await unreadCount(app.ctx.db, sessionOf(request).userId) }),
  );

  app.post(
    '/messages/read',
    { onRequest: requireUser, schema: { tags, body: ZMarkRead, response: { 200: envelope(ZUnreadCount) } } },
    async (request) => {
      const userId = sessionOf(request).userId;
      await markRead(
        app.ctx.db,
        userId,
        'ids' in request.body ? request.body.ids : 'all',
        app.ctx.clock.now(),
      );
      return ok(request, { unread: await unreadCount(app.ctx.db, userId) });
    },
  );
};
