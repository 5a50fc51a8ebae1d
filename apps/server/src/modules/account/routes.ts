import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { ZDepositUrlResponse, ZUserIdQuery, ZUserInfo, ZWithdrawalRules, envelope } from '@kabuto/contract';
import { AppError } from '../../lib/app-error.js';
import { requireUser, sessionOf } from '../../plugins/auth.js';
import { ok } from '../../plugins/reply.js';
import { loadUserInfo } from './user-info.js';
import { withdrawalRules } from './withdrawal-rules.js';

/** The three calls the specification names, with their exact paths. */
export const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  /** `user_id` is optional; when given it must be the caller's own. */
  const ownUserId = (request: FastifyRequest, asked: number | undefined): number => {
    const { userId } = sessionOf(request);
    if (asked !== undefined && asked !== userId) throw new AppError('USER_ID_MISMATCH');
    return userId;
  };

  app.get(
    '/index/getUserInfo',
    {
      onRequest: requireUser,
      schema: { tags: ['account'], querystring: ZUserIdQuery, response: { 200: envelope(ZUserInfo) } },
    },
    async (request) => ok(request, await loadUserInfo(app.ctx, ownUserId(request, request.query.user_id))),
  );

  app.get(
    '/index/getCzhiurl',
    {
      onRequest: requireUser,
      schema: { tags: ['account'], response: { 200: envelope(ZDepositUrlResponse) } },
    },
    async (request) => ok(request, { url: app.ctx.config.DEPOSIT_URL ?? null }),
  );

  app.get(
    '/index/withdrawal',
    {
      onRequest: requireUser,
      schema: { tags: ['account'], querystring: ZUserIdQuery, response: { 200: envelope(ZWithdrawalRules) } },
    },
    async (request) => {
      ownUserId(request, request.query.user_id);
      return ok(
        request,
        withdrawalRules(app.ctx.withdrawalPolicy, app.ctx.isBusinessDay, app.ctx.clock.now()),
      );
    },
  );
};
