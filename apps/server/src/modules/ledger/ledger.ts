import { createHash } from 'node:crypto';
import { and, desc, eq, getTableName, inArray, is, isNull, sql } from 'drizzle-orm';
import { PgTransaction, type PgTable } from 'drizzle-orm/pg-core';
import { negSen, sen, type Sen } from '@kabuto/contract';
import type { Executor, Tx } from '../../db/client.js';
import { journalEntries, ledgerAccounts, postings, users } from '../../db/schema.js';

/**
 * The double-entry ledger (ADR 0002, ADR 0010). Every movement of money is one journal entry whose
 * postings sum to zero, written in the caller's transaction. Balances are sums of postings; nothing else
 * stores a balance. A positive posting increases what the account's owner holds. Each user's postings form
 * a hash chain, so that a statement can be checked for tampering.
 *
 * User accounts: `cash` (free to trade or withdraw), `reserved` (held by pending orders), `margin` (collateral
 * of open margin positions), `withdrawing` (withdrawals filed and not yet paid out). House accounts:
 * `demo_funding`, `market_settlement`, `fees`, `bank_clearing` (money on its way to or from users' banks).
 */
export const USER_ACCOUNT_KINDS = ['cash', 'reserved', 'margin', 'withdrawing'] as const;
export type UserAccountKind = (typeof USER_ACCOUNT_KINDS)[number];
export const HOUSE_ACCOUNT_KINDS = ['demo_funding', 'market_settlement', 'fees', 'bank_clearing'] as const;
export type HouseAccountKind = (typeof HOUSE_ACCOUNT_KINDS)[number];

export const GENESIS_HASH = '0'.repeat(64);

export class LedgerError extends Error {}

export async function openUserAccounts(db: Executor, userId: number): Promise<void> {
  await db
    .insert(ledgerAccounts)
    .values(USER_ACCOUNT_KINDS.map((kind) => ({ userId, kind })))
    .onConflictDoNothing();
}

/**
 * What one drizzle database (a PostgreSQL pool or a PGlite instance) has taught this process, found from
 * the database object or any transaction on it: drizzle makes one PgDialect per database and hands that
 * same object to every transaction it opens. Nothing is remembered when it cannot be found that way.
 */
function memoryOf<T>(memory: WeakMap<object, T>, db: Executor, make: () => T): T | undefined {
  const dialect = (db as unknown as { dialect?: unknown }).dialect;
  if (typeof dialect !== 'object' || dialect === null) return undefined;
  let found = memory.get(dialect);
  if (!found) {
    found = make();
    memory.set(dialect, found);
  }
  return found;
}

/**
 * Ledger account ids, per database, for the life of the process. An account row is never updated or
 * deleted once created and ids are never reused, so an id read once stays right. A user's accounts are
 * opened in the transaction that creates the user: if it rolls back, the user's id is gone for good and
 * the remembered ids are never asked for. A house account opened by this process is not remembered (its
 * transaction could still roll back); the migrations open them all, so that only happens to a new kind.
 */
interface AccountIds {
  user: Map<string, number>;
  house: Map<HouseAccountKind, number>;
  openedHere: Set<HouseAccountKind>;
}
const accountIdMemory = new WeakMap<object, AccountIds>();
/** About a hundred thousand users' accounts; past that the memory starts again (a few MiB at most). */
const MAX_REMEMBERED_USER_ACCOUNTS = 400_000;
const accountIdsOf = (db: Executor) =>
  memoryOf(accountIdMemory, db, (): AccountIds => ({
    user: new Map<string, number>(),
    house: new Map<HouseAccountKind, number>(),
    openedHere: new Set<HouseAccountKind>(),
  }));

/**
 * Users whose row lock a transaction holds (keyed by the transaction object, so a nested transaction,
 * which could roll back to its savepoint and release what it took, keeps its own), and the head of each
 * such user's hash chain as this transaction last read or wrote it. While the lock is held no other
 * transaction can add to the chain, and only postEntry writes postings, so the head stays exact.
 */
interface TxMemory {
  locked: Set<number>;
  heads: Map<number, ChainHead>;
}
const txMemory = new WeakMap<object, TxMemory>();

function lockedIn(tx: Executor, userId: number): TxMemory | undefined {
  const memory = txMemory.get(tx);
  return memory?.locked.has(userId) ? memory : undefined;
}

/**
 * Takes the user's row lock for the rest of the transaction: every money movement of a user runs under it,
 * so balance checks cannot race and the user's hash chain grows one posting at a time. It is the first
 * lock such a transaction takes (before any insert that references the user), and it is NO KEY UPDATE, which
 * foreign-key checks of other transactions do not wait for; together that rules out lock-order deadlocks.
 * A transaction that already holds it (the idempotency claim takes it before the order path asks again)
 * does not send the statement a second time: a row lock is held until the transaction ends.
 */
export async function lockUser(tx: Executor, userId: number): Promise<void> {
  if (is(tx, PgTransaction) && lockedIn(tx, userId)) return;
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('no key update');
  noteLocked(tx, userId);
}

/**
 * lockUser's lock as a CTE (`locked_user`, one row with the user's id) for a statement that does more in
 * the same round trip once it holds the lock, by selecting from it (PostgreSQL takes the lock as the row is
 * read, before anything that reads the row runs). Call noteLocked after that statement has run.
 */
export function userLockCte(tx: Tx, userId: number) {
  return tx
    .$with('locked_user')
    .as(tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('no key update'));
}

/** Records that the transaction now holds the user's lock (taken by lockUser or a userLockCte statement). */
export function noteLocked(tx: Executor, userId: number): void {
  if (!is(tx, PgTransaction)) return;
  let memory = txMemory.get(tx);
  if (!memory) {
    memory = { locked: new Set(), heads: new Map() };
    txMemory.set(tx, memory);
  }
  memory.locked.add(userId);
}

export async function userAccountId(db: Executor, userId: number, kind: UserAccountKind): Promise<number> {
  const ids = accountIdsOf(db);
  const known = ids?.user.get(`${userId}:${kind}`);
  if (known !== undefined) return known;
  // All of the user's accounts at once: the next entry usually touches another of them.
  const rows = await db
    .select({ id: ledgerAccounts.id, kind: ledgerAccounts.kind })
    .from(ledgerAccounts)
    .where(eq(ledgerAccounts.userId, userId));
  if (ids && ids.user.size + rows.length > MAX_REMEMBERED_USER_ACCOUNTS) ids.user.clear();
  for (const row of rows) ids?.user.set(`${userId}:${row.kind}`, row.id);
  const row = rows.find((r) => r.kind === kind);
  if (!row) throw new LedgerError(`user ${userId} has no ${kind} account`);
  return row.id;
}

export async function houseAccountId(db: Executor, kind: HouseAccountKind): Promise<number> {
  const ids = accountIdsOf(db);
  const known = ids?.house.get(kind);
  if (known !== undefined) return known;
  const find = () =>
    db
      .select({ id: ledgerAccounts.id })
      .from(ledgerAccounts)
      .where(and(isNull(ledgerAccounts.userId), eq(ledgerAccounts.kind, kind)));
  const [existing] = await find();
  if (existing) {
    if (ids && !ids.openedHere.has(kind)) ids.house.set(kind, existing.id);
    return existing.id;
  }
  ids?.openedHere.add(kind);
  await db.insert(ledgerAccounts).values({ userId: null, kind }).onConflictDoNothing();
  const [created] = await find();
  if (!created) throw new LedgerError(`house account ${kind} could not be opened`);
  return created.id;
}

/** A line of an entry: a user's account (by kind) or a house account. */
export type PostingLine =
  { user: number; account: UserAccountKind; amount: Sen } | { house: HouseAccountKind; amount: Sen };

/** What a posting's hash covers, in this order; the statement carries the same fields. */
export interface ChainFields {
  seq: number;
  entry: number;
  at: string;
  kind: string;
  account: string;
  amount: number;
}

export function chainHash(prev: string, f: ChainFields): string {
  return createHash('sha256')
    .update([prev, f.seq, f.entry, f.at, f.kind, f.account, f.amount].join('|'))
    .digest('hex');
}

/** What one journal entry records: its kind, what caused it, when, and its lines. */
export interface EntryDraft {
  kind: string;
  memo?: string;
  ref?: string;
  at: Date;
  lines: readonly PostingLine[];
}

/** The entry's non-zero lines; refuses an empty, unbalanced or all-zero entry. */
function checkedLines(entry: EntryDraft): PostingLine[] {
  const lines = entry.lines.filter((l) => l.amount !== 0);
  if (lines.length < 2) throw new LedgerError('a journal entry needs at least two non-zero postings');
  const total = lines.reduce((sum, l) => sum + l.amount, 0);
  if (total !== 0) throw new LedgerError(`journal entry does not balance: ${total}`);
  return lines;
}

/**
 * The postings of entry `entryId`, each user's line hashed onto that user's chain (continued from the head
 * this transaction remembers, else read), and the transaction's memory of the heads moved past them. The
 * rows must then be written in this transaction: if that fails the transaction fails, and its memory with it.
 */
async function postingRows(
  db: Executor,
  entryId: number,
  entry: EntryDraft,
  lines: readonly PostingLine[],
): Promise<(typeof postings.$inferInsert)[]> {
  const at = entry.at.toISOString();
  const heads = new Map<number, ChainHead>();
  const rows: (typeof postings.$inferInsert)[] = [];
  for (const line of lines) {
    if ('house' in line) {
      rows.push({
        entryId,
        accountId: await houseAccountId(db, line.house),
        amount: line.amount,
        createdAt: entry.at,
      });
      continue;
    }
    const head =
      heads.get(line.user) ??
      lockedIn(db, line.user)?.heads.get(line.user) ??
      (await chainHead(db, line.user));
    const seq = head.seq + 1;
    const hash = chainHash(head.hash, {
      seq,
      entry: entryId,
      at,
      kind: entry.kind,
      account: line.account,
      amount: line.amount,
    });
    heads.set(line.user, { seq, hash });
    rows.push({
      entryId,
      accountId: await userAccountId(db, line.user, line.account),
      amount: line.amount,
      createdAt: entry.at,
      userId: line.user,
      seq,
      hash,
    });
  }
  for (const [userId, head] of heads) lockedIn(db, userId)?.heads.set(userId, head);
  return rows;
}

/**
 * Writes one balanced journal entry (two statements: the entry, then its postings); refuses an empty,
 * unbalanced or zero-amount entry. Lines of zero are dropped first (a reservation that exactly matches its
 * fill nets to nothing). The caller holds the lock of every user in the entry (lockUser).
 */
export async function postEntry(db: Executor, entry: EntryDraft): Promise<number> {
  const lines = checkedLines(entry);
  const [created] = await db
    .insert(journalEntries)
    .values({ kind: entry.kind, memo: entry.memo ?? null, ref: entry.ref ?? null, createdAt: entry.at })
    .returning({ id: journalEntries.id });
  if (!created) throw new LedgerError('journal entry was not written');
  await db.insert(postings).values(await postingRows(db, created.id, entry, lines));
  return created.id;
}

/**
 * The same entry as postEntry, as two data-modifying CTEs for the caller to send with its own changes in
 * one statement (PostgreSQL checks the postings' foreign keys at the end of that statement). `entryId` is
 * an id readLedger drew from journal_entries, so the postings are hashed before anything is written. Same rules as
 * postEntry; the caller holds the lock of every user in the entry.
 */
export async function entryWrites(tx: Tx, entryId: number, entry: EntryDraft) {
  const lines = checkedLines(entry);
  const rows = await postingRows(tx, entryId, entry, lines);
  return [
    tx.$with('ledger_entry').as(
      tx
        .insert(journalEntries)
        .overridingSystemValue()
        .values({
          id: entryId,
          kind: entry.kind,
          memo: entry.memo ?? null,
          ref: entry.ref ?? null,
          createdAt: entry.at,
        })
        .returning({ id: journalEntries.id }),
    ),
    tx.$with('ledger_postings').as(tx.insert(postings).values(rows).returning({ id: postings.id })),
  ] as const;
}

interface ChainHead {
  seq: number;
  hash: string;
}

async function chainHead(db: Executor, userId: number): Promise<ChainHead> {
  const [last] = await db
    .select({ seq: postings.seq, hash: postings.hash })
    .from(postings)
    .where(eq(postings.userId, userId))
    .orderBy(desc(postings.seq))
    .limit(1);
  return { seq: last?.seq ?? 0, hash: last?.hash ?? GENESIS_HASH };
}

export type UserBalances = Record<UserAccountKind, Sen>;

/**
 * A user's balances, each the sum of its postings, in one statement that also remembers the user's account
 * ids. Inside a transaction that holds the user's lock it also reads the head of the user's hash chain, and
 * draws the next id of each table in `draw` (from its identity sequence, as an insert would), for rows the
 * caller is about to write with those ids, such as the journal entry of entryWrites: the usual start of a
 * money movement costs this one round trip.
 */
export async function readLedger(
  db: Executor,
  userId: number,
  options: { draw?: readonly PgTable[] } = {},
): Promise<{ balances: UserBalances; drawn: number[] }> {
  const memory = lockedIn(db, userId);
  const head = memory
    ? sql<
        string | null
      >`(select p.seq || ' ' || p.hash from ${postings} p where p.user_id = ${userId} order by p.seq desc limit 1)`
    : sql<null>`null`;
  const draw = options.draw ?? [];
  // Each id is an uncorrelated subquery: evaluated once for the statement, not once per row.
  const drawn = draw.length
    ? sql<string>`concat_ws(' ', ${sql.join(
        draw.map((table) => sql`(select nextval(pg_get_serial_sequence(${getTableName(table)}, 'id')))`),
        sql`, `,
      )})`
    : sql<null>`null`;
  const rows = await db
    .select({
      id: ledgerAccounts.id,
      kind: ledgerAccounts.kind,
      total: sql<string | null>`coalesce(sum(${postings.amount}), 0)`,
      head,
      drawn,
    })
    .from(ledgerAccounts)
    .leftJoin(postings, eq(postings.accountId, ledgerAccounts.id))
    .where(and(eq(ledgerAccounts.userId, userId), inArray(ledgerAccounts.kind, [...USER_ACCOUNT_KINDS])))
    .groupBy(ledgerAccounts.id, ledgerAccounts.kind);
  const balances: UserBalances = { cash: sen(0), reserved: sen(0), margin: sen(0), withdrawing: sen(0) };
  const ids = accountIdsOf(db);
  if (ids && ids.user.size + rows.length > MAX_REMEMBERED_USER_ACCOUNTS) ids.user.clear();
  for (const row of rows) {
    balances[row.kind as UserAccountKind] = sen(BigInt(row.total ?? 0));
    ids?.user.set(`${userId}:${row.kind}`, row.id);
  }
  const first = rows[0];
  if (memory && first) {
    const [seq, hash] = (first.head ?? '').split(' ');
    memory.heads.set(userId, seq && hash ? { seq: Number(seq), hash } : { seq: 0, hash: GENESIS_HASH });
  }
  if (draw.length > 0 && first?.drawn == null) throw new LedgerError(`user ${userId} has no accounts`);
  return { balances, drawn: draw.length > 0 ? (first?.drawn ?? '').split(' ').map(Number) : [] };
}

/** A user's balances, each the sum of its postings (readLedger without the extras). */
export async function userBalances(db: Executor, userId: number): Promise<UserBalances> {
  return (await readLedger(db, userId)).balances;
}

/** A scalar subquery: the balance of one of a user's accounts (sum of its postings), as text. */
export function balanceOf(userId: number, kind: UserAccountKind) {
  return sql<string>`(select coalesce(sum(p.amount), 0)::text from ${postings} p join ${ledgerAccounts} a on a.id = p.account_id where a.user_id = ${userId} and a.kind = ${kind})`;
}

/** Demo mode only: the visible journal entry that gives a user demo cash from the house. */
export async function fundDemoCash(db: Executor, userId: number, amount: Sen, at: Date): Promise<number> {
  return postEntry(db, {
    kind: 'demo_funding',
    memo: 'Demo cash (demo mode): not real money',
    at,
    lines: [
      { user: userId, account: 'cash', amount },
      { house: 'demo_funding', amount: negSen(amount) },
    ],
  });
}
