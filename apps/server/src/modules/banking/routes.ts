import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZBankAccount,
  ZBankAccountCreate,
  ZBankAccountList,
  ZBankAccountLog,
  ZBankCodeParams,
  ZZenginList,
  ZZenginQuery,
  envelope,
} from '@kabuto/contract';
import { eq } from 'drizzle-orm';
import { users } from '../../db/schema.js';
import { requireUser, sessionOf } from '../../plugins/auth.js';
import { checkSecret } from '../auth/secrets.js';
import { requireStepUp } from '../passkeys/passkeys.js';
import { AppError } from '../../lib/app-error.js';
import { ok } from '../../plugins/reply.js';
import { publishOutbox, smsNotice, type EventOutbox } from '../messages/messages.js';
import {
  addBankAccount,
  bankAccountHistory,
  bankAccountLogView,
  bankAccountView,
  listBankAccounts,
  messageParams,
} from './banking.js';
import { searchBanks, searchBranches, type ZenginEntry } from './zengin.js';

const small = (e: ZenginEntry) => ({ code: e.code, name: e.name, kana: e.kana });

/** The user's bank accounts for withdrawals, and the log of every change to them. */
export const bankingRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['bank-accounts'];
  const strict = { rateLimit: { max: app.ctx.config.AUTH_RATE_LIMIT_PER_MINUTE, timeWindow: '1 minute' } };

  // The Zengin bank and branch codes, searched by code, name, kana, hiragana or romaji (ADR 0023).
  app.get(
    '/banks',
    {
      onRequest: requireUser,
      schema: { tags, querystring: ZZenginQuery, response: { 200: envelope(ZZenginList) } },
    },
    async (request) => ok(request, { items: searchBanks(request.query.q).map(small) }),
  );

  app.get(
    '/banks/:code/branches',
    {
      onRequest: requireUser,
      schema: {
        tags,
        params: ZBankCodeParams,
        querystring: ZZenginQuery,
        response: { 200: envelope(ZZenginList) },
      },
    },
    async (request) => {
      const found = searchBranches(request.params.code, request.query.q);
      if (!found) throw new AppError('BANK_CODE_UNKNOWN', { code: request.params.code });
      return ok(request, { items: found.map(small) });
    },
  );

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
      // The login password authorizes the account; checked and counted before the transaction (secrets.ts).
      const [user] = await app.ctx.db
        .select({ id: users.id, phone: users.phone, passwordHash: users.passwordHash })
        .from(users)
        .where(eq(users.id, userId));
      if (!user) throw new AppError('UNAUTHENTICATED');
      await checkSecret(
        app.ctx,
        user,
        'login',
        user.passwordHash,
        request.body.login_password,
        request.locale,
      );
      const outbox: EventOutbox = [];
      const { step_up_token: stepUpToken, ...fields } = request.body;
      const row = await app.ctx.db.transaction(async (tx) => {
        // a passkey holder's fresh assertion naming this account (ADR 0031), spent with the change
        await requireStepUp(
          { db: tx, clock: app.ctx.clock },
          userId,
          {
            action: 'bank_account',
            bank_code: fields.bank_code,
            branch_code: fields.branch_code,
            account_number: fields.account_number,
            yucho: fields.yucho,
            replaces_id: fields.replaces_id,
          },
          stepUpToken,
        );
        return addBankAccount(tx, app.ctx.clock, userId, fields, outbox);
      });
      await publishOutbox(app.ctx.realtime, outbox);
      await smsNotice(app.ctx, userId, 'bank_account.added', messageParams(row), request.locale);
      return ok(request, bankAccountView(row));
    },
  );
};
