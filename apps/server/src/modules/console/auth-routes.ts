import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import {
  ZEmpty,
  ZOperator,
  ZOperatorLogin,
  ZOperatorLoginResponse,
  ZOperatorMe,
  ZOperatorPasswordChange,
  envelope,
} from '@kabuto/contract';
import { operators } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { operatorOf, requireOperatorSession } from '../../plugins/operator-auth.js';
import { ok } from '../../plugins/reply.js';
import {
  changeOperatorPassword,
  operatorHasPasskey,
  operatorLogin,
  operatorLogout,
  operatorView,
} from './operators.js';

/** Operator sign-in, sign-out, who am I, and the password change (also of the one-time password). */
export const consoleAuthRoutes: FastifyPluginAsyncZod = async (app) => {
  const strict = { rateLimit: { max: app.ctx.config.AUTH_RATE_LIMIT_PER_MINUTE, timeWindow: '1 minute' } };
  const tags = ['console'];

  app.post(
    '/login',
    {
      config: strict,
      schema: { tags, body: ZOperatorLogin, response: { 200: envelope(ZOperatorLoginResponse) } },
    },
    async (request) => {
      const { db, clock, consoleSessionPolicy, lockMinutes } = app.ctx;
      // A wrong password is refused only after its transaction commits: the failure count (and the lock
      // it may set) and the audit entry must outlive the refusal.
      const result = await db.transaction(async (tx) => {
        try {
          return await operatorLogin(
            { db: tx, clock, policy: consoleSessionPolicy, lockMinutes },
            request.body.username,
            request.body.password,
            request.locale,
          );
        } catch (error) {
          if (error instanceof AppError && error.errorName === 'OPERATOR_LOGIN_FAILED') return null;
          throw error;
        }
      });
      if (result === null) throw new AppError('OPERATOR_LOGIN_FAILED');
      return ok(request, {
        token: result.token,
        expires_at: result.expiresAt.toISOString(),
        operator: operatorView(result.operator),
        // an administrator who has a passkey was refused above: one signed in here has none
        passkey_required:
          result.operator.role === 'administrator' && app.ctx.config.CONSOLE_ADMIN_PASSKEY === 'required',
      });
    },
  );

  app.post(
    '/logout',
    { onRequest: requireOperatorSession, schema: { tags, response: { 200: envelope(ZEmpty) } } },
    async (request) => {
      await operatorLogout(app.ctx.db, app.ctx.clock, operatorOf(request).sessionId);
      return ok(request, {});
    },
  );

  app.get(
    '/me',
    { onRequest: requireOperatorSession, schema: { tags, response: { 200: envelope(ZOperatorMe) } } },
    async (request) => {
      const [row] = await app.ctx.db
        .select()
        .from(operators)
        .where(eq(operators.id, operatorOf(request).id));
      if (!row) throw new AppError('UNAUTHENTICATED');
      const held =
        row.role === 'administrator' &&
        app.ctx.config.CONSOLE_ADMIN_PASSKEY === 'required' &&
        !(await operatorHasPasskey(app.ctx.db, row.id));
      return ok(request, { ...operatorView(row), passkey_required: held });
    },
  );

  app.post(
    '/password',
    {
      config: strict,
      onRequest: requireOperatorSession,
      schema: { tags, body: ZOperatorPasswordChange, response: { 200: envelope(ZOperator) } },
    },
    async (request) => {
      const row = await app.ctx.db.transaction((tx) =>
        changeOperatorPassword(
          tx,
          app.ctx.clock,
          operatorOf(request),
          request.body.old_password,
          request.body.new_password,
        ),
      );
      return ok(request, operatorView(row));
    },
  );
};
