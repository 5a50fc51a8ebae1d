import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZDividendAnnounceBody,
  ZDividendAnnouncement,
  ZDividendAnnouncements,
  ZDividendsView,
  envelope,
} from '@kabuto/contract';
import { requireUser, sessionOf } from '../../plugins/auth.js';
import { operatorOf, requireAdministrator, requireOperator } from '../../plugins/operator-auth.js';
import { ok } from '../../plugins/reply.js';
import { announceDividend, announcementView, dividendsView, listAnnouncements } from './dividends.js';
import { publishPriceAdjustments } from './price-adjustments.js';

/** The user's dividend screen (issue 17): upcoming dividends of holdings and watchlist, and those received. */
export const dividendRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/dividends',
    { onRequest: requireUser, schema: { tags: ['dividends'], response: { 200: envelope(ZDividendsView) } } },
    async (request) =>
      ok(
        request,
        await dividendsView(app.ctx.db, sessionOf(request).userId, request.locale, app.ctx.clock.now()),
      ),
  );
};

/** The console's dividend announcements: list (operators), announce (administrators). */
export const dividendConsoleRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/dividends',
    {
      onRequest: requireOperator,
      schema: { tags: ['console'], response: { 200: envelope(ZDividendAnnouncements) } },
    },
    async (request) => ok(request, await listAnnouncements(app.ctx.db, request.locale)),
  );

  app.post(
    '/dividends',
    {
      onRequest: requireAdministrator,
      schema: {
        tags: ['console'],
        body: ZDividendAnnounceBody,
        response: { 200: envelope(ZDividendAnnouncement) },
      },
    },
    async (request) => {
      const row = await app.ctx.db.transaction((tx) =>
        announceDividend(tx, operatorOf(request).id, request.body, app.ctx.clock.now()),
      );
      // the stock's price drops on the ex date (ADR 0027): every process's simulator learns the dividend
      try {
        await publishPriceAdjustments(app.ctx);
      } catch (error) {
        request.log.warn({ err: error }, 'could not announce the new price adjustments');
      }
      return ok(request, announcementView(row, request.locale));
    },
  );
};
