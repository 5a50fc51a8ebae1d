import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCALES } from '@kabuto/contract';
import { newsArticles } from './db/schema.js';
import { seedDemoNews } from './seed-news.js';
import { body, createTestApp, type TestApp } from './test/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('the demo news seed (ADR 0029)', () => {
  it('publishes a dozen articles across categories and languages, and the channels, once', async () => {
    await seedDemoNews(t.database.db, t.clock);
    await seedDemoNews(t.database.db, t.clock);
    const rows = await t.database.db.select().from(newsArticles);
    expect(rows).toHaveLength(12);
    expect(new Set(rows.map((r) => r.category)).size).toBeGreaterThanOrEqual(4);
    for (const lang of ['jp', 'en', 'fr', 'sp', 'cn', 'zh-Hant']) {
      const page = body<{ items: { fallback: boolean }[] }>(
        await t.app.inject({ url: `/api/news?lang=${lang}&limit=50` }),
      ).data;
      expect(page.items).toHaveLength(12);
    }
    // French readers see some articles in French, the rest marked as a fallback
    const fr = body<{ items: { locale: string; fallback: boolean }[] }>(
      await t.app.inject({ url: '/api/news?lang=fr&limit=50' }),
    ).data;
    expect(fr.items.some((i) => i.locale === 'fr' && !i.fallback)).toBe(true);
    expect(fr.items.some((i) => i.fallback)).toBe(true);
    const channels = body<{ items: { name: string; url: string }[] }>(
      await t.app.inject({ url: '/api/customer-service' }),
    ).data;
    expect(channels.items.map((c) => c.url.split(':')[0])).toEqual([
      'https',
      'https',
      'https',
      'mailto',
      'tel',
    ]);
    expect(LOCALES).toHaveLength(6);
  });
});
