import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZProductBuyBody,
  ZProductDetail,
  ZProductIdParams,
  ZProductList,
  ZProductRecord,
  ZProductRecordParams,
  ZProductRecords,
  envelope,
} from '@kabuto/contract';
import { tokyoParts } from '../../lib/tokyo-time.js';
import { optionalUser, requireUser, sessionOf } from '../../plugins/auth.js';
import { idempotent } from '../../plugins/idempotency.js';
import { ok } from '../../plugins/reply.js';
import { ledgerClaim } from '../ledger/ledger.js';
import { publishOutbox, type EventOutbox } from '../messages/messages.js';
import { requireTradingAccount } from '../opening/brokerage.js';
import { buyProduct, listProducts, listRecords, productDetail, recordOf, sellRecord } from './products.js';

/** The follow-up products (issue 17, ADR 0027): the list and a product (public), buying, selling, records. */
export const productRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/products',
    { onRequest: optionalUser, schema: { tags: ['products'], response: { 200: envelope(ZProductList) } } },
    async (request) =>
      ok(
        request,
        await listProducts(app.ctx.db, request.locale, request.session?.userId ?? null, app.ctx.clock.now()),
      ),
  );

  app.get(
    '/products/:id',
    {
      onRequest: optionalUser,
      schema: { tags: ['products'], params: ZProductIdParams, response: { 200: envelope(ZProductDetail) } },
    },
    async (request) =>
      ok(
        request,
        await productDetail(
          app.ctx.db,
          request.params.id,
          request.locale,
          request.session?.userId ?? null,
          app.ctx.clock.now(),
        ),
      ),
  );

  app.post(
    '/products/:id/buy',
    {
      onRequest: requireUser,
      schema: {
        tags: ['products'],
        params: ZProductIdParams,
        body: ZProductBuyBody,
        response: { 200: envelope(ZProductRecord) },
      },
    },
    async (request) => {
      const userId = sessionOf(request).userId;
      const now = app.ctx.clock.now();
      await requireTradingAccount(
        app.ctx.db,
        userId,
        { margin_type: 'cash', leverage: 1, direction: 'long' },
        request.locale,
        tokyoParts(now).date,
      );
      const outbox: EventOutbox = [];
      const record = await idempotent(app.ctx.db, request, userId, ledgerClaim(), async (tx) => {
        const row = await buyProduct(
          tx,
          { now, locale: request.locale },
          userId,
          request.params.id,
          request.body,
          outbox,
        );
        return recordOf(tx, userId, row.id);
      });
      await publishOutbox(app.ctx.realtime, outbox);
      return ok(request, record);
    },
  );

  app.get(
    '/products/records',
    { onRequest: requireUser, schema: { tags: ['products'], response: { 200: envelope(ZProductRecords) } } },
    async (request) => ok(request, { items: await listRecords(app.ctx.db, sessionOf(request).userId) }),
  );

  app.post(
    '/products/records/:id/sell',
    {
      onRequest: requireUser,
      schema: {
        tags: ['products'],
        params: ZProductRecordParams,
        response: { 200: envelope(ZProductRecord) },
      },
    },
    async (request) => {
      const userId = sessionOf(request).userId;
      const outbox: EventOutbox = [];
      const record = await idempotent(app.ctx.db, request, userId, ledgerClaim(), async (tx) => {
        await sellRecord(tx, app.ctx.clock.now(), userId, request.params.id, outbox);
        return recordOf(tx, userId, request.params.id);
      });
      await publishOutbox(app.ctx.realtime, outbox);
      return ok(request, record);
    },
  );
};
