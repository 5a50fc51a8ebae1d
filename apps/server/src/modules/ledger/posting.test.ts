import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { negSen, sen } from '@kabuto/contract';
import type { Executor, Tx } from '../../db/types.js';
import { run, statement } from '../../db/statement.js';
import { journalEntries, ledgerHeads, messages, postings } from '../../db/schema.js';
import { createTestApp, registerAndLogin, type TestApp } from '../../test/harness.js';
import { ledgerHeadMismatches, lockUser, lockUsers, readLedger } from './heads.js';
import {
  entryCtes,
  entryParams,
  postEntries,
  postEntry,
  type EntryDraft,
  type EntryParams,
} from './posting.js';

/**
 * entryCtes is the one SQL generator behind postEntry and the order path's composite statement: the same
 * drafts written both ways, on two databases that are alike, give the same entries, postings, heads and
 * chain hashes. The composite here is built like the order's (trading's writeOrderStatement): the entry's
 * id drawn with the user's lock and ledger, the entry's CTEs beside a write of the caller's own.
 */
let byPostEntry: TestApp;
let byComposite: TestApp;
let byBatch: TestApp;
let userId: number;
beforeAll(async () => {
  byPostEntry = await createTestApp();
  byComposite = await createTestApp();
  byBatch = await createTestApp();
  const a = await registerAndLogin(byPostEntry, { verified: false });
  const b = await registerAndLogin(byComposite, { verified: false });
  const c = await registerAndLogin(byBatch, { verified: false });
  expect(a.userId).toBe(b.userId);
  expect(c.userId).toBe(a.userId);
  userId = a.userId;
}, 180_000); // three fresh databases
afterAll(async () => {
  await byPostEntry.close();
  await byComposite.close();
  await byBatch.close();
});

const at = new Date('2026-11-24T01:00:00.000Z');
const drafts = (user: number): EntryDraft[] => [
  {
    kind: 'demo_funding',
    params: { amount: 1_000_000_07 },
    memo: 'first',
    at,
    lines: [
      { user, account: 'cash', amount: sen(1_000_000_07) },
      { house: 'demo_funding', amount: negSen(sen(1_000_000_07)) },
    ],
  },
  {
    kind: 'margin_open',
    params: { order_no: '2026112400000001', code: '7203', quantity: 100, price: 250_000 },
    ref: '2026112400000001',
    at,
    lines: [
      { user, account: 'reserved', amount: sen(0) },
      { user, account: 'cash', amount: sen(-333_334) },
      { user, account: 'margin', amount: sen(333_333) },
      { house: 'fees', amount: sen(1) },
    ],
  },
  {
    kind: 'order_reserve',
    params: { order_no: '2026112400000002', code: '6758', quantity: 100, amount: 1_300_000 },
    ref: '2026112400000002',
    at: new Date(at.getTime() + 1_000),
    lines: [
      { user, account: 'cash', amount: sen(-5_00) },
      { user, account: 'reserved', amount: sen(5_00) },
    ],
  },
];

/** An order-path-like statement: the entry's CTEs and a message of the caller's own, in one statement. */
const composite = statement<EntryParams & { messageId: number; userId: number; at: Date }>(
  'test_entry_composite',
  (p) => `with ${entryCtes(p)},
    noted as (
      insert into messages (id, user_id, kind, params, created_at) overriding system value
      values (${p('messageId')}::int, ${p('userId')}::int, 'test', '{}', ${p('at')}::timestamptz)
    )
    select 1`,
);

async function writeComposite(tx: Tx, draft: EntryDraft): Promise<number> {
  const {
    drawn: [entryId = 0, messageId = 0],
  } = await readLedger(tx, userId, { draw: [journalEntries, messages], lock: true });
  await run(tx, composite, { ...(await entryParams(tx, entryId, draft)), messageId, userId, at: draft.at });
  return entryId;
}

async function ledgerOf(db: Executor) {
  return {
    entries: await db.select().from(journalEntries).orderBy(journalEntries.id),
    postings: (await db.select().from(postings).orderBy(postings.id)).map(({ id: _id, ...p }) => p),
    head: await db.select().from(ledgerHeads).where(eq(ledgerHeads.userId, userId)),
  };
}

describe('one posting generator', () => {
  it('writes the same drafts alike through postEntry and through a composite statement', async () => {
    const idsA: number[] = [];
    const idsB: number[] = [];
    // Two drafts in one transaction (the second continues the chain from the head the first left), one more
    // in a transaction of its own.
    const [first, second, third] = drafts(userId);
    if (!first || !second || !third) throw new Error('three drafts');
    await byPostEntry.database.db.transaction(async (tx) => {
      await lockUser(tx, userId);
      idsA.push(await postEntry(tx, first), await postEntry(tx, second));
    });
    await byPostEntry.database.db.transaction(async (tx) => {
      await lockUser(tx, userId);
      idsA.push(await postEntry(tx, third));
    });
    await byComposite.database.db.transaction(async (tx) => {
      idsB.push(await writeComposite(tx, first), await writeComposite(tx, second));
    });
    await byComposite.database.db.transaction(async (tx) => {
      idsB.push(await writeComposite(tx, third));
    });
    // postEntries, the daily jobs' batch: two drafts in one statement, then one more in a transaction of its own
    const idsC: number[] = [];
    await byBatch.database.db.transaction(async (tx) => {
      await lockUsers(tx, [userId]);
      idsC.push(...(await postEntries(tx, [first, second])));
    });
    await byBatch.database.db.transaction(async (tx) => {
      await lockUsers(tx, [userId]);
      idsC.push(...(await postEntries(tx, [third])));
    });

    const a = await ledgerOf(byPostEntry.database.db);
    const b = await ledgerOf(byComposite.database.db);
    // The composite drew a message id with each entry's; the entries' ids are the same.
    expect(idsB).toEqual(idsA);
    expect(b.entries).toEqual(a.entries);
    expect(b.postings).toEqual(a.postings);
    expect(b.head).toEqual(a.head);
    const c = await ledgerOf(byBatch.database.db);
    expect(idsC).toEqual(idsA);
    expect(c.entries).toEqual(a.entries);
    expect(c.postings).toEqual(a.postings);
    expect(c.head).toEqual(a.head);
    expect(await ledgerHeadMismatches(byBatch.database.db)).toEqual([]);
    // Not vacuous: seven non-zero user and house lines, the user's chain three entries long.
    expect(a.postings).toHaveLength(7);
    // Each entry keeps its draft's memo params (as jsonb, read back as the object).
    expect(a.entries.map((e) => e.params)).toEqual(drafts(userId).map((d) => d.params));
    expect(a.postings.filter((p) => p.userId === userId).map((p) => p.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(a.head[0]).toMatchObject({ seq: 5, cash: 1_000_000_07 - 333_334 - 5_00, margin: 333_333 });
  });
});
