import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZArticleInput,
  ZArticlePreview,
  ZArticlePreviewInput,
  ZArticleRetract,
  ZConsoleArticle,
  ZConsoleArticleList,
  ZFeed,
  ZFeedInput,
  ZFeedList,
  ZMarketEvents,
  ZNewsDetail,
  ZNewsPage,
  ZNewsQuery,
  envelope,
} from '@kabuto/contract';
import { desc, eq, sql } from 'drizzle-orm';
import { newsArticles, newsFeeds } from '../../db/schema.js';
import { optionalUser } from '../../plugins/auth.js';
import { operatorOf, requireAdministrator, requireEditor } from '../../plugins/operator-auth.js';
import { ok } from '../../plugins/reply.js';
import { audit } from '../console/audit.js';
import {
  consoleArticle,
  createArticle,
  listConsoleArticles,
  newsDetail,
  newsPage,
  publishArticle,
  retractArticle,
  updateArticle,
} from './articles.js';
import { marketEvents } from './events.js';
import { createFeed, updateFeed } from './feeds.js';
import { renderMarkdown } from './sanitize.js';

const ZIdParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const ZPublishQuery = z.object({ publish: z.enum(['true', 'false']).default('false') });

/** The readers' news: public, with unread marks for a signed-in reader (ADR 0029). */
export const newsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['news'];
  app.get(
    '/news',
    {
      onRequest: optionalUser,
      schema: { tags, querystring: ZNewsQuery, response: { 200: envelope(ZNewsPage) } },
    },
    async (request) =>
      ok(
        request,
        await newsPage(
          app.ctx.db,
          { userId: request.session?.userId ?? null, locale: request.locale, now: app.ctx.clock.now() },
          request.query,
        ),
      ),
  );
  app.get('/news/events', { schema: { tags, response: { 200: envelope(ZMarketEvents) } } }, async (request) =>
    ok(request, {
      items: await marketEvents({
        db: app.ctx.db,
        market: app.ctx.market,
        now: app.ctx.clock.now(),
        locale: request.locale,
      }),
      derived: true as const,
    }),
  );
  app.get(
    '/news/:id',
    {
      onRequest: optionalUser,
      schema: { tags, params: ZIdParams, response: { 200: envelope(ZNewsDetail) } },
    },
    async (request) =>
      ok(
        request,
        await newsDetail(
          app.ctx.db,
          { userId: request.session?.userId ?? null, locale: request.locale, now: app.ctx.clock.now() },
          request.params.id,
        ),
      ),
  );
};

/**
 * The console's articles (editors and administrators; every change audited, the previous
 * version kept) and feeds (administrators).
 */
export const newsConsoleRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['console'];
  const editor = { onRequest: requireEditor };
  const admin = { onRequest: requireAdministrator };
  const { db, clock } = app.ctx;
  const who = (request: Parameters<typeof operatorOf>[0]) => ({
    operatorId: operatorOf(request).id,
    at: clock.now(),
  });

  app.get(
    '/news',
    { ...editor, schema: { tags, response: { 200: envelope(ZConsoleArticleList) } } },
    async (request) => ok(request, { items: await listConsoleArticles(db) }),
  );
  app.get(
    '/news/:id',
    { ...editor, schema: { tags, params: ZIdParams, response: { 200: envelope(ZConsoleArticle) } } },
    async (request) => ok(request, await consoleArticle(db, request.params.id)),
  );
  app.post(
    '/news/preview',
    { ...editor, schema: { tags, body: ZArticlePreviewInput, response: { 200: envelope(ZArticlePreview) } } },
    async (request) => ok(request, { html: renderMarkdown(request.body.body) }),
  );
  app.post(
    '/news',
    {
      ...editor,
      schema: {
        tags,
        querystring: ZPublishQuery,
        body: ZArticleInput,
        response: { 200: envelope(ZConsoleArticle) },
      },
    },
    async (request) =>
      ok(
        request,
        await db.transaction((tx) =>
          createArticle(tx, who(request), request.body, request.query.publish === 'true'),
        ),
      ),
  );
  app.put(
    '/news/:id',
    {
      ...editor,
      schema: { tags, params: ZIdParams, body: ZArticleInput, response: { 200: envelope(ZConsoleArticle) } },
    },
    async (request) =>
      ok(
        request,
        await db.transaction((tx) => updateArticle(tx, who(request), request.params.id, request.body)),
      ),
  );
  app.post(
    '/news/:id/publish',
    { ...editor, schema: { tags, params: ZIdParams, response: { 200: envelope(ZConsoleArticle) } } },
    async (request) =>
      ok(request, await db.transaction((tx) => publishArticle(tx, who(request), request.params.id))),
  );
  app.post(
    '/news/:id/retract',
    {
      ...editor,
      schema: {
        tags,
        params: ZIdParams,
        body: ZArticleRetract,
        response: { 200: envelope(ZConsoleArticle) },
      },
    },
    async (request) =>
      ok(
        request,
        await db.transaction((tx) =>
          retractArticle(tx, who(request), request.params.id, request.body.reason),
        ),
      ),
  );

  // -------------------------------------------------------------- feeds (administrators)

  const feedView = (f: typeof newsFeeds.$inferSelect, items: number) => ({
    id: f.id,
    name: f.name,
    url: f.url,
    locale: f.locale as z.infer<typeof ZFeedInput>['locale'],
    poll_minutes: f.pollMinutes,
    active: f.active,
    state: f.state,
    last_error: f.lastError,
    last_polled_at: f.lastPolledAt?.toISOString() ?? null,
    items,
  });
  app.get(
    '/news-feeds',
    { ...admin, schema: { tags, response: { 200: envelope(ZFeedList) } } },
    async (request) => {
      const feeds = await db.select().from(newsFeeds).orderBy(desc(newsFeeds.id));
      const counts = await db
        .select({ feedId: newsArticles.feedId, n: sql<number>`count(*)::int` })
        .from(newsArticles)
        .groupBy(newsArticles.feedId);
      const byFeed = new Map(counts.map((c) => [c.feedId, c.n]));
      return ok(request, { items: feeds.map((f) => feedView(f, byFeed.get(f.id) ?? 0)) });
    },
  );
  app.post(
    '/news-feeds',
    { ...admin, schema: { tags, body: ZFeedInput, response: { 200: envelope(ZFeed) } } },
    async (request) =>
      ok(
        request,
        await db.transaction(async (tx) => {
          const feed = await createFeed(tx, request.body, clock.now());
          await audit(tx, {
            operatorId: operatorOf(request).id,
            action: 'news_feed.create',
            targetType: 'news_feed',
            targetId: feed.id,
            after: request.body,
            at: clock.now(),
          });
          return feedView(feed, 0);
        }),
      ),
  );
  app.put(
    '/news-feeds/:id',
    { ...admin, schema: { tags, params: ZIdParams, body: ZFeedInput, response: { 200: envelope(ZFeed) } } },
    async (request) =>
      ok(
        request,
        await db.transaction(async (tx) => {
          const [before] = await tx.select().from(newsFeeds).where(eq(newsFeeds.id, request.params.id));
          const feed = await updateFeed(tx, request.params.id, request.body);
          await audit(tx, {
            operatorId: operatorOf(request).id,
            action: 'news_feed.update',
            targetType: 'news_feed',
            targetId: feed.id,
            before,
            after: request.body,
            at: clock.now(),
          });
          return feedView(feed, 0);
        }),
      ),
  );
};
