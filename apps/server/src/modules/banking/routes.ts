import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZBankAccount,
  ZBankAccountCreate,
  ZBankAccountList,
  ZBankAccountLog,
  envelope,
} from '@kabuto/contract';
import { requireUser, sessionOf } from '../../plugins/auth.js';
import { ok } from '../../plugins/reply.js';
import { publishOutbox, type EventOutbox } from '../messages/messages.js';
import {
  addBankAccount,
  bankAccountHistory,
  bankAccountLogView,
  bankAccountView,
  listBankAccounts,
} from './banking.js';

/** The user's bank accounts for withdrawals, and the log of every change to them. */
export const bankingRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['bank-accounts'];
  const strict = { rateLimit: { max: app.ctx.config.AUTH_RATE_LIMIT_PER_MINUTE, timeWindow: '1 minute' } };

  app.get(
    '/bank-accounts',
    { onRequest: requireUser, schema: { tags, response: { 200: envelope(ZBankAccountList) } } },
    async (request) =>
      ok(request, {
        items: (await listBankAccounts(app.ctx.db, sessionOf(request).userId)).map(bankAccountView),
      }),
  );

  app.get(
    '/bank-accounts/log',
    { onRequest: requireUser, schema: { tags, response: { 200: envelope(ZBankAccountLog) } } },
    async (request) =>
      ok(request, {
        items: (await bankAccountHistory(app.ctx.db, sessionOf(request).userId)).map(bankAccountLogView),
      }),
  );

  app.post(
    '/bank-accounts',
    {
      config: strict,
      onRequest: requireUser,
      schema: { tags, body: ZBankAccountCreate, response: { 200: envelope(ZBankAccount) } },
    },
    async (request) => {
      const userId = sessionOf(request).userId;
      const outbox: EventOutbox = [];
      const row = await app.ctx.db.transaction((tx) =>
        addBankAccount(tx, app.ctx.clock, userId, request.body, outbox),
      );
      await publishOutbox(app.ctx.realtime, outbox);
      return ok(request, bankAccountView(row));
    },
  );
};
