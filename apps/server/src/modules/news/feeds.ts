import { parseFeed } from '@rowanmanning/feed-parser';
import { and, eq } from 'drizzle-orm';
import type { TFeedInput } from '@kabuto/contract';
import type { Executor } from '../../db/types.js';
import { newsArticleVersions, newsArticles, newsFeeds } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { sanitize } from './sanitize.js';

/** A feed larger than this is refused unread past the cap (ADR 0029). */
export const FEED_MAX_BYTES = 2 * 1024 * 1024;
/** A feed that has not answered within this is abandoned for this poll. */
export const FEED_TIMEOUT_MS = 10_000;
/** Items taken from one poll, newest first. */
export const FEED_MAX_ITEMS = 50;

export interface ParsedItem {
  guid: string;
  title: string;
  html: string;
  link: string | null;
  published: Date | null;
}

const httpLink = (url: string | null) => (url !== null && /^https?:\/\//i.test(url) ? url : null);

/** RSS 2.0 or Atom text to items: titles as plain text, bodies sanitised, each with a stable guid. */
export function parseFeedItems(xml: string): ParsedItem[] {
  const feed = parseFeed(xml);
  const out: ParsedItem[] = [];
  for (const item of feed.items.slice(0, FEED_MAX_ITEMS)) {
    const link = httpLink(item.url);
    const guid = item.id ?? link ?? item.title;
    const title = sanitizeTitle(item.title ?? '');
    if (!guid || !title) continue;
    out.push({
      guid: guid.slice(0, 500),
      title,
      html: sanitize(item.content ?? item.description ?? ''),
      link,
      published: item.published ?? item.updated,
    });
  }
  return out;
}

function sanitizeTitle(title: string): string {
  return sanitize(title)
    .replace(/<[^>]*>/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 200);
}

export type FetchResult =
  | { kind: 'ok'; body: string; etag: string | null; lastModified: string | null }
  | { kind: 'not_modified' }
  | { kind: 'failed'; error: string };

/** The reason of a failed fetch, with its cause (undici's "fetch failed" says nothing by itself). */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`.slice(0, 300);
}

/** GET with the validators of the last poll, a timeout and a size cap; never throws. */
export async function fetchFeed(
  url: string,
  validators: { etag: string | null; lastModified: string | null },
  options: { timeoutMs?: number; maxBytes?: number } = {},
): Promise<FetchResult> {
  const maxBytes = options.maxBytes ?? FEED_MAX_BYTES;
  const headers: Record<string, string> = {
    accept: 'application/rss+xml, application/atom+xml, application/xml, text/xml',
  };
  if (validators.etag) headers['if-none-match'] = validators.etag;
  if (validators.lastModified) headers['if-modified-since'] = validators.lastModified;
  const controller = new AbortController();
  const timer = setTimeout(() => {
    controller.abort();
  }, options.timeoutMs ?? FEED_TIMEOUT_MS);
  try {
    const response = await fetch(url, { headers, signal: controller.signal, redirect: 'follow' });
    if (response.status === 304) return { kind: 'not_modified' };
    if (!response.ok) return { kind: 'failed', error: `HTTP ${response.status}` };
    const declared = Number(response.headers.get('content-length') ?? '0');
    if (declared > maxBytes) {
      await response.body?.cancel();
      return { kind: 'failed', error: `too large (${declared} bytes, at most ${maxBytes})` };
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    if (response.body) {
      for await (const value of response.body as AsyncIterable<Uint8Array>) {
        size += value.byteLength;
        // Leaving the loop cancels the rest of the body.
        if (size > maxBytes) {
          return { kind: 'failed', error: `too large (more than ${maxBytes} bytes)` };
        }
        chunks.push(value);
      }
    }
    return {
      kind: 'ok',
      body: Buffer.concat(chunks).toString('utf8'),
      etag: response.headers.get('etag'),
      lastModified: response.headers.get('last-modified'),
    };
  } catch (error) {
    return {
      kind: 'failed',
      error: controller.signal.aborted ? 'timed out' : describeError(error),
    };
  } finally {
    clearTimeout(timer);
  }
}

type FeedRow = typeof newsFeeds.$inferSelect;

/** Imports new items (once per guid) as published articles in the feed's language. */
export async function importItems(
  tx: Executor,
  feed: FeedRow,
  items: readonly ParsedItem[],
  now: Date,
): Promise<number> {
  let imported = 0;
  for (const item of items) {
    const [article] = await tx
      .insert(newsArticles)
      .values({
        state: 'published',
        category: 'feed',
        codes: [],
        publishAt: item.published && item.published < now ? item.published : now,
        feedId: feed.id,
        guid: item.guid,
        link: item.link,
        updatedAt: now,
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning({ id: newsArticles.id });
    if (!article) continue;
    await tx.insert(newsArticleVersions).values({
      articleId: article.id,
      locale: feed.locale,
      title: item.title,
      body: item.html,
      html: item.html || `<p>${escapeHtml(item.title)}</p>`,
    });
    imported += 1;
  }
  return imported;
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** One poll of one feed: its state records the outcome (ok, not modified, failed with the reason). */
export async function pollFeed(
  db: Executor,
  feed: FeedRow,
  now: Date,
  options?: { timeoutMs?: number; maxBytes?: number },
): Promise<{ state: FeedRow['state']; imported: number; error: string | null }> {
  const result = await fetchFeed(feed.url, { etag: feed.etag, lastModified: feed.lastModified }, options);
  if (result.kind === 'not_modified') {
    await db
      .update(newsFeeds)
      .set({ state: 'not_modified', lastError: null, lastPolledAt: now })
      .where(eq(newsFeeds.id, feed.id));
    return { state: 'not_modified', imported: 0, error: null };
  }
  let items: ParsedItem[] | undefined;
  let error = result.kind === 'failed' ? result.error : null;
  if (result.kind === 'ok') {
    try {
      items = parseFeedItems(result.body);
    } catch (e) {
      error = `not a feed: ${e instanceof Error ? e.message : String(e)}`.slice(0, 300);
    }
  }
  if (items === undefined || result.kind !== 'ok') {
    await db
      .update(newsFeeds)
      .set({ state: 'failed', lastError: error, lastPolledAt: now })
      .where(eq(newsFeeds.id, feed.id));
    return { state: 'failed', imported: 0, error };
  }
  const parsed = items;
  const imported = await importItems(db, feed, parsed, now);
  await db
    .update(newsFeeds)
    .set({
      state: 'ok',
      lastError: null,
      lastPolledAt: now,
      etag: result.etag,
      lastModified: result.lastModified,
    })
    .where(eq(newsFeeds.id, feed.id));
  return { state: 'ok', imported, error: null };
}

/** Active feeds whose poll interval has passed. */
export async function dueFeeds(db: Executor, now: Date): Promise<FeedRow[]> {
  const feeds = await db.select().from(newsFeeds).where(eq(newsFeeds.active, true));
  return feeds.filter(
    (f) => f.lastPolledAt === null || now.getTime() - f.lastPolledAt.getTime() >= f.pollMinutes * 60_000,
  );
}

export async function createFeed(db: Executor, input: TFeedInput, now: Date): Promise<FeedRow> {
  const [row] = await db
    .insert(newsFeeds)
    .values({
      name: input.name,
      url: input.url,
      locale: input.locale,
      pollMinutes: input.poll_minutes,
      active: input.active,
      createdAt: now,
    })
    .returning();
  if (!row) throw new Error('insert returned nothing');
  return row;
}

export async function updateFeed(db: Executor, id: number, input: TFeedInput): Promise<FeedRow> {
  const [row] = await db
    .update(newsFeeds)
    .set({
      name: input.name,
      url: input.url,
      locale: input.locale,
      pollMinutes: input.poll_minutes,
      active: input.active,
    })
    .where(and(eq(newsFeeds.id, id)))
    .returning();
  if (!row) throw new AppError('FEED_NOT_FOUND');
  return row;
}
