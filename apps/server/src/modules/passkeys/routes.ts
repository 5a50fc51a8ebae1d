import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import {
  ZEmpty,
  ZLoginResponse,
  ZPasskey,
  ZPasskeyCreate,
  ZPasskeyList,
  ZPasskeyLogin,
  ZPasskeyParams,
  ZPasskeyRemove,
  ZPasskeyRename,
  ZStepUpGranted,
  ZStepUpRequest,
  ZStepUpSmsSent,
  ZStepUpVerify,
  ZWebAuthnOptionsResponse,
  envelope,
} from '@kabuto/contract';
import { requireUser, sessionOf } from '../../plugins/auth.js';
import { ok } from '../../plugins/reply.js';
import { loadUserInfo } from '../account/user-info.js';
import { noticeNewDevice } from '../auth/new-device.js';
import { createSession } from '../auth/sessions.js';
import * as passkeys from './passkeys.js';
import { smsStepUp, verifySmsStepUp } from './sms-step-up.js';

/*
 * The browser's JSON is checked for its outer shape by the contract; SimpleWebAuthn checks the rest (and
 * refuses, as PASSKEY_VERIFICATION_FAILED, anything else), so it is handed over as the library's type.
 */
const asRegistration = (credential: unknown) => credential as RegistrationResponseJSON;
const asAssertion = (credential: unknown) => credential as AuthenticationResponseJSON;

/** Passkeys (register, list, rename, remove), passkey sign-in and step-up (ADR 0031). */
export const passkeyRoutes: FastifyPluginAsyncZod = async (app) => {
  const strict = { rateLimit: { max: app.ctx.config.AUTH_RATE_LIMIT_PER_MINUTE, timeWindow: '1 minute' } };
  const tags = ['passkeys'];

  app.get(
    '/passkeys',
    { onRequest: requireUser, schema: { tags, response: { 200: envelope(ZPasskeyList) } } },
    async (request) =>
      ok(request, {
        items: (await passkeys.listPasskeys(app.ctx.db, sessionOf(request).userId)).map(passkeys.passkeyView),
      }),
  );

  app.post(
    '/passkeys/options',
    {
      config: strict,
      onRequest: requireUser,
      schema: { tags, response: { 200: envelope(ZWebAuthnOptionsResponse) } },
    },
    async (request) =>
      ok(request, {
        options: { ...(await passkeys.registrationOptions(app.ctx, sessionOf(request).userId)) },
      }),
  );

  app.post(
    '/passkeys',
    {
      config: strict,
      onRequest: requireUser,
      schema: { tags, body: ZPasskeyCreate, response: { 200: envelope(ZPasskey) } },
    },
    async (request) =>
      ok(
        request,
        await passkeys.registerPasskey(
          app.ctx,
          sessionOf(request).userId,
          asRegistration(request.body.credential),
          request.body.name,
          request.locale,
        ),
      ),
  );

  app.patch(
    '/passkeys/:id',
    {
      onRequest: requireUser,
      schema: { tags, params: ZPasskeyParams, body: ZPasskeyRename, response: { 200: envelope(ZPasskey) } },
    },
    async (request) =>
      ok(
        request,
        await passkeys.renamePasskey(
          app.ctx,
          sessionOf(request).userId,
          request.params.id,
          request.body.name,
        ),
      ),
  );

  app.post(
    '/passkeys/:id/remove',
    {
      config: strict,
      onRequest: requireUser,
      schema: { tags, params: ZPasskeyParams, body: ZPasskeyRemove, response: { 200: envelope(ZEmpty) } },
    },
    async (request) => {
      const userId = sessionOf(request).userId;
      await passkeys.requireStepUp(
        app.ctx,
        userId,
        { action: 'remove_passkey', passkey_id: request.params.id },
        request.body.step_up_token,
      );
      await passkeys.removePasskey(app.ctx, userId, request.params.id, request.locale);
      return ok(request, {});
    },
  );

  app.post(
    '/auth/passkey/options',
    { config: strict, schema: { tags, response: { 200: envelope(ZWebAuthnOptionsResponse) } } },
    async (request) => ok(request, { options: { ...(await passkeys.loginOptions(app.ctx)) } }),
  );

  app.post(
    '/auth/passkey/login',
    { config: strict, schema: { tags, body: ZPasskeyLogin, response: { 200: envelope(ZLoginResponse) } } },
    async (request) => {
      const userId = await passkeys.verifyLogin(app.ctx, asAssertion(request.body.credential));
      await noticeNewDevice(app.ctx, userId, request.headers['user-agent'], request.ip, request.locale);
      const session = await createSession(
        app.ctx.db,
        app.ctx.clock,
        app.ctx.sessionPolicy,
        userId,
        request.headers['user-agent'],
        request.ip,
      );
      return ok(request, {
        token: session.token,
        user_id: userId,
        expires_at: session.expiresAt.toISOString(),
        idle_timeout_seconds: Math.floor(app.ctx.sessionPolicy.idleMs / 1000),
        user_info: await loadUserInfo(app.ctx, userId),
      });
    },
  );

  app.post(
    '/step-up/options',
    {
      config: strict,
      onRequest: requireUser,
      schema: { tags, body: ZStepUpRequest, response: { 200: envelope(ZWebAuthnOptionsResponse) } },
    },
    async (request) =>
      ok(request, {
        options: { ...(await passkeys.stepUpOptions(app.ctx, sessionOf(request).userId, request.body)) },
      }),
  );

  // a user without a passkey: an SMS code naming the action, answered at /step-up/verify with a password
  app.post(
    '/step-up/sms',
    {
      config: strict,
      onRequest: requireUser,
      schema: { tags, body: ZStepUpRequest, response: { 200: envelope(ZStepUpSmsSent) } },
    },
    async (request) =>
      ok(
        request,
        await smsStepUp(app.ctx, sessionOf(request).userId, request.body, request.ip, request.locale),
      ),
  );

  app.post(
    '/step-up/verify',
    {
      config: strict,
      onRequest: requireUser,
      schema: { tags, body: ZStepUpVerify, response: { 200: envelope(ZStepUpGranted) } },
    },
    async (request) => {
      const userId = sessionOf(request).userId;
      const body = request.body;
      return ok(
        request,
        'credential' in body
          ? await passkeys.verifyStepUp(app.ctx, userId, asAssertion(body.credential))
          : await verifySmsStepUp(app.ctx, userId, body, request.locale),
      );
    },
  );
};
