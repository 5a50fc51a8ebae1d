import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { legalCapBp, yen } from '@kabuto/contract';
import { loanProducts, loans, users } from './db/schema.js';
import { ledgerHeadMismatches } from './modules/ledger/ledger.js';
import { createTestApp, type TestApp } from './test/harness.js';
import { DEMO, seedDemo } from './seed.js';

/** Issue 18: the demo arrives with a lawful loan product and one loan in progress, seeded once. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ DEMO_MODE: 'true', DEMO_CASH_YEN: '10000000' });
});
afterAll(() => t.close());

describe('the demo loans', () => {
  it('seeds one lawful product and one loan in progress for the demo user, once', async () => {
    await seedDemo(t.database.db, t.clock, 10_000_000, t.app.ctx.uploads, t.app.ctx.myNumberKey);
    await seedDemo(t.database.db, t.clock, 10_000_000, t.app.ctx.uploads, t.app.ctx.myNumberKey);
    const products = await t.database.db.select().from(loanProducts);
    expect(products).toHaveLength(1);
    const [product] = products;
    expect(product?.rateBp).toBeLessThanOrEqual(legalCapBp(product?.maxYen ?? 0));
    const [demo] = await t.database.db.select().from(users).where(eq(users.phone, DEMO.phone));
    const rows = await t.database.db
      .select()
      .from(loans)
      .where(eq(loans.userId, demo?.id ?? 0));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'repaying', principal: yen(100_000), dueOn: '2026-12-24' });
    expect(await ledgerHeadMismatches(t.database.db)).toEqual([]);
  });
});
