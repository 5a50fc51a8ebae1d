import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { negSen, sen, type Sen } from '@kabuto/contract';
import type { Executor } from '../../db/client.js';
import { journalEntries, ledgerAccounts, postings } from '../../db/schema.js';

/**
 * The double-entry ledger. Every movement of money is one journal entry whose postings sum to zero,
 * written in the caller's transaction. Balances are sums of postings; nothing else stores a balance.
 * Sign convention: a positive posting increases what the account's owner holds.
 */
export const USER_ACCOUNT_KINDS = ['cash', 'reserved', 'margin'] as const;
export type UserAccountKind = (typeof USER_ACCOUNT_KINDS)[number];
export const HOUSE_ACCOUNT_KINDS = ['demo_funding'] as const;
export type HouseAccountKind = (typeof HOUSE_ACCOUNT_KINDS)[number];

export class LedgerError extends Error {}

export async function openUserAccounts(db: Executor, userId: number): Promise<void> {
  await db
    .insert(ledgerAccounts)
    .values(USER_ACCOUNT_KINDS.map((kind) => ({ userId, kind })))
    .onConflictDoNothing();
}

export async function userAccountId(db: Executor, userId: number, kind: UserAccountKind): Promise<number> {
  const [row] = await db
    .select({ id: ledgerAccounts.id })
    .from(ledgerAccounts)
    .where(and(eq(ledgerAccounts.userId, userId), eq(ledgerAccounts.kind, kind)));
  if (!row) throw new LedgerError(`user ${userId} has no ${kind} account`);
  return row.id;
}

export async function houseAccountId(db: Executor, kind: HouseAccountKind): Promise<number> {
  const find = () =>
    db
      .select({ id: ledgerAccounts.id })
      .from(ledgerAccounts)
      .where(and(isNull(ledgerAccounts.userId), eq(ledgerAccounts.kind, kind)));
  const [existing] = await find();
  if (existing) return existing.id;
  await db.insert(ledgerAccounts).values({ userId: null, kind }).onConflictDoNothing();
  const [created] = await find();
  if (!created) throw new LedgerError(`house account ${kind} could not be opened`);
  return created.id;
}

export interface PostingLine {
  accountId: number;
  amount: Sen;
}

/** Writes one balanced journal entry; refuses an empty, unbalanced or zero-amount entry. */
export async function postEntry(
  db: Executor,
  entry: { kind: string; memo?: string; lines: readonly PostingLine[] },
): Promise<number> {
  if (entry.lines.length < 2) throw new LedgerError('a journal entry needs at least two postings');
  if (entry.lines.some((l) => l.amount === 0)) throw new LedgerError('a posting cannot be zero');
  const total = entry.lines.reduce((sum, l) => sum + l.amount, 0);
  if (total !== 0) throw new LedgerError(`journal entry does not balance: ${total}`);
  const [created] = await db
    .insert(journalEntries)
    .values({ kind: entry.kind, memo: entry.memo ?? null })
    .returning({ id: journalEntries.id });
  if (!created) throw new LedgerError('journal entry was not written');
  await db
    .insert(postings)
    .values(entry.lines.map((l) => ({ entryId: created.id, accountId: l.accountId, amount: l.amount })));
  return created.id;
}

export type UserBalances = Record<UserAccountKind, Sen>;

/** A user's balances, each the sum of its postings. */
export async function userBalances(db: Executor, userId: number): Promise<UserBalances> {
  const rows = await db
    .select({
      kind: ledgerAccounts.kind,
      total: sql<string | null>`coalesce(sum(${postings.amount}), 0)`,
    })
    .from(ledgerAccounts)
    .leftJoin(postings, eq(postings.accountId, ledgerAccounts.id))
    .where(and(eq(ledgerAccounts.userId, userId), inArray(ledgerAccounts.kind, [...USER_ACCOUNT_KINDS])))
    .groupBy(ledgerAccounts.kind);
  const balances: UserBalances = { cash: sen(0), reserved: sen(0), margin: sen(0) };
  for (const row of rows) balances[row.kind as UserAccountKind] = sen(BigInt(row.total ?? 0));
  return balances;
}

/** A scalar subquery: the balance of one of a user's accounts (sum of its postings), as text. */
export function balanceOf(userId: number, kind: UserAccountKind) {
  return sql<string>`(select coalesce(sum(p.amount), 0)::text from ${postings} p join ${ledgerAccounts} a on a.id = p.account_id where a.user_id = ${userId} and a.kind = ${kind})`;
}

/** Demo mode only: the visible journal entry that gives a user demo cash from the house. */
export async function fundDemoCash(db: Executor, userId: number, amount: Sen): Promise<number> {
  const [cash, funding] = await Promise.all([
    userAccountId(db, userId, 'cash'),
    houseAccountId(db, 'demo_funding'),
  ]);
  return postEntry(db, {
    kind: 'demo_funding',
    memo: 'Demo cash (demo mode): not real money',
    lines: [
      { accountId: cash, amount },
      { accountId: funding, amount: negSen(amount) },
    ],
  });
}
