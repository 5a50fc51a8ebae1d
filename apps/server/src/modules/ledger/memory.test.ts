import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { negSen, sen } from '@kabuto/contract';
import { replaceLogger } from '../../db/driver-internals.js';
import { journalEntries, ledgerAccounts, orders, postings } from '../../db/schema.js';
import { createTestApp, registerAndLogin, type TestApp } from '../../test/harness.js';
import {
  GENESIS_HASH,
  HOUSE_ACCOUNT_KINDS,
  chainHash,
  entryCtes,
  entryParams,
  lockUser,
  postEntry,
  readLedger,
  userBalances,
  type EntryParams,
} from './ledger.js';
import { run, statement } from '../../db/statement.js';

/**
 * What the ledger remembers to save statements on the order path: account ids per database, the user's
 * lock and chain head per transaction. Two databases side by side whose account ids differ for the same
 * user id, so that an id remembered from the wrong one would post to the wrong account.
 */
let a: TestApp;
let b: TestApp;
let userA: number;
let userB: number;
beforeAll(async () => {
  a = await createTestApp();
  b = await createTestApp();
  // In b one more account comes first, so b's user accounts have other ids than a's.
  await b.database.db.insert(ledgerAccounts).values({ userId: null, kind: 'test_extra' });
  userA = (await registerAndLogin(a, { verified: false })).userId;
  userB = (await registerAndLogin(b, { verified: false })).userId;
});
afterAll(async () => {
  await a.close();
  await b.close();
});

const at = new Date('2026-11-24T01:00:00.000Z');
/** A statement that writes nothing but an entry. */
const entryOnly = statement<EntryParams>('test_entry_only', (p) => `with ${entryCtes(p)} select 1`);
const fund = (t: TestApp, userId: number, yen: number) =>
  t.database.db.transaction(async (tx) => {
    await lockUser(tx, userId);
    return postEntry(tx, {
      kind: 'demo_funding',
      params: {},
      at,
      lines: [
        { user: userId, account: 'cash', amount: sen(yen * 100) },
        { house: 'demo_funding', amount: negSen(sen(yen * 100)) },
      ],
    });
  });

async function cashAccountId(t: TestApp, userId: number) {
  const [row] = await t.database.db
    .select({ id: ledgerAccounts.id })
    .from(ledgerAccounts)
    .where(and(eq(ledgerAccounts.userId, userId), eq(ledgerAccounts.kind, 'cash')));
  return row?.id;
}

async function chainOf(t: TestApp, userId: number) {
  return t.database.db.select().from(postings).where(eq(postings.userId, userId)).orderBy(postings.seq);
}

describe('what the ledger remembers', () => {
  it('opens every house account in the migrations', async () => {
    const rows = await a.database.db
      .select({ kind: ledgerAccounts.kind })
      .from(ledgerAccounts)
      .where(isNull(ledgerAccounts.userId));
    expect(rows.map((r) => r.kind).sort()).toEqual([...HOUSE_ACCOUNT_KINDS].sort());
  });

  it('remembers account ids per database, never across databases', async () => {
    expect(userA).toBe(userB);
    expect(await cashAccountId(a, userA)).not.toBe(await cashAccountId(b, userB));
    for (let i = 0; i < 2; i++) {
      await fund(a, userA, 1000);
      await fund(b, userB, 700);
    }
    for (const [t, userId, yen] of [
      [a, userA, 2000],
      [b, userB, 1400],
    ] as const) {
      const cash = await cashAccountId(t, userId);
      const chain = await chainOf(t, userId);
      expect(chain.every((p) => p.accountId === cash)).toBe(true);
      expect((await userBalances(t.database.db, userId)).cash).toBe(yen * 100);
    }
  });

  it('takes the lock once per transaction and continues the chain from the head it read', async () => {
    const sent: string[] = [];
    const before = (await chainOf(a, userA)).length;
    await a.database.db.transaction(async (tx) => {
      const restore = replaceLogger(tx, { logQuery: (q) => sent.push(q) });
      try {
        await lockUser(tx, userA);
        await lockUser(tx, userA);
        expect((await userBalances(tx, userA)).cash).toBe(200_000);
        for (const yen of [1, 2]) {
          await postEntry(tx, {
            kind: 'demo_funding',
            params: {},
            at,
            lines: [
              { user: userA, account: 'cash', amount: sen(yen * 100) },
              { house: 'demo_funding', amount: negSen(sen(yen * 100)) },
            ],
          });
        }
      } finally {
        restore();
      }
    });
    // One lock; the chain head comes with the balances, and the second entry starts from the first's.
    expect(sent.filter((q) => q.includes('for no key update'))).toHaveLength(1);
    expect(sent.filter((q) => q.includes('from "ledger_heads"'))).toHaveLength(0);
    const chain = await chainOf(a, userA);
    expect(chain).toHaveLength(before + 2);
    expect(chain.map((p) => p.seq)).toEqual(chain.map((_, i) => i + 1));
  });

  it('forgets the head of a transaction that rolled back', async () => {
    const before = await chainOf(a, userA);
    await expect(
      a.database.db.transaction(async (tx) => {
        await lockUser(tx, userA);
        await userBalances(tx, userA);
        await postEntry(tx, {
          kind: 'demo_funding',
          params: {},
          at,
          lines: [
            { user: userA, account: 'cash', amount: sen(100) },
            { house: 'demo_funding', amount: negSen(sen(100)) },
          ],
        });
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await fund(a, userA, 5);
    const after = await chainOf(a, userA);
    expect(after).toHaveLength(before.length + 1);
    const last = after[after.length - 1];
    const previous = before[before.length - 1];
    expect(last?.seq).toBe((previous?.seq ?? 0) + 1);
    expect(last?.hash).toBe(
      chainHash(previous?.hash ?? GENESIS_HASH, {
        seq: last?.seq ?? 0,
        entry: last?.entryId ?? 0,
        at: at.toISOString(),
        kind: 'demo_funding',
        account: 'cash',
        amount: 500,
      }),
    );
  });

  it('draws each asked id once per read, as the next value of its sequence', async () => {
    const draw = () =>
      a.database.db.transaction(async (tx) => {
        await lockUser(tx, userA);
        return (await readLedger(tx, userA, { draw: [orders, journalEntries] })).drawn;
      });
    const [firstOrder, firstEntry] = await draw();
    const [nextOrder, nextEntry] = await draw();
    expect(nextOrder).toBe((firstOrder ?? 0) + 1);
    expect(nextEntry).toBe((firstEntry ?? 0) + 1);
    // The entries postEntry writes take their ids from the same sequence.
    expect(await fund(a, userA, 1)).toBe((nextEntry ?? 0) + 1);
  });

  it("writes an entry with the caller's statement exactly as postEntry would, onto the same chain", async () => {
    const before = await chainOf(a, userA);
    const cashBefore = (await userBalances(a.database.db, userA)).cash;
    const entryId = await a.database.db.transaction(async (tx) => {
      await lockUser(tx, userA);
      const {
        drawn: [id = 0],
      } = await readLedger(tx, userA, { draw: [journalEntries] });
      const params = await entryParams(tx, id, {
        kind: 'demo_funding',
        params: {},
        ref: 'test',
        at,
        lines: [
          { user: userA, account: 'cash', amount: sen(300) },
          { house: 'demo_funding', amount: negSen(sen(300)) },
          { user: userA, account: 'reserved', amount: sen(0) },
        ],
      });
      await run(tx, entryOnly, params);
      return id;
    });
    const after = await chainOf(a, userA);
    expect(after).toHaveLength(before.length + 1);
    const last = after[after.length - 1];
    const previous = before[before.length - 1];
    expect(last).toMatchObject({ entryId, seq: (previous?.seq ?? 0) + 1, amount: 300 });
    expect(last?.hash).toBe(
      chainHash(previous?.hash ?? GENESIS_HASH, {
        seq: last?.seq ?? 0,
        entry: entryId,
        at: at.toISOString(),
        kind: 'demo_funding',
        account: 'cash',
        amount: 300,
      }),
    );
    expect((await userBalances(a.database.db, userA)).cash).toBe(cashBefore + 300);
    const [written] = await a.database.db.select().from(journalEntries).where(eq(journalEntries.id, entryId));
    expect(written).toMatchObject({ kind: 'demo_funding', ref: 'test' });
  });

  it('refuses an unbalanced entry before anything is sent', async () => {
    await expect(
      a.database.db.transaction(async (tx) => {
        await lockUser(tx, userA);
        await entryParams(tx, 1, {
          kind: 'demo_funding',
          params: {},
          at,
          lines: [
            { user: userA, account: 'cash', amount: sen(300) },
            { house: 'demo_funding', amount: negSen(sen(200)) },
          ],
        });
      }),
    ).rejects.toThrow('does not balance');
  });
});
