import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZNisaQuota,
  ZTaxReport,
  ZTaxReportQuery,
  ZTaxSummary,
  ZTaxSummaryQuery,
  envelope,
} from '@kabuto/contract';
import { requireUser, sessionOf } from '../../plugins/auth.js';
import { ok } from '../../plugins/reply.js';
import { nisaQuota } from './nisa.js';
import { taxReport, taxReportCsv, taxSummary } from './report.js';

/** The customer's tax: NISA quota, the annual trade report (JSON and CSV) and the year's summary (ADR 0021). */
export const taxRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['tax'];
  const user = { onRequest: requireUser };

  app.get(
    '/tax/nisa',
    { ...user, schema: { tags, response: { 200: envelope(ZNisaQuota) } } },
    async (request) =>
      ok(request, await nisaQuota(app.ctx.db, sessionOf(request).userId, app.ctx.clock.now())),
  );

  app.get(
    '/tax/report',
    { ...user, schema: { tags, querystring: ZTaxReportQuery, response: { 200: envelope(ZTaxReport) } } },
    async (request) =>
      ok(
        request,
        await taxReport(
          app.ctx.db,
          sessionOf(request).userId,
          request.query.year,
          request.query.account,
          request.locale,
        ),
      ),
  );

  app.get(
    '/tax/report.csv',
    { ...user, schema: { tags, querystring: ZTaxReportQuery, produces: ['text/csv'] } },
    async (request, reply) => {
      const report = await taxReport(
        app.ctx.db,
        sessionOf(request).userId,
        request.query.year,
        request.query.account,
        request.locale,
      );
      const file = taxReportCsv(report, request.locale);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${file.filename}"`)
        .send(file.csv);
    },
  );

  app.get(
    '/tax/summary',
    { ...user, schema: { tags, querystring: ZTaxSummaryQuery, response: { 200: envelope(ZTaxSummary) } } },
    async (request) =>
      ok(request, await taxSummary(app.ctx.db, sessionOf(request).userId, request.query.year)),
  );
};
