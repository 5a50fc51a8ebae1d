import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dividendAnnouncements, productNavs, products } from './db/schema.js';
import { createTestApp, type TestApp } from './test/harness.js';
import { runNavJob } from './modules/products/nav-job.js';
import { seedDemo } from './seed.js';

/** The demo arrives with three products with NAV history and the next dividends of its stocks, once. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ DEMO_MODE: 'true', DEMO_CASH_YEN: '10000000' });
});
afterAll(() => t.close());

describe('the demo products and dividends', () => {
  it('seeds three model portfolios with four weeks of NAV and upcoming dividends, once', async () => {
    const trading = { market: t.app.ctx.market, fees: t.app.ctx.fees };
    await seedDemo(t.database.db, t.clock, 10_000_000, t.app.ctx.uploads, t.app.ctx.myNumberKey, trading);
    await seedDemo(t.database.db, t.clock, 10_000_000, t.app.ctx.uploads, t.app.ctx.myNumberKey, trading);
    const list = await t.database.db.select().from(products);
    expect(list.map((p) => p.name)).toEqual([
      'Kabuto Japan Large-Cap Index (TOPIX-like)',
      'Kabuto High Dividend Japan',
      'Kabuto Japan Growth',
    ]);
    const navs = await t.database.db.select().from(productNavs);
    expect(navs).toHaveLength(3 * 21);
    // the NAVs moved with the simulated closes (not a constant line)
    expect(new Set(navs.map((n) => n.nav)).size).toBeGreaterThan(10);
    // the job finds nothing more to strike today (TEST_NOW is 10:00, before the cutoff)
    await runNavJob(t.database.db, t.app.ctx.market, t.clock.now());
    expect(await t.database.db.select().from(productNavs)).toHaveLength(3 * 21);
    const dividends = await t.database.db.select().from(dividendAnnouncements);
    expect(dividends.map((d) => [d.code, d.recordDate]).sort()).toEqual([
      ['6758', '2027-03-31'],
      ['7203', '2027-03-31'],
      ['8306', '2027-03-31'],
    ]);
    expect(dividends.every((d) => d.source?.includes('investor-relations'))).toBe(true);
  });
});
