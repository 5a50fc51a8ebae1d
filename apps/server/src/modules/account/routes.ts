import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import {
  ZDepositUrlResponse,
  ZUserIdQuery,
  ZUserInfo,
  ZWithdrawalRules,
  envelope,
  sen,
} from '@kabuto/contract';
import { AppError } from '../../lib/app-error.js';
import { requireUser, sessionOf } from '../../plugins/auth.js';
import { ok } from '../../plugins/reply.js';
import { loadUserInfo } from './user-info.js';
import { withdrawalRules } from './withdrawal-rules.js';
import { userBalances } from '../ledger/ledger.js';
import { dividendAdjustmentsHeld } from '../dividends/held.js';
import { loadSettings, withdrawalPolicy } from '../settings/settings.js';

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
    async (request) => ok(request, { url: (await loadSettings(app.ctx.db, app.ctx.config)).deposit.url }),
  );

  app.get(
    '/index/withdrawal',
    {
      onRequest: requireUser,
      schema: { tags: ['account'], querystring: ZUserIdQuery, response: { 200: envelope(ZWithdrawalRules) } },
    },
    async (request) => {
      const userId = ownUserId(request, request.query.user_id);
      const now = app.ctx.clock.now();
      const [policy, balances, held] = await Promise.all([
        withdrawalPolicy(app.ctx.db, app.ctx.config),
        userBalances(app.ctx.db, userId),
        // a short seller's dividend adjustments from the ex date to the payment (ADR 0027)
        dividendAdjustmentsHeld(app.ctx.db, userId, now),
      ]);
      return ok(request, {
        ...withdrawalRules(policy, app.ctx.isBusinessDay, now),
        withdrawable: sen(Math.max(0, balances.cash - held)),
      });
    },
  );
};
