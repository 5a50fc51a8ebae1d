import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZBannerInput,
  ZBannerList,
  ZBannerRetract,
  ZConsoleBanner,
  ZConsoleBannerList,
  envelope,
} from '@kabuto/contract';
import { AppError } from '../../lib/app-error.js';
import { operatorOf, requireEditor } from '../../plugins/operator-auth.js';
import { ok } from '../../plugins/reply.js';
import {
  BANNER_CACHE_CONTROL,
  createBanner,
  homeBanners,
  listConsoleBanners,
  liveBannerImage,
  publishBanner,
  retractBanner,
  updateBanner,
} from './banners.js';

const ZIdParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const ZPublishQuery = z.object({ publish: z.enum(['true', 'false']).default('false') });
const ZImageQuery = z.object({ r: z.coerce.number().int().min(0).max(2_147_483_647).optional() });

/** The home page's banners: public (logged out too), cached briefly (ADR 0041). */
export const bannerRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['banners'];
  const { db, clock, uploads } = app.ctx;
  app.get(
    '/banners',
    { schema: { tags, response: { 200: envelope(ZBannerList) } } },
    async (request, reply) => {
      // the language is the `lang` query's, so the address is the cache's key
      reply.header('cache-control', BANNER_CACHE_CONTROL);
      return ok(request, { items: await homeBanners(db, request.locale, clock.now()) });
    },
  );
  app.get(
    '/banners/:id/image',
    { schema: { tags, params: ZIdParams, querystring: ZImageQuery } },
    async (request, reply) => {
      const row = await liveBannerImage(db, request.params.id, clock.now());
      const bytes = await uploads.get(row.id);
      if (!bytes) throw new AppError('BANNER_NOT_FOUND');
      return reply
        .header('content-type', row.contentType)
        .header('cache-control', BANNER_CACHE_CONTROL)
        .header('content-disposition', 'inline')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .send(bytes);
    },
  );
};

/** The console's banners (editors and administrators): create, edit, publish, retract; each audited. */
export const bannerConsoleRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['console'];
  const editor = { onRequest: requireEditor };
  const { db, clock } = app.ctx;
  const who = (request: Parameters<typeof operatorOf>[0]) => ({
    operatorId: operatorOf(request).id,
    at: clock.now(),
  });
  app.get(
    '/banners',
    { ...editor, schema: { tags, response: { 200: envelope(ZConsoleBannerList) } } },
    async (request) => ok(request, { items: await listConsoleBanners(db) }),
  );
  app.post(
    '/banners',
    {
      ...editor,
      schema: {
        tags,
        querystring: ZPublishQuery,
        body: ZBannerInput,
        response: { 200: envelope(ZConsoleBanner) },
      },
    },
    async (request) =>
      ok(
        request,
        await db.transaction((tx) =>
          createBanner(tx, who(request), request.body, request.query.publish === 'true'),
        ),
      ),
  );
  app.put(
    '/banners/:id',
    {
      ...editor,
      schema: { tags, params: ZIdParams, body: ZBannerInput, response: { 200: envelope(ZConsoleBanner) } },
    },
    async (request) =>
      ok(
        request,
        await db.transaction((tx) => updateBanner(tx, who(request), request.params.id, request.body)),
      ),
  );
  app.post(
    '/banners/:id/publish',
    { ...editor, schema: { tags, params: ZIdParams, response: { 200: envelope(ZConsoleBanner) } } },
    async (request) =>
      ok(request, await db.transaction((tx) => publishBanner(tx, who(request), request.params.id))),
  );
  app.post(
    '/banners/:id/retract',
    {
      ...editor,
      schema: { tags, params: ZIdParams, body: ZBannerRetract, response: { 200: envelope(ZConsoleBanner) } },
    },
    async (request) =>
      ok(
        request,
        await db.transaction((tx) => retractBanner(tx, who(request), request.params.id, request.body.reason)),
      ),
  );
};
