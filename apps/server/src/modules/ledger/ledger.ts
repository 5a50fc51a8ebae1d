import { createHash } from 'node:crypto';
import { and, eq, getTableName, is, isNull, sql } from 'drizzle-orm';
import { PgTransaction, type PgTable } from 'drizzle-orm/pg-core';
import { negSen, sen, type Sen } from '@kabuto/contract';
import type { Executor } from '../../db/types.js';
import { run, statement, type Statement } from '../../db/statement.js';
import { ledgerAccounts, ledgerHeads, type postings } from '../../db/schema.js';

/**
 * The double-entry ledger (ADR 0002, ADR 0010). Every movement of money is one journal entry whose
 * postings sum to zero, written in the caller's transaction. Balances are sums of postings; nothing else
 * is the truth about a balance: each user's ledger head (`ledger_heads`, ADR 0016) caches the user's balances
 * and chain head, updated in the statement that writes the postings and checked against them (headCheckSql).
 * A positive posting increases what the account's owner holds. Each user's postings form a hash chain, so
 * that a statement can be checked for tampering.
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

/** Opens a new user's accounts and ledger head (no postings yet), in the transaction that creates the user. */
export async function openUserAccounts(db: Executor, userId: number): Promise<void> {
  await db
    .insert(ledgerAccounts)
    .values(USER_ACCOUNT_KINDS.map((kind) => ({ userId, kind })))
    .onConflictDoNothing();
  await db.insert(ledgerHeads).values({ userId }).onConflictDoNothing();
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
 * Takes the user's lock for the rest of the transaction: every money movement of a user runs under it, so
 * balance checks cannot race and the user's hash chain grows one posting at a time. The lock is the row of
 * the user's ledger head, taken FOR NO KEY UPDATE by readLedger's statement (`lock`), which reads the head
 * with it. In READ COMMITTED a statement that waited for the lock gets the row's latest committed version
 * (PostgreSQL re-reads a locked row after the wait), so the balances and chain head it answers are current
 * although the statement's snapshot predates the wait: that is why they are read from the locked row and not
 * summed from the postings in the same statement (ADR 0016). It is the first lock such a transaction takes,
 * and no foreign key references the heads' rows; together that rules out lock-order deadlocks. A
 * transaction that already holds it (the idempotency claim takes it) sends nothing: a row lock is held until
 * the transaction ends.
 */
export async function lockUser(tx: Executor, userId: number): Promise<void> {
  if (is(tx, PgTransaction) && lockedIn(tx, userId)) return;
  await readLedger(tx, userId, { lock: true });
}

/**
 * lockUser's lock and read as a CTE (`locked_user`: `id`, then ledgerColumns' columns) for a statement
 * (src/db/statement.ts) that does more in the same round trip once it holds the lock, by reading from it:
 * PostgreSQL takes the lock as the row is read, before anything that reads the row runs. Pass the row it
 * answers to takeLedgerRow, after the statement, to record the lock and read the ledger.
 */
export function userLockCte(p: (name: 'userId') => string, draw: readonly PgTable[] = []): string {
  return `locked_user as (select h.user_id as id, ${ledgerColumns('h', draw)}
    from ledger_heads h where h.user_id = ${p('userId')}::int for no key update)`;
}

/** Records that the transaction holds the user's lock (taken by lockUser, or by a userLockCte statement). */
function noteLocked(tx: Executor, userId: number): void {
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

/** What an entry moves on one user's ledger head: the new chain head and the change of each balance. */
interface HeadMove extends ChainHead {
  delta: Record<UserAccountKind, number>;
}

/**
 * The postings of entry `entryId`, each user's line hashed onto that user's chain (continued from the head
 * this transaction remembers, else read), what they move on each user's ledger head, and the transaction's
 * memory of the heads moved past them. The rows must then be written in this transaction: if that fails
 * the transaction fails, and its memory with it.
 */
async function postingRows(
  db: Executor,
  entryId: number,
  entry: EntryDraft,
  lines: readonly PostingLine[],
): Promise<{ rows: (typeof postings.$inferInsert)[]; moves: Map<number, HeadMove> }> {
  const at = entry.at.toISOString();
  const moves = new Map<number, HeadMove>();
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
    let move = moves.get(line.user);
    if (!move) {
      const head = lockedIn(db, line.user)?.heads.get(line.user) ?? (await chainHead(db, line.user));
      move = { ...head, delta: { cash: 0, reserved: 0, margin: 0, withdrawing: 0 } };
      moves.set(line.user, move);
    }
    const seq = move.seq + 1;
    const hash = chainHash(move.hash, {
      seq,
      entry: entryId,
      at,
      kind: entry.kind,
      account: line.account,
      amount: line.amount,
    });
    move.seq = seq;
    move.hash = hash;
    move.delta[line.account] += line.amount;
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
  for (const [userId, move] of moves) {
    lockedIn(db, userId)?.heads.set(userId, { seq: move.seq, hash: move.hash });
  }
  return { rows, moves };
}

/** postEntry's statement: the entry, its postings and the users' heads (entryCtes). */
const entryStatement = statement<EntryParams>('ledger_post_entry', (p) => `with ${entryCtes(p)} select 1`);
const drawEntryId = statement<Record<string, never>, { id: string }>(
  'ledger_draw_entry_id',
  () => `select nextval(pg_get_serial_sequence('journal_entries', 'id'))::text as id`,
);

/**
 * Writes one balanced journal entry (two statements: its id drawn, then the entry with its postings and the
 * users' ledger heads); refuses an empty, unbalanced or zero-amount entry. Lines of zero are dropped first
 * (a reservation that exactly matches its fill nets to nothing). The caller holds the lock of every user in
 * the entry (lockUser).
 */
export async function postEntry(db: Executor, entry: EntryDraft): Promise<number> {
  const lines = checkedLines(entry);
  const [drawn] = await run(db, drawEntryId, {});
  if (!drawn) throw new LedgerError('journal entry id was not drawn');
  const id = Number(drawn.id);
  await run(db, entryStatement, await paramsOf(db, id, entry, lines));
  return id;
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
  headUsers: number[];
  headSeqs: number[];
  headHashes: string[];
  headCash: number[];
  headReserved: number[];
  headMargin: number[];
  headWithdrawing: number[];
}

/**
 * The same entry as postEntry, as three data-modifying CTEs (`ledger_entry`, `ledger_postings`,
 * `ledger_heads_moved`) for the caller's statement (src/db/statement.ts), so that it is written with the
 * caller's own changes in one round trip; PostgreSQL checks the postings' foreign keys at the end of that
 * statement. Each user's ledger head moves to the new chain head and by the entry's amounts, in the same
 * statement as the postings. entryParams gives the values.
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
    ),
    ledger_heads_moved as (
      update ledger_heads h set seq = m.seq, hash = m.hash, cash = h.cash + m.cash,
        reserved = h.reserved + m.reserved, margin = h.margin + m.margin,
        withdrawing = h.withdrawing + m.withdrawing
      from unnest(${p('headUsers')}::int[], ${p('headSeqs')}::int[], ${p('headHashes')}::text[],
        ${p('headCash')}::bigint[], ${p('headReserved')}::bigint[], ${p('headMargin')}::bigint[],
        ${p('headWithdrawing')}::bigint[]) as m(user_id, seq, hash, cash, reserved, margin, withdrawing)
      where h.user_id = m.user_id
    )`;
}

/**
 * entryCtes' values for an entry: the same rules as postEntry (refused if empty or unbalanced), its
 * postings hashed onto the users' chains. `entryId` is an id drawn from journal_entries (lockUser's or
 * readLedger's `draw`), so the postings are hashed before anything is written. The caller holds the lock of
 * every user in the entry.
 */
export async function entryParams(db: Executor, entryId: number, entry: EntryDraft): Promise<EntryParams> {
  return paramsOf(db, entryId, entry, checkedLines(entry));
}

async function paramsOf(
  db: Executor,
  entryId: number,
  entry: EntryDraft,
  lines: readonly PostingLine[],
): Promise<EntryParams> {
  const { rows, moves } = await postingRows(db, entryId, entry, lines);
  const heads = [...moves];
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
    headUsers: heads.map(([userId]) => userId),
    headSeqs: heads.map(([, m]) => m.seq),
    headHashes: heads.map(([, m]) => m.hash),
    headCash: heads.map(([, m]) => m.delta.cash),
    headReserved: heads.map(([, m]) => m.delta.reserved),
    headMargin: heads.map(([, m]) => m.delta.margin),
    headWithdrawing: heads.map(([, m]) => m.delta.withdrawing),
  };
}

interface ChainHead {
  seq: number;
  hash: string;
}

async function chainHead(db: Executor, userId: number): Promise<ChainHead> {
  const [head] = await db
    .select({ seq: ledgerHeads.seq, hash: ledgerHeads.hash })
    .from(ledgerHeads)
    .where(eq(ledgerHeads.userId, userId));
  if (!head) throw new LedgerError(`user ${userId} has no ledger head`);
  return head;
}

export type UserBalances = Record<UserAccountKind, Sen>;

/** A user's ledger as read from the user's head: the balances, and the ids drawn with it (`draw`). */
export interface LedgerRead {
  balances: UserBalances;
  drawn: number[];
}

/** The columns ledgerColumns answers, as the drivers give them. */
export interface LedgerRow {
  seq: number;
  hash: string;
  cash: string;
  reserved: string;
  margin: string;
  withdrawing: string;
  accounts: string | null;
  drawn: string | null;
}

function checkedTableNames(draw: readonly PgTable[]): string[] {
  return draw.map((table) => {
    const name = getTableName(table);
    if (!/^[a-z_]+$/.test(name)) throw new LedgerError(`bad table ${name}`);
    return name;
  });
}

/**
 * The select list of a read of the ledger head `h` (an alias of ledger_heads): the chain head, the balances,
 * the user's account ids (`kind=id` pairs), and the next id of each table in `draw`, drawn from its identity
 * sequence as an insert would, for rows the caller is about to write with those ids (such as the journal
 * entry of entryCtes). Each id is an uncorrelated subquery, so it is drawn once for the statement.
 */
export function ledgerColumns(h: string, draw: readonly PgTable[]): string {
  const tables = checkedTableNames(draw);
  const drawn = tables.length
    ? `concat_ws(' ', ${tables.map((t) => `(select nextval(pg_get_serial_sequence('${t}', 'id')))`).join(', ')})`
    : 'null';
  return `${h}.seq, ${h}.hash, ${USER_ACCOUNT_KINDS.map((k) => `${h}.${k}::text as ${k}`).join(', ')},
    (select string_agg(a.kind || '=' || a.id, ' ') from ledger_accounts a where a.user_id = ${h}.user_id)
      as accounts,
    ${drawn} as drawn`;
}

/**
 * The ledger a ledgerColumns row gives: remembers the user's account ids and, in a transaction that holds the
 * user's lock (or takes it with this row: `locked`), the head of the user's chain.
 */
export function takeLedgerRow(
  db: Executor,
  userId: number,
  row: LedgerRow | undefined,
  options: { draw?: readonly PgTable[]; locked?: boolean } = {},
): LedgerRead {
  if (!row) throw new LedgerError(`user ${userId} has no ledger head`);
  if (options.locked) noteLocked(db, userId);
  lockedIn(db, userId)?.heads.set(userId, { seq: row.seq, hash: row.hash });
  const ids = accountIdsOf(db);
  const accounts = (row.accounts ?? '').split(' ').filter((pair) => pair.includes('='));
  if (ids && ids.user.size + accounts.length > MAX_REMEMBERED_USER_ACCOUNTS) ids.user.clear();
  for (const pair of accounts) {
    const [kind, id] = pair.split('=');
    ids?.user.set(`${userId}:${kind}`, Number(id));
  }
  const drawCount = options.draw?.length ?? 0;
  return {
    balances: {
      cash: sen(BigInt(row.cash)),
      reserved: sen(BigInt(row.reserved)),
      margin: sen(BigInt(row.margin)),
      withdrawing: sen(BigInt(row.withdrawing)),
    },
    drawn: drawCount > 0 ? (row.drawn ?? '').split(' ').map(Number) : [],
  };
}

const readStatements = new Map<string, Statement<{ userId: number }, LedgerRow>>();

/** readLedger's statement, with or without the lock, for the tables to draw ids of. */
function readStatement(lock: boolean, draw: readonly PgTable[]): Statement<{ userId: number }, LedgerRow> {
  const key = [lock ? 'lock' : 'read', ...checkedTableNames(draw)].join('_');
  let found = readStatements.get(key);
  if (!found) {
    found = statement(
      `ledger_${key}`,
      (p) => `select ${ledgerColumns('h', draw)} from ledger_heads h where h.user_id = ${p('userId')}::int
        ${lock ? 'for no key update' : ''}`,
    );
    readStatements.set(key, found);
  }
  return found;
}

/**
 * A user's balances, read from the user's ledger head in one statement that also remembers the user's account
 * ids and draws ids (ledgerColumns); inside a transaction that holds the user's lock, it also remembers the
 * head of the user's chain. `lock` takes the lock in the same statement (lockUser).
 */
export async function readLedger(
  db: Executor,
  userId: number,
  options: { draw?: readonly PgTable[]; lock?: boolean } = {},
): Promise<LedgerRead> {
  const lock = options.lock === true && is(db, PgTransaction);
  const [row] = await run(db, readStatement(lock, options.draw ?? []), { userId });
  return takeLedgerRow(db, userId, row, { draw: options.draw, locked: lock });
}

/** A user's balances (readLedger without the extras). */
export async function userBalances(db: Executor, userId: number): Promise<UserBalances> {
  return (await readLedger(db, userId)).balances;
}

/** A scalar subquery: the balance of one of a user's accounts (from the user's ledger head), as text. */
export function balanceOf(userId: number, kind: UserAccountKind) {
  if (!USER_ACCOUNT_KINDS.includes(kind)) throw new LedgerError(`bad account kind ${kind}`);
  return sql<string>`(select h.${sql.raw(kind)}::text from ${ledgerHeads} h where h.user_id = ${userId})`;
}

/**
 * Users whose ledger head differs from the fold of their postings (a balance, the chain's last seq or hash),
 * or who have none: the check of the cache (ADR 0016); every user, or those whose ids are the parameter
 * `users` (the placeholder of an int[]). Run by the property and concurrency tests and by the crash script; nothing is wrong when it
 * answers no row.
 */
export function headCheckSql(users?: string): string {
  const only = (column: string) => (users ? `and ${column} = any(${users}::int[])` : '');
  return `with folded as (
    select a.user_id, ${USER_ACCOUNT_KINDS.map(
      (k) => `coalesce(sum(p.amount) filter (where a.kind = '${k}'), 0) as ${k}`,
    ).join(', ')}
    from ledger_accounts a left join postings p on p.account_id = a.id
    where a.user_id is not null ${only('a.user_id')} group by a.user_id
  ),
  last as (
    select distinct on (user_id) user_id, seq, hash from postings where user_id is not null ${only('user_id')}
    order by user_id, seq desc
  )
  select u.id as user_id, h.seq as head_seq, coalesce(l.seq, 0) as chain_seq,
    ${USER_ACCOUNT_KINDS.map((k) => `h.${k}::text as head_${k}, coalesce(f.${k}, 0)::text as posted_${k}`).join(', ')}
  from users u left join ledger_heads h on h.user_id = u.id left join folded f on f.user_id = u.id
    left join last l on l.user_id = u.id
  where (h.user_id is null or h.seq <> coalesce(l.seq, 0) or h.hash <> coalesce(l.hash, '${GENESIS_HASH}')
    or ${USER_ACCOUNT_KINDS.map((k) => `h.${k} <> coalesce(f.${k}, 0)`).join(' or ')}) ${only('u.id')}
  order by u.id`;
}

const headCheck = statement<Record<string, never>, Record<string, unknown>>('ledger_head_check', () =>
  headCheckSql(),
);
const headCheckOf = statement<{ users: number[] }, Record<string, unknown>>('ledger_head_check_users', (p) =>
  headCheckSql(p('users')),
);

/** headCheckSql's rows: the users (all, or those given) whose ledger head is wrong (none when all is well). */
export async function ledgerHeadMismatches(
  db: Executor,
  users?: readonly number[],
): Promise<Record<string, unknown>[]> {
  return users ? run(db, headCheckOf, { users: [...users] }) : run(db, headCheck, {});
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
