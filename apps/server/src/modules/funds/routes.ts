import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import {
  ZDeposit,
  ZDepositAccount,
  ZDepositCreate,
  ZDepositPage,
  ZRecordsQuery,
  ZServiceChannels,
  ZAbout,
  APP_VERSION,
  APP_VERSION_CODE,
  ZWithdrawal,
  ZWithdrawalCreate,
  ZWithdrawalPage,
  envelope,
} from '@kabuto/contract';
import { users } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { checkSecret } from '../auth/secrets.js';
import { requireUser, sessionOf } from '../../plugins/auth.js';
import { idempotent } from '../../plugins/idempotency.js';
import { ledgerClaim } from '../ledger/ledger.js';
import { ok } from '../../plugins/reply.js';
import { publishOutbox, type EventOutbox, smsMoney, smsNotice, smsTime } from '../messages/messages.js';
import { loadSettings } from '../settings/settings.js';
import { depositAccount, depositView, fileDeposit, listDeposits } from './deposits.js';
import { requireStepUp } from '../passkeys/passkeys.js';
import { fileWithdrawal, listWithdrawals, withdrawalView } from './withdrawals.js';

/** Deposits (the user's virtual account, deposit notices) and withdrawals, with their records. */
export const fundsRoutes: FastifyPluginAsyncZod = async (app) => {
  const strict = { rateLimit: { max: app.ctx.config.AUTH_RATE_LIMIT_PER_MINUTE, timeWindow: '1 minute' } };

  app.get(
    '/deposits/account',
    { onRequest: requireUser, schema: { tags: ['deposits'], response: { 200: envelope(ZDepositAccount) } } },
    async (request) =>
      ok(
        request,
        depositAccount(
          await loadSettings(app.ctx.db, app.ctx.config),
          sessionOf(request).userId,
          request.locale,
        ),
      ),
  );

  app.post(
    '/deposits',
    {
      onRequest: requireUser,
      schema: { tags: ['deposits'], body: ZDepositCreate, response: { 200: envelope(ZDeposit) } },
    },
    async (request) => {
      const userId = sessionOf(request).userId;
      const outbox: EventOutbox = [];
      const deposit = await idempotent(app.ctx.db, request, userId, ledgerClaim(), async (tx) =>
        depositView(await fileDeposit(tx, app.ctx.clock, userId, request.body, outbox)),
      );
      await publishOutbox(app.ctx.realtime, outbox);
      return ok(request, deposit);
    },
  );

  app.get(
    '/deposits',
    {
      onRequest: requireUser,
      schema: { tags: ['deposits'], querystring: ZRecordsQuery, response: { 200: envelope(ZDepositPage) } },
    },
    async (request) => {
      const page = await listDeposits(app.ctx.db, sessionOf(request).userId, request.query);
      return ok(request, { total: page.total, items: page.items.map(depositView) });
    },
  );

  app.post(
    '/withdrawals',
    {
      config: strict,
      onRequest: requireUser,
      schema: { tags: ['withdrawals'], body: ZWithdrawalCreate, response: { 200: envelope(ZWithdrawal) } },
    },
    async (request) => {
      const userId = sessionOf(request).userId;
      const { txn_password: txnPassword, step_up_token: stepUpToken, ...input } = request.body;
      // The transaction password is checked before the user's lock is taken (argon2 takes tens of ms).
      const [user] = await app.ctx.db
        .select({ id: users.id, phone: users.phone, hash: users.txnPasswordHash })
        .from(users)
        .where(eq(users.id, userId));
      if (!user?.hash) throw new AppError('TXN_PASSWORD_NOT_SET');
      await checkSecret(app.ctx, user, 'txn', user.hash, txnPassword, request.locale);
      const settings = await loadSettings(app.ctx.db, app.ctx.config);
      const outbox: EventOutbox = [];
      const withdrawal = await idempotent(app.ctx.db, request, userId, ledgerClaim(), async (tx) => {
        // a passkey holder's fresh assertion for this amount to this account (ADR 0031), spent with the filing
        await requireStepUp(
          { db: tx, clock: app.ctx.clock },
          userId,
          { action: 'withdrawal', amount: input.amount, bank_account_id: input.bank_account_id },
          stepUpToken,
        );
        const { row, account } = await fileWithdrawal(
          tx,
          { clock: app.ctx.clock, settings, isBusinessDay: app.ctx.isBusinessDay, locale: request.locale },
          userId,
          input,
          outbox,
        );
        return withdrawalView(row, account);
      });
      await publishOutbox(app.ctx.realtime, outbox);
      // filed by this request (an idempotent replay runs nothing and queues no message): an SMS as well
      if (outbox.length > 0) {
        await smsNotice(
          app.ctx,
          userId,
          'withdrawal.filed',
          {
            amount: smsMoney(withdrawal.amount, request.locale),
            process_after: smsTime(new Date(withdrawal.process_after), request.locale),
          },
          request.locale,
        );
      }
      return ok(request, withdrawal);
    },
  );

  app.get(
    '/withdrawals',
    {
      onRequest: requireUser,
      schema: {
        tags: ['withdrawals'],
        querystring: ZRecordsQuery,
        response: { 200: envelope(ZWithdrawalPage) },
      },
    },
    async (request) => {
      const page = await listWithdrawals(app.ctx.db, sessionOf(request).userId, request.query);
      return ok(request, {
        total: page.total,
        items: page.items.map(({ row, account }) => withdrawalView(row, account)),
      });
    },
  );

  app.get(
    '/customer-service',
    { schema: { tags: ['account'], response: { 200: envelope(ZServiceChannels) } } },
    async (request) =>
      ok(request, { items: (await loadSettings(app.ctx.db, app.ctx.config)).customer_service }),
  );

  app.get('/about', { schema: { tags: ['account'], response: { 200: envelope(ZAbout) } } }, async (request) =>
    ok(request, {
      version: APP_VERSION,
      version_code: APP_VERSION_CODE,
      firm: (await loadSettings(app.ctx.db, app.ctx.config)).firm,
    }),
  );
};
