import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZConsoleSupportDetail,
  ZConsoleSupportList,
  ZSupportConversation,
  ZSupportMessage,
  ZSupportMessageInput,
  ZSupportReply,
  ZSupportState,
  ZSupportStateChange,
  envelope,
} from '@kabuto/contract';
import { AppError } from '../../lib/app-error.js';
import { requireUser, sessionOf } from '../../plugins/auth.js';
import { operatorOf, requireOperator } from '../../plugins/operator-auth.js';
import { ok } from '../../plugins/reply.js';
import { audit } from '../console/audit.js';
import { publishOutbox, type EventOutbox } from '../messages/messages.js';
import {
  assignConversation,
  changeState,
  consoleDetail,
  consoleList,
  markUserRead,
  staffReplies,
  userConversation,
  userSends,
} from './support.js';

const ZIdParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const ZNoBody = z.object({}).strict().optional();
const ZOk = z.object({ ok: z.literal(true) });

/** The user's side of the support conversation (ADR 0029). */
export const supportRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['support'];
  const user = { onRequest: requireUser };
  const { db, clock, realtime } = app.ctx;
  app.get(
    '/support',
    { ...user, schema: { tags, response: { 200: envelope(ZSupportConversation) } } },
    async (request) => ok(request, await userConversation(db, sessionOf(request).userId)),
  );
  app.post(
    '/support/read',
    { ...user, schema: { tags, body: ZNoBody, response: { 200: envelope(ZOk) } } },
    async (request) => {
      await markUserRead(db, sessionOf(request).userId);
      return ok(request, { ok: true as const });
    },
  );
  app.post(
    '/support/messages',
    {
      ...user,
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: { tags, body: ZSupportMessageInput, response: { 200: envelope(ZSupportMessage) } },
    },
    async (request) => {
      const outbox: EventOutbox = [];
      const message = await db.transaction((tx) =>
        userSends(tx, outbox, sessionOf(request).userId, request.body, clock.now()),
      );
      await publishOutbox(realtime, outbox);
      return ok(request, message);
    },
  );
};

/** The operators' queue: list, open, answer (checked), assign, change state. */
export const supportConsoleRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['console'];
  const operator = { onRequest: requireOperator };
  const { db, clock, realtime } = app.ctx;
  app.get(
    '/support',
    {
      ...operator,
      schema: {
        tags,
        querystring: z.object({ state: ZSupportState.optional() }),
        response: { 200: envelope(ZConsoleSupportList) },
      },
    },
    async (request) => ok(request, await consoleList(db, request.query)),
  );
  app.get(
    '/support/:id',
    { ...operator, schema: { tags, params: ZIdParams, response: { 200: envelope(ZConsoleSupportDetail) } } },
    async (request) => ok(request, await db.transaction((tx) => consoleDetail(tx, request.params.id))),
  );
  app.post(
    '/support/:id/reply',
    {
      ...operator,
      schema: { tags, params: ZIdParams, body: ZSupportReply, response: { 200: envelope(ZSupportMessage) } },
    },
    async (request) => {
      const outbox: EventOutbox = [];
      const operatorId = operatorOf(request).id;
      try {
        const message = await db.transaction((tx) =>
          staffReplies(tx, outbox, operatorId, request.params.id, request.body, clock.now()),
        );
        await publishOutbox(realtime, outbox);
        return ok(request, message);
      } catch (error) {
        // A blocked answer is refused, and the attempt stays in the audit log (without the text).
        if (error instanceof AppError && error.errorName.startsWith('SUPPORT_BLOCKED_')) {
          await audit(db, {
            operatorId,
            action: 'support.blocked',
            targetType: 'support_conversation',
            targetId: request.params.id,
            reason: error.errorName,
            at: clock.now(),
          });
        }
        throw error;
      }
    },
  );
  app.post(
    '/support/:id/assign',
    {
      ...operator,
      schema: {
        tags,
        params: ZIdParams,
        body: z.object({ assignee_id: z.number().int().positive().nullable() }),
        response: { 200: envelope(ZOk) },
      },
    },
    async (request) => {
      await db.transaction((tx) =>
        assignConversation(
          tx,
          operatorOf(request).id,
          request.params.id,
          request.body.assignee_id,
          clock.now(),
        ),
      );
      return ok(request, { ok: true as const });
    },
  );
  app.post(
    '/support/:id/state',
    {
      ...operator,
      schema: { tags, params: ZIdParams, body: ZSupportStateChange, response: { 200: envelope(ZOk) } },
    },
    async (request) => {
      await db.transaction((tx) =>
        changeState(tx, operatorOf(request).id, request.params.id, request.body.state, clock.now()),
      );
      return ok(request, { ok: true as const });
    },
  );
};
