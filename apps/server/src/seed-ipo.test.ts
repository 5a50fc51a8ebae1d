import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offeringApplications, offerings, positions, users } from './db/schema.js';
import { createTestApp, type TestApp } from './test/harness.js';
import { ledgerHeadMismatches } from './modules/ledger/ledger.js';
import { phaseOf } from './modules/ipo/offerings.js';
import { DEMO, seedDemo } from './seed.js';

/** The demo arrives with an IPO in each state and an open distribution (seed-ipo.ts), once. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ DEMO_MODE: 'true', DEMO_CASH_YEN: '10000000' });
});
afterAll(() => t.close());

describe('the demo offerings', () => {
  it('shows every phase and state, with the demo user in them', async () => {
    const trading = { market: t.app.ctx.market, fees: t.app.ctx.fees };
    await seedDemo(t.database.db, t.clock, 10_000_000, t.app.ctx.uploads, t.app.ctx.myNumberKey, trading);
    await seedDemo(t.database.db, t.clock, 10_000_000, t.app.ctx.uploads, t.app.ctx.myNumberKey, trading);
    const rows = await t.database.db.select().from(offerings);
    expect(rows).toHaveLength(7);
    const now = t.clock.now();
    const phases = new Map(rows.map((r) => [r.code + r.kind, phaseOf(r, now)]));
    expect(phases.get('9551ipo')).toBe('upcoming');
    expect(phases.get('9552ipo')).toBe('open');
    expect(phases.get('9553ipo')).toBe('closed');
    expect(phases.get('9554ipo')).toBe('drawn');
    expect(phases.get('9555ipo')).toBe('listed');
    expect(phases.get('7203distribution')).toBe('open');
    const [demo] = await t.database.db.select().from(users).where(eq(users.phone, DEMO.phone));
    const mine = await t.database.db
      .select()
      .from(offeringApplications)
      .where(eq(offeringApplications.userId, demo?.id ?? 0));
    expect(mine.map((a) => a.state).sort()).toEqual(['applied', 'approved', 'lost', 'won']);
    const held = await t.database.db.select().from(positions).where(eq(positions.code, '9555'));
    expect(held[0]).toMatchObject({ quantity: 300, avgPrice: 68_000 });
    expect(await ledgerHeadMismatches(t.database.db)).toEqual([]);
  });
});
