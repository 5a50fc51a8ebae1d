import { createHash } from 'node:crypto';
import { and, desc, eq, getTableName, is, isNull, sql } from 'drizzle-orm';
import { PgTransaction, type PgTable } from 'drizzle-orm/pg-core';
import { negSen, sen, type Sen } from '@kabuto/contract';
import type { Executor } from '../../db/client.js';
import { run, statement, type Statement } from '../../db/statement.js';
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
 * lockUser's lock as a CTE (`locked_user`, one row with the user's id) for a statement (src/db/statement.ts)
 * that does more in the same round trip once it holds the lock, by reading from it: PostgreSQL takes the
 * lock as the row is read, before anything that reads the row runs. Call noteLocked after the statement.
 */
export function userLockCte(p: (name: 'userId') => string): string {
  return `locked_user as (select id from users where id = ${p('userId')}::int for no key update)`;
}

/** Records that the transaction holds the user's lock (taken by lockUser, or by a userLockCte statement). */
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

/** The values of entryCtes' parameters. */
export interface EntryParams extends Record<string, unknown> {
  entryId: number;
  entryKind: string;
  entryMemo: string | null;
  entryRef: string | null;
  entryAt: Date;
  postingAccounts: number[];
  postingAmounts: number[];
  postingUsers: (number | null)[];
  postingSeqs: (number | null)[];
  postingHashes: (string | null)[];
}

/**
 * The same entry as postEntry, as two data-modifying CTEs (`ledger_entry`, `ledger_postings`) for the
 * caller's statement (src/db/statement.ts), so that it is written with the caller's own changes in one
 * round trip; PostgreSQL checks the postings' foreign keys at the end of that statement. entryParams gives
 * the values.
 */
export function entryCtes(p: (name: keyof EntryParams & string) => string): string {
  return `ledger_entry as (
      insert into journal_entries (id, kind, memo, ref, created_at) overriding system value
      values (${p('entryId')}::int, ${p('entryKind')}::text, ${p('entryMemo')}::text, ${p('entryRef')}::text,
        ${p('entryAt')}::timestamptz)
    ),
    ledger_postings as (
      insert into postings (entry_id, account_id, amount, created_at, user_id, seq, hash)
      select ${p('entryId')}::int, l.account_id, l.amount, ${p('entryAt')}::timestamptz, l.user_id, l.seq, l.hash
      from unnest(${p('postingAccounts')}::int[], ${p('postingAmounts')}::bigint[], ${p('postingUsers')}::int[],
        ${p('postingSeqs')}::int[], ${p('postingHashes')}::text[]) as l(account_id, amount, user_id, seq, hash)
    )`;
}

/**
 * entryCtes' values for an entry: the same rules as postEntry (refused if empty or unbalanced), its
 * postings hashed onto the users' chains. `entryId` is an id readLedger drew from journal_entries, so the
 * postings are hashed before anything is written. The caller holds the lock of every user in the entry.
 */
export async function entryParams(db: Executor, entryId: number, entry: EntryDraft): Promise<EntryParams> {
  const rows = await postingRows(db, entryId, entry, checkedLines(entry));
  return {
    entryId,
    entryKind: entry.kind,
    entryMemo: entry.memo ?? null,
    entryRef: entry.ref ?? null,
    entryAt: entry.at,
    postingAccounts: rows.map((r) => r.accountId),
    postingAmounts: rows.map((r) => r.amount),
    postingUsers: rows.map((r) => r.userId ?? null),
    postingSeqs: rows.map((r) => r.seq ?? null),
    postingHashes: rows.map((r) => r.hash ?? null),
  };
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
  const draw = (options.draw ?? []).map((table) => getTableName(table));
  const rows = await run(db, readStatement(memory !== undefined, draw), { userId });
  const balances: UserBalances = { cash: sen(0), reserved: sen(0), margin: sen(0), withdrawing: sen(0) };
  const ids = accountIdsOf(db);
  if (ids && ids.user.size + rows.length > MAX_REMEMBERED_USER_ACCOUNTS) ids.user.clear();
  for (const row of rows) {
    balances[row.kind as UserAccountKind] = sen(BigInt(row.total));
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

type ReadRow = { id: number; kind: string; total: string; head: string | null; drawn: string | null };
const readStatements = new Map<string, Statement<{ userId: number }, ReadRow>>();

/**
 * readLedger's statement: the balances with the account ids; with the lock held, the chain head; and the
 * drawn ids. Each id is an uncorrelated subquery, so it is drawn once for the statement, not once per row.
 */
function readStatement(locked: boolean, draw: readonly string[]): Statement<{ userId: number }, ReadRow> {
  const key = [locked ? 'locked' : 'open', ...draw].join('_');
  let found = readStatements.get(key);
  if (!found) {
    for (const table of draw) if (!/^[a-z_]+$/.test(table)) throw new LedgerError(`bad table ${table}`);
    const kinds = USER_ACCOUNT_KINDS.map((k) => `'${k}'`).join(', ');
    found = statement(`ledger_read_${key}`, (p) => {
      const head = locked
        ? `(select h.seq || ' ' || h.hash from postings h where h.user_id = ${p('userId')}
            order by h.seq desc limit 1)`
        : 'null';
      const drawn = draw.length
        ? `concat_ws(' ', ${draw.map((t) => `(select nextval(pg_get_serial_sequence('${t}', 'id')))`).join(', ')})`
        : 'null';
      return `select a.id, a.kind, coalesce(sum(p.amount), 0)::text as total, ${head} as head, ${drawn} as drawn
        from ledger_accounts a left join postings p on p.account_id = a.id
        where a.user_id = ${p('userId')}::int and a.kind in (${kinds})
        group by a.id, a.kind`;
    });
    readStatements.set(key, found);
  }
  return found;
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
