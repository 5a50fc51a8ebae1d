import { readFileSync } from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { negSen, sen } from '@kabuto/contract';
import { ledgerHeads } from '../../db/schema.js';
import { createTestApp, registerAndLogin, type TestApp } from '../../test/harness.js';
import { GENESIS_HASH, ledgerHeadMismatches, lockUser, postEntry, userBalances } from './ledger.js';

/**
 * The users' ledger heads (ADR 0016) are a cache of the postings: every entry moves them in the statement
 * that writes its postings, and ledgerHeadMismatches compares them with the fold of the postings. The
 * property test (trading/invariants.test.ts) runs the check after every step; this shows it catches a head
 * that drifted.
 */
let t: TestApp;
let userId: number;
beforeAll(async () => {
  t = await createTestApp();
  userId = (await registerAndLogin(t, { verified: false })).userId;
});
afterAll(async () => {
  await t.close();
});

const at = new Date('2026-11-24T01:00:00.000Z');
const move = (lines: Parameters<typeof postEntry>[1]['lines']) =>
  t.database.db.transaction(async (tx) => {
    await lockUser(tx, userId);
    return postEntry(tx, { kind: 'deposit', params: {}, at, lines });
  });

describe('ledger heads', () => {
  it('move with every entry, on every account of the user', async () => {
    const before = await userBalances(t.database.db, userId);
    await move([
      { user: userId, account: 'cash', amount: sen(50_000) },
      { house: 'demo_funding', amount: negSen(sen(50_000)) },
    ]);
    await move([
      { user: userId, account: 'cash', amount: negSen(sen(30_000)) },
      { user: userId, account: 'reserved', amount: sen(20_000) },
      { user: userId, account: 'margin', amount: sen(7_000) },
      { user: userId, account: 'withdrawing', amount: sen(3_000) },
    ]);
    expect(await userBalances(t.database.db, userId)).toEqual({
      cash: before.cash + 20_000,
      reserved: before.reserved + 20_000,
      margin: before.margin + 7_000,
      withdrawing: before.withdrawing + 3_000,
    });
    expect(await ledgerHeadMismatches(t.database.db)).toEqual([]);
  });

  it('are checked against the postings: a changed balance or chain head is found', async () => {
    const db = t.database.db;
    const tamper = async (change: ReturnType<typeof sql>, undo: ReturnType<typeof sql>) => {
      await db.execute(sql`update ledger_heads set ${change} where user_id = ${userId}`);
      const found = await ledgerHeadMismatches(db);
      await db.execute(sql`update ledger_heads set ${undo} where user_id = ${userId}`);
      return found.map((row) => Number(row['user_id']));
    };
    expect(await tamper(sql`cash = cash + 1`, sql`cash = cash - 1`)).toEqual([userId]);
    // Restricted to some users, it looks at those only.
    await db.execute(sql`update ledger_heads set cash = cash + 1 where user_id = ${userId}`);
    const [own, other] = [
      await ledgerHeadMismatches(db, [userId]),
      await ledgerHeadMismatches(db, [userId + 1]),
    ];
    await db.execute(sql`update ledger_heads set cash = cash - 1 where user_id = ${userId}`);
    expect(own.map((row) => Number(row['user_id']))).toEqual([userId]);
    expect(other).toEqual([]);
    expect(await tamper(sql`withdrawing = withdrawing - 1`, sql`withdrawing = withdrawing + 1`)).toEqual([
      userId,
    ]);
    expect(await tamper(sql`seq = seq - 1`, sql`seq = seq + 1`)).toEqual([userId]);
    const [head] = await db.select().from(ledgerHeads).where(eq(ledgerHeads.userId, userId));
    expect(await tamper(sql`hash = ${'f'.repeat(64)}`, sql`hash = ${head?.hash ?? ''}`)).toEqual([userId]);
    expect(await ledgerHeadMismatches(db)).toEqual([]);
  });

  it('belong to every user from registration on, before any posting', async () => {
    // The harness runs without demo mode: registration moves no money.
    const fresh = (await registerAndLogin(t, { verified: false })).userId;
    const [head] = await t.database.db.select().from(ledgerHeads).where(eq(ledgerHeads.userId, fresh));
    expect(head).toEqual({
      userId: fresh,
      seq: 0,
      hash: GENESIS_HASH,
      cash: 0,
      reserved: 0,
      margin: 0,
      withdrawing: 0,
    });
    expect(await ledgerHeadMismatches(t.database.db)).toEqual([]);
  });

  it('are filled from the postings by migration 0008 for users who had postings before it', async () => {
    const db = t.database.db;
    const migration = readFileSync(
      new URL('../../../drizzle/0008_ledger_heads.sql', import.meta.url),
      'utf8',
    );
    const backfill = migration.split('--> statement-breakpoint').at(-1) ?? '';
    expect(backfill).toMatch(/INSERT INTO "ledger_heads"/);
    const before = await db.select().from(ledgerHeads).orderBy(ledgerHeads.userId);
    expect(before.length).toBeGreaterThan(1);
    expect(before.some((head) => head.seq > 1 && head.reserved > 0)).toBe(true);
    await db.execute(sql`delete from ledger_heads`);
    await db.execute(sql.raw(backfill));
    expect(await db.select().from(ledgerHeads).orderBy(ledgerHeads.userId)).toEqual(before);
  });
});
