import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sen, type TOrder } from '@kabuto/contract';
import { brokerageAccounts, dividendPayments, messages } from '../../db/schema.js';
import { body, createTestApp, registerAndLogin, type TestApp } from '../../test/harness.js';
import { TestMarket } from '../../test/test-market.js';
import { ledgerHeadMismatches, userBalances } from '../ledger/ledger.js';
import { announceDividend, runDividendJob } from './dividends.js';

/**
 * The dividend job pays holders in batches (lockUsers, prepareEntries, multi-row inserts; ADR 0027). Five holders
 * of Toyota (7203), one of them in two accounts (特定 and NISA), paid ¥37.50 a share in batches of two: six
 * payments over three batches, each holding credited exactly once although the job runs twice at once and
 * once more, and the ledger balances. 100 shares: gross ¥3,750, withheld ¥574 + ¥187, net ¥2,989.
 */
let t: TestApp;
let market: TestMarket;
const TOKYO = (date: string, hhmm: string) => new Date(`${date}T${hhmm}:00+09:00`).toISOString();
type User = Awaited<ReturnType<typeof registerAndLogin>>;

beforeAll(async () => {
  t = await createTestApp({ DEMO_MODE: 'true', DEMO_CASH_YEN: '1000000' }, undefined, {
    market: (clock) => (market = new TestMarket(clock)),
  });
  market.set('7203', 3100);
});
afterAll(() => t.close());

async function buy(u: User, extra: object = {}) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/trade/placeOrder?lang=en',
    headers: { token: u.token, 'idempotency-key': randomUUID() },
    payload: { code: '7203', direction: 'long', price_type: 'market', quantity: 100, leverage: 1, ...extra },
  });
  expect(body<TOrder>(res).code, res.body).toBe(1);
}

describe('dividends credited in batches', () => {
  it('credits each holding of a batch exactly once, and the ledger balances', async () => {
    t.clock.set(TOKYO('2026-11-24', '10:00'));
    await announceDividend(
      t.database.db,
      null,
      { code: '7203', per_share: sen(3750), record_date: '2026-11-30', payment_date: '2026-12-15' },
      t.clock.now(),
    );
    const holders: User[] = [];
    for (let i = 0; i < 5; i++) {
      const u = await registerAndLogin(t);
      await buy(u);
      holders.push(u);
    }
    const both = holders[2];
    if (!both) throw new Error('five holders');
    await t.database.db
      .update(brokerageAccounts)
      .set({ nisaOpenedAt: t.clock.now() })
      .where(eq(brokerageAccounts.userId, both.userId));
    await buy(both, { account: 'nisa' });
    const before = new Map<number, number>();
    for (const u of holders) before.set(u.userId, (await userBalances(t.database.db, u.userId)).cash);

    t.clock.set(TOKYO('2026-12-15', '09:00'));
    const now = t.clock.now();
    const [a, b] = await Promise.all([
      runDividendJob(t.database.db, now, { batchSize: 2 }),
      runDividendJob(t.database.db, now, { batchSize: 2 }),
    ]);
    expect(await runDividendJob(t.database.db, now, { batchSize: 2 })).toEqual([]);
    expect(a.length + b.length).toBe(6);

    const paid = await t.database.db.select().from(dividendPayments);
    expect(paid).toHaveLength(6);
    for (const u of holders) {
      const mine = paid.filter((p) => p.userId === u.userId);
      const expected = u === both ? [2_989_00, 3_750_00] : [2_989_00];
      expect(mine.map((p) => p.net).sort((x, y) => x - y)).toEqual(expected);
      const credited = expected.reduce((s, n) => s + n, 0);
      expect((await userBalances(t.database.db, u.userId)).cash).toBe((before.get(u.userId) ?? 0) + credited);
      const notes = await t.database.db.select().from(messages).where(eq(messages.userId, u.userId));
      expect(notes.filter((m) => m.kind === 'dividend.paid')).toHaveLength(expected.length);
    }
    expect(new Set(paid.map((p) => p.entryId)).size).toBe(6);
    expect(await ledgerHeadMismatches(t.database.db)).toEqual([]);
  });
});
