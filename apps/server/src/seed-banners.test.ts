import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { banners } from './db/schema.js';
import { BANNER_HEIGHT, BANNER_WIDTH, seedDemoBanners } from './seed-banners.js';
import { body, createTestApp, type TestApp } from './test/harness.js';
import sharp from 'sharp';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('the demo banners seed (ADR 0041)', () => {
  it('publishes three banners once, in six languages, with small pictures made at seed time', async () => {
    await seedDemoBanners(t.database.db, t.clock, t.app.ctx.uploads);
    await seedDemoBanners(t.database.db, t.clock, t.app.ctx.uploads);
    expect(await t.database.db.select().from(banners)).toHaveLength(3);
    for (const lang of ['jp', 'cn', 'zh-Hant', 'en', 'sp', 'fr']) {
      const items = body<{ items: { title: string; locale: string; image_url: string }[] }>(
        await t.app.inject({ url: `/api/banners?lang=${lang}` }),
      ).data.items;
      expect(items).toHaveLength(3);
      expect(new Set(items.map((i) => i.locale)).size).toBe(1);
    }
    const items = body<{ items: { image_url: string; link: string }[] }>(
      await t.app.inject({ url: '/api/banners' }),
    ).data.items;
    for (const item of items) {
      const picture = await t.app.inject({ url: item.image_url });
      expect(picture.statusCode).toBe(200);
      expect(picture.rawPayload.byteLength).toBeLessThan(30 * 1024);
      const meta = await sharp(picture.rawPayload).metadata();
      expect([meta.width, meta.height]).toEqual([BANNER_WIDTH, BANNER_HEIGHT]);
    }
  });
});
