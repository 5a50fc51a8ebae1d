import { and, desc, eq, inArray, isNull, lt, lte, notExists, sql } from 'drizzle-orm';
import type {
  Locale,
  TArticleInput,
  TConsoleArticle,
  TNewsDetail,
  TNewsItem,
  TNewsPage,
} from '@kabuto/contract';
import type { Executor } from '../../db/types.js';
import {
  newsArticleRevisions,
  newsArticleVersions,
  newsArticles,
  newsFeeds,
  newsReads,
} from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { audit } from '../console/audit.js';
import { pickVersion } from './fallback.js';
import { plainSummary, renderMarkdown } from './sanitize.js';

type ArticleRow = typeof newsArticles.$inferSelect;
type VersionRow = typeof newsArticleVersions.$inferSelect;

interface Editor {
  operatorId: number;
  at: Date;
}

async function versionsOf(db: Executor, ids: readonly number[]): Promise<Map<number, VersionRow[]>> {
  const out = new Map<number, VersionRow[]>();
  if (ids.length === 0) return out;
  const rows = await db
    .select()
    .from(newsArticleVersions)
    .where(inArray(newsArticleVersions.articleId, [...ids]));
  for (const row of rows) out.set(row.articleId, [...(out.get(row.articleId) ?? []), row]);
  return out;
}

function consoleView(article: ArticleRow, versions: readonly VersionRow[]): TConsoleArticle {
  return {
    id: article.id,
    state: article.state,
    category: article.category,
    codes: article.codes,
    pinned: article.pinned,
    publish_at: article.publishAt?.toISOString() ?? null,
    revision: article.revision,
    versions: versions.map((v) => ({
      locale: v.locale as Locale,
      title: v.title,
      body: v.body,
      html: v.html,
    })),
    updated_at: article.updatedAt.toISOString(),
  };
}

async function loadForUpdate(
  tx: Executor,
  id: number,
): Promise<{ article: ArticleRow; versions: VersionRow[] }> {
  const [article] = await tx.select().from(newsArticles).where(eq(newsArticles.id, id)).for('update');
  if (!article) throw new AppError('ARTICLE_NOT_FOUND');
  const versions = (await versionsOf(tx, [id])).get(id) ?? [];
  return { article, versions };
}

/** Keeps the article as it stands before a change (append-only). */
async function keepRevision(
  tx: Executor,
  article: ArticleRow,
  versions: readonly VersionRow[],
  action: string,
  editor: Editor,
): Promise<void> {
  await tx.insert(newsArticleRevisions).values({
    articleId: article.id,
    revision: article.revision,
    action,
    snapshot: consoleView(article, versions),
    operatorId: editor.operatorId,
    createdAt: editor.at,
  });
}

async function writeVersions(tx: Executor, id: number, input: TArticleInput): Promise<void> {
  await tx.delete(newsArticleVersions).where(eq(newsArticleVersions.articleId, id));
  await tx.insert(newsArticleVersions).values(
    input.versions.map((v) => ({
      articleId: id,
      locale: v.locale,
      title: v.title,
      body: v.body,
      html: renderMarkdown(v.body),
    })),
  );
}

/** A new draft (or, with `publish`, a published article). Audited. */
export async function createArticle(
  tx: Executor,
  editor: Editor,
  input: TArticleInput,
  publish: boolean,
): Promise<TConsoleArticle> {
  const [article] = await tx
    .insert(newsArticles)
    .values({
      state: publish ? 'published' : 'draft',
      category: input.category,
      codes: input.codes,
      pinned: input.pinned,
      publishAt: input.publish_at ? new Date(input.publish_at) : publish ? editor.at : null,
      createdBy: editor.operatorId,
      updatedAt: editor.at,
      createdAt: editor.at,
    })
    .returning();
  if (!article) throw new Error('insert returned nothing');
  await writeVersions(tx, article.id, input);
  const view = await consoleArticle(tx, article.id);
  await audit(tx, {
    operatorId: editor.operatorId,
    action: publish ? 'news.publish' : 'news.create',
    targetType: 'news_article',
    targetId: article.id,
    after: view,
    at: editor.at,
  });
  return view;
}

/** An edit: the previous state is kept as a revision; a retracted article cannot be edited. Audited. */
export async function updateArticle(
  tx: Executor,
  editor: Editor,
  id: number,
  input: TArticleInput,
): Promise<TConsoleArticle> {
  const { article, versions } = await loadForUpdate(tx, id);
  if (article.state === 'retracted') throw new AppError('ARTICLE_RETRACTED');
  await keepRevision(tx, article, versions, 'edit', editor);
  const before = consoleView(article, versions);
  await tx
    .update(newsArticles)
    .set({
      category: input.category,
      codes: input.codes,
      pinned: input.pinned,
      publishAt: input.publish_at ? new Date(input.publish_at) : article.publishAt,
      revision: article.revision + 1,
      updatedAt: editor.at,
    })
    .where(eq(newsArticles.id, id));
  await writeVersions(tx, id, input);
  const after = await consoleArticle(tx, id);
  await audit(tx, {
    operatorId: editor.operatorId,
    action: 'news.edit',
    targetType: 'news_article',
    targetId: id,
    before,
    after,
    at: editor.at,
  });
  return after;
}

/** Publishes a draft (now, or at its publish time if that is later). Audited. */
export async function publishArticle(tx: Executor, editor: Editor, id: number): Promise<TConsoleArticle> {
  const { article, versions } = await loadForUpdate(tx, id);
  if (article.state === 'retracted') throw new AppError('ARTICLE_RETRACTED');
  if (article.state === 'published') return consoleView(article, versions);
  await keepRevision(tx, article, versions, 'publish', editor);
  await tx
    .update(newsArticles)
    .set({
      state: 'published',
      publishAt: article.publishAt && article.publishAt > editor.at ? article.publishAt : editor.at,
      revision: article.revision + 1,
      updatedAt: editor.at,
    })
    .where(eq(newsArticles.id, id));
  const after = await consoleArticle(tx, id);
  await audit(tx, {
    operatorId: editor.operatorId,
    action: 'news.publish',
    targetType: 'news_article',
    targetId: id,
    before: consoleView(article, versions),
    after,
    at: editor.at,
  });
  return after;
}

/** Withdraws an article from readers for good, with a reason. Audited. */
export async function retractArticle(
  tx: Executor,
  editor: Editor,
  id: number,
  reason: string,
): Promise<TConsoleArticle> {
  const { article, versions } = await loadForUpdate(tx, id);
  if (article.state === 'retracted') throw new AppError('ARTICLE_RETRACTED');
  await keepRevision(tx, article, versions, 'retract', editor);
  await tx
    .update(newsArticles)
    .set({ state: 'retracted', revision: article.revision + 1, updatedAt: editor.at })
    .where(eq(newsArticles.id, id));
  const after = await consoleArticle(tx, id);
  await audit(tx, {
    operatorId: editor.operatorId,
    action: 'news.retract',
    targetType: 'news_article',
    targetId: id,
    reason,
    before: consoleView(article, versions),
    after,
    at: editor.at,
  });
  return after;
}

export async function consoleArticle(db: Executor, id: number): Promise<TConsoleArticle> {
  const [article] = await db.select().from(newsArticles).where(eq(newsArticles.id, id));
  if (!article) throw new AppError('ARTICLE_NOT_FOUND');
  return consoleView(article, (await versionsOf(db, [id])).get(id) ?? []);
}

export async function listConsoleArticles(db: Executor): Promise<TConsoleArticle[]> {
  const rows = await db
    .select()
    .from(newsArticles)
    .where(isNull(newsArticles.feedId))
    .orderBy(desc(newsArticles.id))
    .limit(200);
  const versions = await versionsOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => consoleView(r, versions.get(r.id) ?? []));
}

/** The previous states of an article, newest first. */
export async function articleRevisions(db: Executor, id: number) {
  return db
    .select()
    .from(newsArticleRevisions)
    .where(eq(newsArticleRevisions.articleId, id))
    .orderBy(desc(newsArticleRevisions.id));
}

// ---------------------------------------------------------------- readers

/** How many pinned articles lead a list. */
export const MAX_PINNED = 3;

const visible = (now: Date) => and(eq(newsArticles.state, 'published'), lte(newsArticles.publishAt, now));

function readerItem(
  article: ArticleRow,
  versions: readonly VersionRow[],
  locale: Locale,
  source: string | null,
  read: boolean,
): (TNewsItem & { html: string }) | undefined {
  const picked = pickVersion(versions, locale);
  if (!picked) return undefined;
  return {
    id: article.id,
    category: article.category,
    title: picked.version.title,
    summary: plainSummary(picked.version.html),
    html: picked.version.html,
    codes: article.codes,
    published_at: (article.publishAt ?? article.createdAt).toISOString(),
    pinned: article.pinned,
    locale: picked.version.locale as Locale,
    fallback: picked.fallback,
    source,
    read,
  };
}

async function feedNames(db: Executor, rows: readonly ArticleRow[]): Promise<Map<number, string>> {
  const ids = [...new Set(rows.map((r) => r.feedId).filter((id): id is number => id !== null))];
  if (ids.length === 0) return new Map();
  const feeds = await db
    .select({ id: newsFeeds.id, name: newsFeeds.name })
    .from(newsFeeds)
    .where(inArray(newsFeeds.id, ids));
  return new Map(feeds.map((f) => [f.id, f.name]));
}

async function readIds(db: Executor, userId: number | null, ids: readonly number[]): Promise<Set<number>> {
  if (userId === null || ids.length === 0) return new Set();
  const rows = await db
    .select({ id: newsReads.articleId })
    .from(newsReads)
    .where(and(eq(newsReads.userId, userId), inArray(newsReads.articleId, [...ids])));
  return new Set(rows.map((r) => r.id));
}

/**
 * A page of published articles, newest first (pinned ones first on the first page of a list), in the
 * reader's language by the fallback order. `before` is the last id already shown.
 */
export async function newsPage(
  db: Executor,
  reader: { userId: number | null; locale: Locale; now: Date },
  query: { category?: TNewsItem['category']; code?: string; limit: number; before?: number },
): Promise<TNewsPage> {
  const where = and(
    visible(reader.now),
    query.category ? eq(newsArticles.category, query.category) : undefined,
    query.code ? sql`${newsArticles.codes} @> ${JSON.stringify([query.code])}::jsonb` : undefined,
    query.before ? lt(newsArticles.id, query.before) : undefined,
  );
  // Pinned articles (at most MAX_PINNED) lead the first page and stay out of the id-ordered stream, so the
  // cursor is the smallest id of the stream shown.
  const stream = await db
    .select()
    .from(newsArticles)
    .where(and(where, eq(newsArticles.pinned, false)))
    .orderBy(desc(newsArticles.id))
    .limit(query.limit + 1);
  const pinned = query.before
    ? []
    : await db
        .select()
        .from(newsArticles)
        .where(and(where, eq(newsArticles.pinned, true)))
        .orderBy(desc(newsArticles.id))
        .limit(MAX_PINNED);
  const more = stream.length > query.limit;
  const shown = stream.slice(0, query.limit);
  const page = [...pinned, ...shown];
  const [versions, feeds, read] = await Promise.all([
    versionsOf(
      db,
      page.map((r) => r.id),
    ),
    feedNames(db, page),
    readIds(
      db,
      reader.userId,
      page.map((r) => r.id),
    ),
  ]);
  const items = page.flatMap((r) => {
    const item = readerItem(
      r,
      versions.get(r.id) ?? [],
      reader.locale,
      r.feedId ? (feeds.get(r.feedId) ?? null) : null,
      read.has(r.id),
    );
    if (!item) return [];
    const { html: _html, ...rest } = item;
    return [rest];
  });
  const last = shown.at(-1);
  return {
    items,
    next: more && last ? last.id : null,
    unread: await unreadNews(db, reader.userId, reader.now),
  };
}

export async function unreadNews(db: Executor, userId: number | null, now: Date): Promise<number> {
  if (userId === null) return 0;
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(newsArticles)
    .where(
      and(
        visible(now),
        notExists(
          db
            .select({ one: sql`1` })
            .from(newsReads)
            .where(and(eq(newsReads.articleId, newsArticles.id), eq(newsReads.userId, userId))),
        ),
      ),
    );
  return row?.n ?? 0;
}

/** One published article for a reader; opening it marks it read for a signed-in reader. */
export async function newsDetail(
  db: Executor,
  reader: { userId: number | null; locale: Locale; now: Date },
  id: number,
): Promise<TNewsDetail> {
  const [article] = await db
    .select()
    .from(newsArticles)
    .where(and(eq(newsArticles.id, id), visible(reader.now)));
  if (!article) throw new AppError('ARTICLE_NOT_FOUND');
  const versions = (await versionsOf(db, [id])).get(id) ?? [];
  const feeds = await feedNames(db, [article]);
  const item = readerItem(
    article,
    versions,
    reader.locale,
    article.feedId ? (feeds.get(article.feedId) ?? null) : null,
    true,
  );
  if (!item) throw new AppError('ARTICLE_NOT_FOUND');
  if (reader.userId !== null) {
    await db
      .insert(newsReads)
      .values({ userId: reader.userId, articleId: id, createdAt: reader.now })
      .onConflictDoNothing();
  }
  return { ...item, link: article.link };
}
