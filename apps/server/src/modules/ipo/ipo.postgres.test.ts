import { signInOperator } from '../../test/operators.js';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { yen, type TApplication } from '@kabuto/contract';
import { jobRuns, journalEntries, offeringApplications } from '../../db/schema.js';
import { body, createTestApp, registerAndLogin, TEST_NOW, type TestApp } from '../../test/harness.js';
import { describeNeeding } from '../../test/needs.js';
import { fundDemoCash, ledgerHeadMismatches, userBalances } from '../ledger/ledger.js';
import { runOfferingSteps } from './job.js';

/**
 * Concurrency on PostgreSQL (issue 16): 100 concurrent applications from one account (different
 * Idempotency-Keys) reserve once; two passes racing at the drawing time (each on its own connection, as
 * two processes would be) give one draw.
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx vitest run apps/server/src/modules/ipo/ipo.postgres.test.ts
 */
let t: TestApp;
let admin: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signInOperator(t, 'pg-admin', 'administrator');
});
afterAll(() => t.close());

const at = (h: number) => new Date(Date.parse(TEST_NOW) + h * 3600_000).toISOString();

describeNeeding('postgres', 'offerings under concurrency', () => {
  it('never over-reserves under 100 concurrent applications, and draws once when two passes race', async () => {
    t.clock.set(new Date(TEST_NOW));
    const published = await t.app.inject({
      method: 'POST',
      url: '/api/console/ipo/offerings',
      headers: admin,
      payload: {
        kind: 'ipo',
        code: '996A',
        name: 'Race',
        issuer: 'Race K.K.',
        market: 'TSE Growth',
        price_low: yen(1_000),
        price_high: yen(1_000),
        offering_units: 3,
        cap_units: 1,
        window_open: at(-1),
        window_close: at(1),
        draw_at: at(2),
        purchase_deadline: at(10),
        listing_at: at(20),
      },
    });
    const offering = body<{ id: number }>(published).data;
    await t.app.inject({
      method: 'POST',
      url: `/api/console/ipo/offerings/${offering.id}/offer-price`,
      headers: admin,
      payload: { offer_price: yen(1_000) },
    });
    const u = await registerAndLogin(t);
    await fundDemoCash(t.database.db, u.userId, yen(1_000_000), t.clock.now());
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: `/api/ipo/offerings/${offering.id}/applications`,
          headers: { token: u.token, 'idempotency-key': `race-${i}-${Date.now()}` },
          payload: { units: 1 },
        }),
      ),
    );
    const codes = answers.map((r) => body<TApplication>(r).code);
    expect(codes.filter((c) => c === 1)).toHaveLength(1);
    expect(codes.filter((c) => c !== 1).every((c) => c === 1505)).toBe(true);
    expect(await userBalances(t.database.db, u.userId)).toMatchObject({
      cash: yen(1_000_000 - 100_000),
      reserved: yen(100_000),
    });

    for (let i = 0; i < 5; i++) {
      const o = await registerAndLogin(t);
      await fundDemoCash(t.database.db, o.userId, yen(1_000_000), t.clock.now());
      await t.app.inject({
        method: 'POST',
        url: `/api/ipo/offerings/${offering.id}/applications`,
        headers: { token: o.token, 'idempotency-key': `other-applicant-${o.userId}-${Date.now()}` },
        payload: { units: 1 },
      });
    }
    t.clock.set(new Date(at(3)));
    const before = (await t.database.db.select().from(journalEntries)).length;
    await Promise.all([
      runOfferingSteps(t.database.db, t.clock.now()),
      runOfferingSteps(t.database.db, t.clock.now()),
    ]);
    const runs = await t.database.db
      .select()
      .from(jobRuns)
      .where(eq(jobRuns.runKey, `draw:${offering.id}`));
    expect(runs).toHaveLength(1);
    const apps = await t.database.db
      .select()
      .from(offeringApplications)
      .where(eq(offeringApplications.offeringId, offering.id));
    expect(apps.filter((a) => a.state === 'won')).toHaveLength(3);
    expect(apps.filter((a) => a.state === 'lost')).toHaveLength(3);
    // three losers released once each: three entries, not six
    expect((await t.database.db.select().from(journalEntries)).length - before).toBe(3);
    expect(await ledgerHeadMismatches(t.database.db)).toEqual([]);
  });
});
