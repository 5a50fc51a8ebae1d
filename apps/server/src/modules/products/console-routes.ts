import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZProductDetail,
  ZProductIdParams,
  ZProductList,
  ZProductVersionBody,
  ZPublishProductBody,
  envelope,
} from '@kabuto/contract';
import { operatorOf, requireAdministrator, requireOperator } from '../../plugins/operator-auth.js';
import { ok } from '../../plugins/reply.js';
import { publishOutbox, type EventOutbox } from '../messages/messages.js';
import { listProducts, newProductVersion, productDetail, publishProduct } from './products.js';

/** The console's follow-up products: list, publish (administrators), new audited versions (administrators). */
export const productConsoleRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/products',
    { onRequest: requireOperator, schema: { tags: ['console'], response: { 200: envelope(ZProductList) } } },
    async (request) => ok(request, await listProducts(app.ctx.db, request.locale, null, app.ctx.clock.now())),
  );

  app.post(
    '/products',
    {
      onRequest: requireAdministrator,
      schema: { tags: ['console'], body: ZPublishProductBody, response: { 200: envelope(ZProductDetail) } },
    },
    async (request) => {
      const now = app.ctx.clock.now();
      const id = await publishProduct(app.ctx.db, app.ctx.market, operatorOf(request).id, request.body, now);
      return ok(request, await productDetail(app.ctx.db, id, request.locale, null, now));
    },
  );

  app.post(
    '/products/:id/versions',
    {
      onRequest: requireAdministrator,
      schema: {
        tags: ['console'],
        params: ZProductIdParams,
        body: ZProductVersionBody,
        response: { 200: envelope(z.object({ version: z.number().int() })) },
      },
    },
    async (request) => {
      const outbox: EventOutbox = [];
      const version = await newProductVersion(
        app.ctx.db,
        operatorOf(request).id,
        request.params.id,
        request.body,
        app.ctx.clock.now(),
        outbox,
      );
      await publishOutbox(app.ctx.realtime, outbox);
      return ok(request, { version });
    },
  );
};
