import { afterAll, beforeAll, expect, it } from 'vitest';
import { negSen, sen } from '@kabuto/contract';
import type { Tx } from '../../db/types.js';
import { run, statement } from '../../db/statement.js';
import { createTestApp, registerAndLogin, type TestApp } from '../../test/harness.js';
import { describeNeeding } from '../../test/needs.js';
import { ledgerHeadMismatches, lockUser, postEntry, readLedger, userBalances } from './ledger.js';

/**
 * Why the balances are read from the locked ledger head (ADR 0016): in READ COMMITTED a statement's
 * snapshot is taken when it starts, so a statement that waits for the user's lock and then sums the
 * postings misses what the lock's holder wrote; the locked row itself is re-read after the wait and is
 * current. Two waiters on one lock, one of each kind. `npm test` runs this file in its PostgreSQL step
 * (scripts/test.mjs); without TEST_DATABASE_URL the suite is reported as not run (test/needs.ts).
 */
let t: TestApp;
let userId: number;

/** The lock with the sum of the cash postings, read in the same statement (what ADR 0016 avoids). */
const lockAndSum = statement<{ userId: number }, { summed: string }>(
  'test_lock_and_sum',
  (
    p,
  ) => `select (select coalesce(sum(p.amount), 0) from postings p join ledger_accounts a on a.id = p.account_id
      where a.user_id = h.user_id and a.kind = 'cash')::text as summed
    from ledger_heads h where h.user_id = ${p('userId')}::int for no key update`,
);

const lockWaiters = statement<Record<string, never>, { n: number }>(
  'test_lock_waiters',
  () => `select count(*)::int as n from pg_stat_activity
    where datname = current_database() and wait_event_type = 'Lock' and state = 'active'`,
);
const waitersOnLocks = async () => (await run(t.database.db, lockWaiters, {}))[0]?.n ?? 0;
const fund = (tx: Tx, amount: number) =>
  postEntry(tx, {
    kind: 'deposit',
    params: {},
    at: new Date(),
    lines: [
      { user: userId, account: 'cash', amount: sen(amount) },
      { house: 'demo_funding', amount: negSen(sen(amount)) },
    ],
  });

describeNeeding('postgres', 'the user lock on PostgreSQL', () => {
  beforeAll(async () => {
    t = await createTestApp();
    userId = (await registerAndLogin(t, { verified: false })).userId;
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers the balances as the previous holder left them, though the waiter’s snapshot is older', async () => {
    const db = t.database.db;
    const before = await userBalances(db, userId);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let posted = () => {};
    const hasPosted = new Promise<void>((resolve) => (posted = resolve));
    const holder = db.transaction(async (tx) => {
      await lockUser(tx, userId);
      await fund(tx, 10_000);
      posted();
      await held;
    });
    await hasPosted;
    const headWaiter = db.transaction(async (tx) => {
      const read = await readLedger(tx, userId, { lock: true });
      // The next entry continues the chain from the holder's posting.
      await fund(tx, 1);
      return read.balances.cash;
    });
    const sumWaiter = db.transaction(async (tx) => (await run(tx, lockAndSum, { userId }))[0]?.summed);
    for (let i = 0; i < 200 && (await waitersOnLocks()) < 2; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(await waitersOnLocks()).toBe(2);
    release();
    await holder;
    const [fromHead, fromSum] = await Promise.all([headWaiter, sumWaiter]);
    expect(fromHead).toBe(before.cash + 10_000);
    // Whichever waiter got the lock first, the summing one read the postings as they were when it started.
    expect(Number(fromSum)).toBe(before.cash);
    expect((await userBalances(db, userId)).cash).toBe(before.cash + 10_001);
    expect(await ledgerHeadMismatches(db)).toEqual([]);
  });
});
