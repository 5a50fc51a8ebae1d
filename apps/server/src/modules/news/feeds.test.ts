import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newsArticleVersions, newsArticles, newsFeeds } from '../../db/schema.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { createFeed, fetchFeed, parseFeedItems, pollFeed } from './feeds.js';

const RSS = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>Fixture</title><link>https://news.example/</link><description>d</description>
<item><guid>rss-1</guid><title>日経平均、3日続伸</title><link>https://news.example/1</link>
<description><![CDATA[<p>東証<script>alert(1)</script>は<b>続伸</b><img src="https://t.example/p.gif" width="1" height="1"><a href="javascript:alert(1)">x</a></p>]]></description>
<pubDate>Mon, 23 Nov 2026 06:00:00 GMT</pubDate></item>
<item><guid>rss-2</guid><title><![CDATA[<b onmouseover="x()">円安</b>進む]]></title><link>https://news.example/2</link><description>円相場</description></item>
</channel></rss>`;

const ATOM = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>Atom fixture</title><id>urn:x</id><updated>2026-11-23T00:00:00Z</updated>
<entry><id>urn:atom:1</id><title>Rates unchanged</title><link href="https://atom.example/1"/><updated>2026-11-23T01:00:00Z</updated>
<content type="html">&lt;p onclick="x()"&gt;The bank held rates.&lt;iframe src="https://evil.example"&gt;&lt;/iframe&gt;&lt;/p&gt;</content></entry>
</feed>`;

let server: Server;
let base: string;
const hits: { path: string; inm: string | undefined; ims: string | undefined }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push({
      path: req.url ?? '',
      inm: req.headers['if-none-match'],
      ims: req.headers['if-modified-since'],
    });
    if (req.url === '/good.rss') {
      if (req.headers['if-none-match'] === '"v1"') {
        res.writeHead(304).end();
        return;
      }
      res
        .writeHead(200, {
          'content-type': 'application/rss+xml',
          etag: '"v1"',
          'last-modified': 'Mon, 23 Nov 2026 06:00:00 GMT',
        })
        .end(RSS);
    } else if (req.url === '/good.atom') {
      res.writeHead(200, { 'content-type': 'application/atom+xml' }).end(ATOM);
    } else if (req.url === '/malformed') {
      res.writeHead(200, { 'content-type': 'text/xml' }).end('<html><body>not a feed <<<');
    } else if (req.url === '/huge') {
      res.writeHead(200, { 'content-type': 'text/xml' });
      const chunk = `<item><title>${'x'.repeat(1000)}</title></item>`;
      let sent = 0;
      const write = () => {
        while (sent < 5000) {
          sent += 1;
          if (!res.write(chunk)) {
            res.once('drain', write);
            return;
          }
        }
        res.end();
      };
      res.write('<rss version="2.0"><channel>');
      write();
    } else if (req.url === '/slow') {
      setTimeout(() => res.writeHead(200).end(RSS), 3000);
    } else {
      res.writeHead(404).end();
    }
  });
  // The test database takes seconds to start: keep idle connections longer than that (Node's default 5 s
  // would close a pooled connection just as the next poll reuses it).
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe('feed parsing (fixture feeds)', () => {
  it('reads RSS 2.0: titles as plain text, bodies sanitised, no tracking pixel', () => {
    const items = parseFeedItems(RSS);
    expect(items.map((i) => i.guid)).toEqual(['rss-1', 'rss-2']);
    expect(items[0]?.title).toBe('日経平均、3日続伸');
    expect(items[0]?.html).toBe(
      '<p>東証は<b>続伸</b><a rel="noopener noreferrer nofollow" target="_blank">x</a></p>',
    );
    expect(items[1]?.title).toBe('円安進む');
    expect(items[0]?.published?.toISOString()).toBe('2026-11-23T06:00:00.000Z');
  });

  it('reads Atom: no event handler, no iframe', () => {
    const [item] = parseFeedItems(ATOM);
    expect(item).toMatchObject({
      guid: 'urn:atom:1',
      title: 'Rates unchanged',
      link: 'https://atom.example/1',
    });
    expect(item?.html).toBe('<p>The bank held rates.</p>');
  });

  it('refuses what is not a feed', () => {
    expect(() => parseFeedItems('<html><body>nope')).toThrow();
  });
});

describe('fetching feeds from the fixture server', () => {
  it('sends the validators of the last poll, and reads 304 as not modified', async () => {
    const first = await fetchFeed(`${base}/good.rss`, { etag: null, lastModified: null });
    expect(first).toMatchObject({ kind: 'ok', etag: '"v1"', lastModified: 'Mon, 23 Nov 2026 06:00:00 GMT' });
    const second = await fetchFeed(`${base}/good.rss`, {
      etag: '"v1"',
      lastModified: 'Mon, 23 Nov 2026 06:00:00 GMT',
    });
    expect(second).toEqual({ kind: 'not_modified' });
    expect(hits.at(-1)).toMatchObject({ inm: '"v1"', ims: 'Mon, 23 Nov 2026 06:00:00 GMT' });
  });

  it('gives up on a huge feed past the cap, and on a slow one past the timeout', async () => {
    expect(
      await fetchFeed(`${base}/huge`, { etag: null, lastModified: null }, { maxBytes: 100_000 }),
    ).toMatchObject({
      kind: 'failed',
      error: expect.stringContaining('too large') as string,
    });
    expect(await fetchFeed(`${base}/slow`, { etag: null, lastModified: null }, { timeoutMs: 300 })).toEqual({
      kind: 'failed',
      error: 'timed out',
    });
    expect(await fetchFeed(`${base}/missing`, { etag: null, lastModified: null })).toEqual({
      kind: 'failed',
      error: 'HTTP 404',
    });
  });
});

describe('polling feeds into articles', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const feed = async (path: string, name = path) =>
    createFeed(
      t.database.db,
      { name, url: `${base}${path}`, locale: 'ja', poll_minutes: 30, active: true },
      t.clock.now(),
    );

  it('imports each item once, keeps the validators, and reads a 304 as nothing new', async () => {
    const f = await feed('/good.rss', 'Fixture News');
    expect(await pollFeed(t.database.db, f, t.clock.now())).toEqual({
      state: 'ok',
      imported: 2,
      error: null,
    });
    const [stored] = await t.database.db.select().from(newsFeeds).where(eq(newsFeeds.id, f.id));
    expect(stored).toMatchObject({ state: 'ok', etag: '"v1"' });
    // polled again without validators: the same items are not imported twice
    expect(await pollFeed(t.database.db, f, t.clock.now())).toMatchObject({ state: 'ok', imported: 0 });
    if (!stored) throw new Error('feed vanished');
    expect(await pollFeed(t.database.db, stored, t.clock.now())).toMatchObject({
      state: 'not_modified',
      imported: 0,
    });
    const articles = await t.database.db.select().from(newsArticles).where(eq(newsArticles.feedId, f.id));
    expect(articles).toHaveLength(2);
    const versions = await t.database.db.select().from(newsArticleVersions);
    expect(versions.every((v) => !/script|javascript:|onmouseover/i.test(v.html + v.title))).toBe(true);
    const res = await t.app.inject({ url: '/api/news?lang=en&category=feed' });
    const page = res.json<{ data: { items: { title: string; source: string; fallback: boolean }[] } }>().data;
    expect(page.items.map((i) => i.title)).toEqual(['円安進む', '日経平均、3日続伸']);
    expect(page.items[0]).toMatchObject({ source: 'Fixture News', fallback: true });
  });

  it('records a clear failed state for a malformed, a huge and a slow feed', async () => {
    const bad = await feed('/malformed');
    const result = await pollFeed(t.database.db, bad, t.clock.now());
    expect(result.state).toBe('failed');
    expect(result.error).toMatch(/^not a feed/);
    const huge = await feed('/huge');
    expect(await pollFeed(t.database.db, huge, t.clock.now(), { maxBytes: 100_000 })).toMatchObject({
      state: 'failed',
    });
    const slow = await feed('/slow');
    expect(await pollFeed(t.database.db, slow, t.clock.now(), { timeoutMs: 300 })).toEqual({
      state: 'failed',
      imported: 0,
      error: 'timed out',
    });
    const [row] = await t.database.db.select().from(newsFeeds).where(eq(newsFeeds.id, slow.id));
    expect(row).toMatchObject({ state: 'failed', lastError: 'timed out' });
  });
});
