import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sen, type TOrder } from '@kabuto/contract';
import { dividendAnnouncements, dividendPayments, ledgerHeads, messages } from '../../db/schema.js';
import { body, createTestApp, registerAndLogin, type TestApp } from '../../test/harness.js';
import { TestMarket } from '../../test/test-market.js';
import { hasRun } from '../jobs/run-once.js';
import { ledgerHeadMismatches } from '../ledger/ledger.js';
import { announceDividend, DIVIDEND_JOB, runDividendJob } from './dividends.js';

/**
 * The dividend job pays an announcement's holders in parts (user id modulo the number of parts), each part
 * its own runOnce transaction (ADR 0037). Four holders of Sony (6758), ¥50 a share, two parts: one part fails
 * (a holder's ledger head is missing, as a crash would leave it mid-way) and rolls back whole while the other
 * commits; the announcement stays unpaid; the next passes (two at once, then one more) pay the failed part
 * once, and nobody twice. 100 shares: gross ¥5,000, withheld ¥765 + ¥250, net ¥3,985.
 */
let t: TestApp;
let market: TestMarket;
const TOKYO = (date: string, hhmm: string) => new Date(`${date}T${hhmm}:00+09:00`).toISOString();

beforeAll(async () => {
  t = await createTestApp({ DEMO_MODE: 'true', DEMO_CASH_YEN: '1000000' }, undefined, {
    market: (clock) => (market = new TestMarket(clock)),
  });
  market.set('6758', 4000);
});
afterAll(() => t.close());

describe('dividends paid in parts', () => {
  it('commits each part once; a failed part is paid whole by the next pass, and no holder twice', async () => {
    t.clock.set(TOKYO('2026-11-24', '10:00'));
    const announced = await announceDividend(
      t.database.db,
      null,
      { code: '6758', per_share: sen(5000), record_date: '2026-11-30', payment_date: '2026-12-15' },
      t.clock.now(),
    );
    const holders: number[] = [];
    for (let i = 0; i < 4; i++) {
      const u = await registerAndLogin(t);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/trade/placeOrder?lang=en',
        headers: { token: u.token, 'idempotency-key': randomUUID() },
        payload: { code: '6758', direction: 'long', price_type: 'market', quantity: 100, leverage: 1 },
      });
      expect(body<TOrder>(res).code, res.body).toBe(1);
      holders.push(u.userId);
    }
    const broken = holders[0] ?? 0;
    const samepart = holders.filter((id) => id % 2 === broken % 2);
    const otherPart = holders.filter((id) => id % 2 !== broken % 2);
    expect(otherPart.length).toBeGreaterThan(0);
    const [head] = await t.database.db.select().from(ledgerHeads).where(eq(ledgerHeads.userId, broken));
    if (!head) throw new Error('no head');
    await t.database.db.delete(ledgerHeads).where(eq(ledgerHeads.userId, broken));

    t.clock.set(TOKYO('2026-12-15', '09:00'));
    const now = t.clock.now();
    await expect(runDividendJob(t.database.db, now, { parts: 2 })).rejects.toThrow(/no ledger head/);
    const key = `announcement:${announced.id}`;
    const paidFirst = await t.database.db.select().from(dividendPayments);
    expect(paidFirst.map((p) => p.userId).sort()).toEqual([...otherPart].sort());
    expect(await hasRun(t.database.db, DIVIDEND_JOB, key)).toBe(false);
    const [unpaid] = await t.database.db
      .select({ paidAt: dividendAnnouncements.paidAt })
      .from(dividendAnnouncements)
      .where(eq(dividendAnnouncements.id, announced.id));
    expect(unpaid?.paidAt).toBeNull();

    await t.database.db.insert(ledgerHeads).values(head);
    const [a, b] = await Promise.all([
      runDividendJob(t.database.db, now, { parts: 2 }),
      runDividendJob(t.database.db, now, { parts: 2 }),
    ]);
    expect(await runDividendJob(t.database.db, now, { parts: 2 })).toEqual([]);
    expect(a.length + b.length).toBe(samepart.length);
    expect(await hasRun(t.database.db, DIVIDEND_JOB, key)).toBe(true);

    const paid = await t.database.db.select().from(dividendPayments);
    expect(paid.map((p) => p.userId).sort()).toEqual([...holders].sort());
    expect(paid.every((p) => p.net === 3_985_00 && p.gross === 5_000_00)).toBe(true);
    for (const id of holders) {
      const notes = await t.database.db.select().from(messages).where(eq(messages.userId, id));
      expect(notes.filter((m) => m.kind === 'dividend.paid')).toHaveLength(1);
    }
    expect(await ledgerHeadMismatches(t.database.db)).toEqual([]);
  });
});
