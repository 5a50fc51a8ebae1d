import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZChangePasswordRequest,
  ZChangePasswordResponse,
  ZChangeTxnPasswordRequest,
  ZEmpty,
  ZLoginRequest,
  ZLoginResponse,
  ZRegisterRequest,
  ZRegisterResponse,
  ZSendSmsCodeRequest,
  ZSendSmsCodeResponse,
  ZSetTxnPasswordRequest,
  envelope,
} from '@kabuto/contract';
import { requireUser, sessionOf } from '../../plugins/auth.js';
import { ok } from '../../plugins/reply.js';
import { loadUserInfo } from '../account/user-info.js';
import { noticeNewDevice } from './new-device.js';
import { revokeSession } from './sessions.js';
import * as auth from './service.js';

/** Sign-up, sign-in and sign-out; rate limited per client address. */
export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const strict = { rateLimit: { max: app.ctx.config.AUTH_RATE_LIMIT_PER_MINUTE, timeWindow: '1 minute' } };

  app.post(
    '/auth/sendSmsCode',
    {
      config: strict,
      schema: {
        tags: ['auth'],
        body: ZSendSmsCodeRequest,
        response: { 200: envelope(ZSendSmsCodeResponse) },
      },
    },
    async (request) =>
      ok(
        request,
        await auth.sendSmsCode(app.ctx, request.body.phone, request.body.purpose, request.ip, (error) => {
          request.log.error({ err: error }, 'the login SMS code could not be sent');
        }),
      ),
  );

  app.post(
    '/auth/register',
    {
      config: strict,
      schema: { tags: ['auth'], body: ZRegisterRequest, response: { 200: envelope(ZRegisterResponse) } },
    },
    async (request) => ok(request, await auth.register(app.ctx, request.body)),
  );

  app.post(
    '/auth/login',
    {
      config: strict,
      schema: { tags: ['auth'], body: ZLoginRequest, response: { 200: envelope(ZLoginResponse) } },
    },
    async (request) => {
      const { account, password, sms_code } = request.body;
      const result = await auth.login(
        {
          ...app.ctx,
          newDevice: (userId, userAgent, ip) =>
            noticeNewDevice(app.ctx, userId, userAgent, ip, request.locale),
        },
        {
          account,
          password,
          smsCode: sms_code,
          client: request.ip,
          userAgent: request.headers['user-agent'],
        },
      );
      return ok(request, {
        token: result.token,
        user_id: result.userId,
        expires_at: result.expiresAt.toISOString(),
        idle_timeout_seconds: Math.floor(app.ctx.sessionPolicy.idleMs / 1000),
        user_info: await loadUserInfo(app.ctx, result.userId),
      });
    },
  );

  app.post(
    '/auth/logout',
    { onRequest: requireUser, schema: { tags: ['auth'], response: { 200: envelope(ZEmpty) } } },
    async (request) => {
      const { sessionId } = sessionOf(request);
      await revokeSession(app.ctx.db, app.ctx.clock, sessionId);
      await app.ctx.revokedSessions({ sessionId });
      return ok(request, {});
    },
  );

  app.post(
    '/user/changePassword',
    {
      // each checks a password: limited per client as sign-in is, besides the per-user counter (secrets.ts)
      config: strict,
      onRequest: requireUser,
      schema: {
        tags: ['user'],
        body: ZChangePasswordRequest,
        response: { 200: envelope(ZChangePasswordResponse) },
      },
    },
    async (request) =>
      ok(
        request,
        await auth.changePassword(
          app.ctx,
          sessionOf(request),
          request.body.old_password,
          request.body.new_password,
          request.locale,
          request.body.step_up_token,
        ),
      ),
  );

  app.post(
    '/user/setTxnPassword',
    {
      // each checks a password: limited per client as sign-in is, besides the per-user counter (secrets.ts)
      config: strict,
      onRequest: requireUser,
      schema: { tags: ['user'], body: ZSetTxnPasswordRequest, response: { 200: envelope(ZEmpty) } },
    },
    async (request) => {
      await auth.setTxnPassword(
        app.ctx,
        sessionOf(request).userId,
        request.body.login_password,
        request.body.new_password,
        request.locale,
      );
      return ok(request, {});
    },
  );

  app.post(
    '/user/changeTxnPassword',
    {
      // each checks a password: limited per client as sign-in is, besides the per-user counter (secrets.ts)
      config: strict,
      onRequest: requireUser,
      schema: { tags: ['user'], body: ZChangeTxnPasswordRequest, response: { 200: envelope(ZEmpty) } },
    },
    async (request) => {
      await auth.changeTxnPassword(
        app.ctx,
        sessionOf(request).userId,
        request.body.old_password,
        request.body.new_password,
        request.locale,
        request.body.step_up_token,
      );
      return ok(request, {});
    },
  );
};
