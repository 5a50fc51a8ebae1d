import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  SETTING_KEYS,
  ZInvitationCode,
  ZInvitationCodeCreate,
  ZInvitationCodePage,
  ZInvitationCodeQuery,
  ZOperator,
  ZOperatorCreate,
  ZOperatorCreated,
  ZOperatorList,
  ZSettingProposalList,
  ZSettings,
  envelope,
  type SettingKey,
} from '@kabuto/contract';
import { operatorOf, requireAdministrator, requireOperator } from '../../plugins/operator-auth.js';
import { ok } from '../../plugins/reply.js';
import { loadSettings } from '../settings/settings.js';
import {
  createInvitationCode,
  createOperator,
  deactivateInvitationCode,
  deactivateOperator,
  listInvitationCodes,
  listOperators,
  confirmSetting,
  unlockOperator,
  updateSetting,
} from './admin.js';
import { cancelProposal, listProposals } from './four-eyes.js';
import { operatorView } from './operators.js';

const ZIdParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const ZCodeParams = z.object({
  code: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9]{1,32}$/, { error: 'validation.inviteFormat' })
    .transform((s) => s.toUpperCase()),
});
const ZNoBody = z.object({}).strict().optional();

/**
 * The console's administration: settings, invitation codes and operator accounts. Reading the settings
 * and the invitation codes is open to every operator (the console shows them read-only to reviewers);
 * every change, and the operator accounts, are for administrators. Every change is audited.
 */
export const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['console'];
  const anyOperator = { onRequest: requireOperator };
  const admin = { onRequest: requireAdministrator };
  const { db, config, clock } = app.ctx;
  const deps = (request: Parameters<typeof operatorOf>[0]) => ({ clock, operator: operatorOf(request) });

  // -------------------------------------------------------------- settings

  app.get(
    '/settings',
    { ...anyOperator, schema: { tags, response: { 200: envelope(ZSettings) } } },
    async (request) => ok(request, await loadSettings(db, config)),
  );

  /** PUT /settings/<key>: one route per part, each with that part's schema as its body. */
  const putSetting = (key: SettingKey) => {
    app.put(
      `/settings/${key}`,
      { ...admin, schema: { tags, body: ZSettings.shape[key], response: { 200: envelope(ZSettings) } } },
      async (request) =>
        ok(
          request,
          await db.transaction((tx) => updateSetting(tx, config, deps(request), key, request.body)),
        ),
    );
  };
  for (const key of SETTING_KEYS) putSetting(key);

  /** Four-eyes proposals (ADR 0034): every operator sees them; a different administrator confirms. */
  app.get(
    '/settings/proposals',
    { ...anyOperator, schema: { tags, response: { 200: envelope(ZSettingProposalList) } } },
    async (request) => ok(request, { items: await listProposals(db, clock.now()) }),
  );
  app.post(
    '/settings/proposals/:id/confirm',
    { ...admin, schema: { tags, params: ZIdParams, body: ZNoBody, response: { 200: envelope(ZSettings) } } },
    async (request) =>
      ok(request, await db.transaction((tx) => confirmSetting(tx, config, deps(request), request.params.id))),
  );
  app.post(
    '/settings/proposals/:id/cancel',
    {
      ...admin,
      schema: { tags, params: ZIdParams, body: ZNoBody, response: { 200: envelope(ZSettingProposalList) } },
    },
    async (request) => {
      await db.transaction((tx) => cancelProposal(tx, deps(request), request.params.id));
      return ok(request, { items: await listProposals(db, clock.now()) });
    },
  );

  // -------------------------------------------------------------- invitation codes

  app.get(
    '/invitation-codes',
    {
      ...anyOperator,
      schema: { tags, querystring: ZInvitationCodeQuery, response: { 200: envelope(ZInvitationCodePage) } },
    },
    async (request) => ok(request, await listInvitationCodes(db, request.query)),
  );
  app.post(
    '/invitation-codes',
    { ...admin, schema: { tags, body: ZInvitationCodeCreate, response: { 200: envelope(ZInvitationCode) } } },
    async (request) =>
      ok(request, await db.transaction((tx) => createInvitationCode(tx, deps(request), request.body))),
  );
  app.post(
    '/invitation-codes/:code/deactivate',
    {
      ...admin,
      schema: { tags, params: ZCodeParams, body: ZNoBody, response: { 200: envelope(ZInvitationCode) } },
    },
    async (request) =>
      ok(
        request,
        await db.transaction((tx) => deactivateInvitationCode(tx, deps(request), request.params.code)),
      ),
  );

  // -------------------------------------------------------------- operators

  app.get(
    '/operators',
    { ...admin, schema: { tags, response: { 200: envelope(ZOperatorList) } } },
    async (request) => ok(request, { items: (await listOperators(db)).map(operatorView) }),
  );
  app.post(
    '/operators',
    { ...admin, schema: { tags, body: ZOperatorCreate, response: { 200: envelope(ZOperatorCreated) } } },
    async (request) => {
      const created = await db.transaction((tx) => createOperator(tx, deps(request), request.body));
      return ok(request, {
        operator: operatorView(created.operator),
        one_time_password: created.oneTimePassword,
      });
    },
  );
  app.post(
    '/operators/:id/deactivate',
    { ...admin, schema: { tags, params: ZIdParams, body: ZNoBody, response: { 200: envelope(ZOperator) } } },
    async (request) =>
      ok(
        request,
        operatorView(await db.transaction((tx) => deactivateOperator(tx, deps(request), request.params.id))),
      ),
  );
  app.post(
    '/operators/:id/unlock',
    { ...admin, schema: { tags, params: ZIdParams, body: ZNoBody, response: { 200: envelope(ZOperator) } } },
    async (request) =>
      ok(
        request,
        operatorView(await db.transaction((tx) => unlockOperator(tx, deps(request), request.params.id))),
      ),
  );
};
