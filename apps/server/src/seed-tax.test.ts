import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withholdingFor } from '@kabuto/contract';
import { orders, positions, users } from './db/schema.js';
import { createTestApp, type TestApp } from './test/harness.js';
import { nisaQuota } from './modules/tax/nisa.js';
import { taxReport } from './modules/tax/report.js';
import { DEMO, seedDemo } from './seed.js';

/** The demo arrives with a tax history made by the real order functions (seed-tax.ts), once. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ DEMO_MODE: 'true', DEMO_CASH_YEN: '10000000' });
});
afterAll(() => t.close());

describe('the demo tax history', () => {
  it('holds Toyota at its moving average, a gain withheld on, a loss refunded, and a NISA purchase', async () => {
    const trading = { market: t.app.ctx.market, fees: t.app.ctx.fees };
    await seedDemo(t.database.db, t.clock, 10_000_000, t.app.ctx.uploads, t.app.ctx.myNumberKey, trading);
    await seedDemo(t.database.db, t.clock, 10_000_000, t.app.ctx.uploads, t.app.ctx.myNumberKey, trading);
    const [demo] = await t.database.db.select().from(users).where(eq(users.phone, DEMO.phone));
    const userId = demo?.id ?? 0;
    expect(await t.database.db.select().from(orders).where(eq(orders.userId, userId))).toHaveLength(5);

    const report = await taxReport(t.database.db, userId, 2026, 'specific', 'ja');
    expect(report.lines.map((l) => [l.date, l.quantity, Math.sign(l.gain)])).toEqual([
      ['2026-06-09', 300, 1],
      ['2026-09-08', 100, -1],
    ]);
    const due = withholdingFor(report.totals.gain, { national_rate_pcm: 15_315, local_rate_pcm: 5_000 });
    expect(report.withheld).toEqual({ national: due.national, local: due.local });
    expect(report.withheld.national).toBeGreaterThan(0);

    const held = await t.database.db.select().from(positions).where(eq(positions.userId, userId));
    const toyota = held.find((p) => p.code === '7203' && p.status === 'holding');
    expect(toyota).toMatchObject({ quantity: 100, taxAccount: 'specific' });
    const quota = await nisaQuota(t.database.db, userId, new Date('2026-11-24T01:00:00.000Z'));
    expect(quota.annual_used).toBe(245_050 * 400);
  });
});
