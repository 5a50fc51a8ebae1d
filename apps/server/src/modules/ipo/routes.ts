import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, asc, desc, eq, ne } from 'drizzle-orm';
import { z } from 'zod';
import {
  ZApplication,
  ZApplicationCreate,
  ZApplicationList,
  ZDrawRecord,
  ZOffering,
  ZOfferingCancel,
  ZOfferingDetail,
  ZOfferingList,
  ZOfferingPublish,
  ZOfferingsQuery,
  ZOfferPriceFix,
  envelope,
} from '@kabuto/contract';
import { ipoPoints, offeringApplications, offerings } from '../../db/schema.js';
import type { Executor } from '../../db/types.js';
import { AppError } from '../../lib/app-error.js';
import { requireUser, sessionOf } from '../../plugins/auth.js';
import { idempotent } from '../../plugins/idempotency.js';
import { operatorOf, requireAdministrator, requireOperator } from '../../plugins/operator-auth.js';
import { ok } from '../../plugins/reply.js';
import { ledgerClaim } from '../ledger/ledger.js';
import { publishOutbox, type EventOutbox } from '../messages/messages.js';
import { verifyDraw, type DrawRecord } from './draw.js';
import {
  applicationStats,
  applicationView,
  applyFor,
  cancelOffering,
  confirmPurchase,
  declinePurchase,
  drawList,
  fixOfferPrice,
  listOfferings,
  offeringView,
  publishOffering,
  withdrawApplication,
  type OfferingRow,
} from './offerings.js';

const ZIdParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

async function offeringById(db: Executor, id: number): Promise<OfferingRow> {
  const [o] = await db.select().from(offerings).where(eq(offerings.id, id));
  if (!o) throw new AppError('OFFERING_NOT_FOUND');
  return o;
}

/**
 * The published draw record of an offering: the seed (once revealed), the hashes, the pseudonymous list as
 * drawn (applications live at the draw, or now before it), the allocation and drawn order, and the server's
 * own recomputation. Anyone signed in may read it; it names no one.
 */
export async function drawRecord(db: Executor, o: OfferingRow) {
  const apps = await db
    .select()
    .from(offeringApplications)
    .where(and(eq(offeringApplications.offeringId, o.id), ne(offeringApplications.state, 'withdrawn')))
    .orderBy(asc(offeringApplications.id));
  const drawn = o.drawnAt !== null;
  // the list drawn: every application live at the close (bids below the offer price dropped out there)
  const listed = apps.filter((a) => a.state !== 'cancelled' && a.reason !== 'bid_below_offer');
  const record: DrawRecord = {
    seed: drawn ? o.seed : '',
    seed_hash: o.seedHash,
    offering_units: o.offeringUnits,
    policy: o.policy,
    applications: drawList(o, listed),
    list_hash: o.listHash ?? '',
    allocations: o.allocations ?? [],
    order: o.drawOrder ?? [],
  };
  return {
    offering_id: o.id,
    seed_hash: o.seedHash,
    seed: drawn ? o.seed : null,
    list_hash: o.listHash,
    offering_units: o.offeringUnits,
    policy: o.policy,
    applications: [...record.applications],
    allocations: record.allocations,
    order: record.order,
    problems: drawn ? verifyDraw(record) : [],
  };
}

/** IPOs and distributions: the user's side (list, detail, apply, withdraw, purchase, results, draw record). */
export const ipoRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['ipo'];
  const deps = (locale: string) => ({ clock: app.ctx.clock, market: app.ctx.market, locale });

  app.get(
    '/ipo/offerings',
    {
      onRequest: requireUser,
      schema: { tags, querystring: ZOfferingsQuery, response: { 200: envelope(ZOfferingList) } },
    },
    async (request) => {
      const now = app.ctx.clock.now();
      const rows = await listOfferings(app.ctx.db, request.query.kind);
      return ok(request, { items: rows.map(({ row, stats }) => offeringView(row, now, stats)) });
    },
  );

  app.get(
    '/ipo/offerings/:id',
    {
      onRequest: requireUser,
      schema: { tags, params: ZIdParams, response: { 200: envelope(ZOfferingDetail) } },
    },
    async (request) => {
      const userId = sessionOf(request).userId;
      const o = await offeringById(app.ctx.db, request.params.id);
      const stats = (await applicationStats(app.ctx.db, [o.id])).get(o.id);
      const [mine] = await app.ctx.db
        .select()
        .from(offeringApplications)
        .where(and(eq(offeringApplications.offeringId, o.id), eq(offeringApplications.userId, userId)))
        .orderBy(desc(offeringApplications.id))
        .limit(1);
      return ok(request, {
        ...offeringView(o, app.ctx.clock.now(), stats),
        mine: mine ? applicationView(o, mine) : null,
      });
    },
  );

  app.get(
    '/ipo/offerings/:id/draw',
    { onRequest: requireUser, schema: { tags, params: ZIdParams, response: { 200: envelope(ZDrawRecord) } } },
    async (request) =>
      ok(request, await drawRecord(app.ctx.db, await offeringById(app.ctx.db, request.params.id))),
  );

  app.post(
    '/ipo/offerings/:id/applications',
    {
      onRequest: requireUser,
      schema: {
        tags,
        params: ZIdParams,
        body: ZApplicationCreate,
        response: { 200: envelope(ZApplication) },
      },
    },
    async (request) => {
      const userId = sessionOf(request).userId;
      const view = await idempotent(app.ctx.db, request, userId, ledgerClaim(), async (tx) => {
        const { offering, application } = await applyFor(
          tx,
          deps(request.locale),
          userId,
          request.params.id,
          request.body,
        );
        return applicationView(offering, application);
      });
      return ok(request, view);
    },
  );

  app.get(
    '/ipo/applications',
    { onRequest: requireUser, schema: { tags, response: { 200: envelope(ZApplicationList) } } },
    async (request) => {
      const userId = sessionOf(request).userId;
      const rows = await app.ctx.db
        .select({ a: offeringApplications, o: offerings })
        .from(offeringApplications)
        .innerJoin(offerings, eq(offerings.id, offeringApplications.offeringId))
        .where(eq(offeringApplications.userId, userId))
        .orderBy(desc(offeringApplications.id))
        .limit(200);
      const [points] = await app.ctx.db.select().from(ipoPoints).where(eq(ipoPoints.userId, userId));
      return ok(request, {
        items: rows.map(({ a, o }) => applicationView(o, a)),
        points: points?.points ?? 0,
      });
    },
  );

  const action = (
    path: string,
    run: (
      tx: Parameters<Parameters<typeof idempotent>[4]>[0],
      userId: number,
      id: number,
      locale: string,
      outbox: EventOutbox,
    ) => Promise<{ offering: OfferingRow; application: typeof offeringApplications.$inferSelect }>,
  ) =>
    app.post(
      `/ipo/applications/:id/${path}`,
      {
        onRequest: requireUser,
        schema: { tags, params: ZIdParams, response: { 200: envelope(ZApplication) } },
      },
      async (request) => {
        const userId = sessionOf(request).userId;
        const outbox: EventOutbox = [];
        const view = await idempotent(app.ctx.db, request, userId, ledgerClaim(), async (tx) => {
          const { offering, application } = await run(tx, userId, request.params.id, request.locale, outbox);
          return applicationView(offering, application);
        });
        await publishOutbox(app.ctx.realtime, outbox);
        return ok(request, view);
      },
    );
  action('withdraw', (tx, userId, id) => withdrawApplication(tx, app.ctx.clock, userId, id));
  action('confirm', (tx, userId, id, locale, outbox) =>
    confirmPurchase(tx, deps(locale), userId, id, outbox),
  );
  action('decline', (tx, userId, id, locale, outbox) =>
    declinePurchase(tx, deps(locale), userId, id, outbox),
  );
};

/**
 * The console's side: any operator reads offerings; administrators publish, fix the offer price and cancel
 * (each audited). Nothing edits an application, a draw or a result.
 */
export const ipoConsoleRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['console'];
  const deps = (locale: string) => ({ clock: app.ctx.clock, market: app.ctx.market, locale });

  app.get(
    '/ipo/offerings',
    { onRequest: requireOperator, schema: { tags, response: { 200: envelope(ZOfferingList) } } },
    async (request) => {
      const now = app.ctx.clock.now();
      const rows = await listOfferings(app.ctx.db);
      return ok(request, { items: rows.map(({ row, stats }) => offeringView(row, now, stats)) });
    },
  );

  app.post(
    '/ipo/offerings',
    {
      onRequest: requireAdministrator,
      schema: { tags, body: ZOfferingPublish, response: { 200: envelope(ZOffering) } },
    },
    async (request) => {
      const row = await app.ctx.db.transaction((tx) =>
        publishOffering(tx, deps(request.locale), operatorOf(request).id, request.body),
      );
      return ok(request, offeringView(row, app.ctx.clock.now()));
    },
  );

  app.post(
    '/ipo/offerings/:id/offer-price',
    {
      onRequest: requireAdministrator,
      schema: { tags, params: ZIdParams, body: ZOfferPriceFix, response: { 200: envelope(ZOffering) } },
    },
    async (request) => {
      const row = await app.ctx.db.transaction((tx) =>
        fixOfferPrice(tx, app.ctx.clock, operatorOf(request).id, request.params.id, request.body.offer_price),
      );
      return ok(request, offeringView(row, app.ctx.clock.now()));
    },
  );

  app.post(
    '/ipo/offerings/:id/cancel',
    {
      onRequest: requireAdministrator,
      schema: { tags, params: ZIdParams, body: ZOfferingCancel, response: { 200: envelope(ZOffering) } },
    },
    async (request) => {
      const outbox: EventOutbox = [];
      const row = await app.ctx.db.transaction((tx) =>
        cancelOffering(
          tx,
          app.ctx.clock,
          operatorOf(request).id,
          request.params.id,
          request.body.reason,
          outbox,
        ),
      );
      await publishOutbox(app.ctx.realtime, outbox);
      return ok(request, offeringView(row, app.ctx.clock.now()));
    },
  );
};
