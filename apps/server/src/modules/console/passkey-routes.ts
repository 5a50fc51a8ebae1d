import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import {
  ZConsolePasskeyCreate,
  ZConsoleStepUpGranted,
  ZConsoleStepUpPassword,
  ZConsoleStepUpRequest,
  ZConsoleStepUpVerify,
  ZEmpty,
  ZOperatorLoginResponse,
  ZPasskey,
  ZPasskeyList,
  ZPasskeyLogin,
  ZPasskeyParams,
  ZPasskeyRemove,
  ZPasskeyRename,
  ZWebAuthnOptionsResponse,
  envelope,
} from '@kabuto/contract';
import { operatorOf, requireOperatorOwnPasskeys } from '../../plugins/operator-auth.js';
import { ok } from '../../plugins/reply.js';
import * as keys from './operator-passkeys.js';
import * as stepUp from './operator-step-up.js';
import { operatorView } from './operators.js';

// the contract checks the browser's JSON for its outer shape; SimpleWebAuthn checks the rest (ADR 0031)
const asRegistration = (credential: unknown) => credential as RegistrationResponseJSON;
const asAssertion = (credential: unknown) => credential as AuthenticationResponseJSON;

/**
 * The operator's own passkeys and the console's passkey sign-in (ADR 0033), under /api/console. The own
 * passkey routes stay open to an administrator held until a passkey is registered.
 */
export const consolePasskeyRoutes: FastifyPluginAsyncZod = async (app) => {
  const strict = { rateLimit: { max: app.ctx.config.AUTH_RATE_LIMIT_PER_MINUTE, timeWindow: '1 minute' } };
  const tags = ['console'];
  const own = requireOperatorOwnPasskeys;

  app.get(
    '/passkeys',
    { onRequest: own, schema: { tags, response: { 200: envelope(ZPasskeyList) } } },
    async (request) => ok(request, { items: await keys.listOperatorPasskeys(app.ctx, operatorOf(request)) }),
  );

  app.post(
    '/passkeys/options',
    {
      config: strict,
      onRequest: own,
      schema: { tags, response: { 200: envelope(ZWebAuthnOptionsResponse) } },
    },
    async (request) =>
      ok(request, { options: { ...(await keys.operatorRegistrationOptions(app.ctx, operatorOf(request))) } }),
  );

  app.post(
    '/passkeys',
    {
      config: strict,
      onRequest: own,
      schema: { tags, body: ZConsolePasskeyCreate, response: { 200: envelope(ZPasskey) } },
    },
    async (request) =>
      ok(
        request,
        await keys.registerOperatorPasskey(
          app.ctx,
          operatorOf(request),
          asRegistration(request.body.credential),
          request.body.name,
          request.locale,
          request.body.step_up_token,
        ),
      ),
  );

  app.patch(
    '/passkeys/:id',
    {
      onRequest: own,
      schema: { tags, params: ZPasskeyParams, body: ZPasskeyRename, response: { 200: envelope(ZPasskey) } },
    },
    async (request) =>
      ok(
        request,
        await keys.renameOperatorPasskey(app.ctx, operatorOf(request), request.params.id, request.body.name),
      ),
  );

  app.post(
    '/passkeys/:id/remove',
    {
      config: strict,
      onRequest: own,
      schema: { tags, params: ZPasskeyParams, body: ZPasskeyRemove, response: { 200: envelope(ZEmpty) } },
    },
    async (request) => {
      await keys.removeOperatorPasskey(
        app.ctx,
        operatorOf(request),
        request.params.id,
        request.body.step_up_token,
      );
      return ok(request, {});
    },
  );

  // the fresh proof of presence that adding or removing a passkey needs (ADR 0049)
  app.post(
    '/step-up/options',
    {
      config: strict,
      onRequest: own,
      schema: { tags, body: ZConsoleStepUpRequest, response: { 200: envelope(ZWebAuthnOptionsResponse) } },
    },
    async (request) =>
      ok(request, {
        options: { ...(await stepUp.operatorStepUpOptions(app.ctx, operatorOf(request), request.body)) },
      }),
  );

  app.post(
    '/step-up/verify',
    {
      config: strict,
      onRequest: own,
      schema: { tags, body: ZConsoleStepUpVerify, response: { 200: envelope(ZConsoleStepUpGranted) } },
    },
    async (request) =>
      ok(
        request,
        await stepUp.verifyOperatorStepUp(app.ctx, operatorOf(request), asAssertion(request.body.credential)),
      ),
  );

  app.post(
    '/step-up/password',
    {
      config: strict,
      onRequest: own,
      schema: { tags, body: ZConsoleStepUpPassword, response: { 200: envelope(ZConsoleStepUpGranted) } },
    },
    async (request) =>
      ok(
        request,
        await stepUp.operatorPasswordStepUp(
          app.ctx,
          operatorOf(request),
          request.body.request,
          request.body.password,
          request.locale,
        ),
      ),
  );

  app.post(
    '/passkey/options',
    { config: strict, schema: { tags, response: { 200: envelope(ZWebAuthnOptionsResponse) } } },
    async (request) => ok(request, { options: { ...(await keys.operatorLoginOptions(app.ctx)) } }),
  );

  app.post(
    '/passkey/login',
    {
      config: strict,
      schema: { tags, body: ZPasskeyLogin, response: { 200: envelope(ZOperatorLoginResponse) } },
    },
    async (request) => {
      const result = await keys.operatorPasskeyLogin(app.ctx, asAssertion(request.body.credential));
      return ok(request, {
        token: result.token,
        expires_at: result.expiresAt.toISOString(),
        operator: operatorView(result.operator),
        passkey_required: false,
      });
    },
  );
};
