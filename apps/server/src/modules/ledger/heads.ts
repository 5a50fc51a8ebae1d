import { eq, getTableName, is, sql } from 'drizzle-orm';
import { PgTransaction, type PgTable } from 'drizzle-orm/pg-core';
import { sen, type Sen } from '@kabuto/contract';
import type { Executor } from '../../db/types.js';
import { run, statement, type Statement } from '../../db/statement.js';
import { ledgerHeads } from '../../db/schema.js';
import { LedgerError, USER_ACCOUNT_KINDS, rememberUserAccounts, type UserAccountKind } from './accounts.js';
import { GENESIS_HASH } from './chain.js';

/**
 * The users' ledger heads (ADR 0016): each user's row of `ledger_heads` caches the user's balances and chain
 * head, is moved by the statement that writes the user's postings (posting.ts), and is the user's lock. Here:
 * taking the lock, reading a head (with the lock, the user's account ids and ids drawn for new rows), and the
 * check of the heads against the postings (headCheckSql).
 */

/** The head of a user's hash chain: its last posting's seq and hash. */
export interface ChainHead {
  seq: number;
  hash: string;
}

/**
 * Users whose row lock a transaction holds (keyed by the transaction object, so a nested transaction,
 * which could roll back to its savepoint and release what it took, keeps its own), and the head of each
 * such user's hash chain as this transaction last read or wrote it. While the lock is held no other
 * transaction can add to the chain, and only posting.ts writes postings, so the head stays exact.
 */
interface TxMemory {
  locked: Set<number>;
  heads: Map<number, ChainHead>;
}
const txMemory = new WeakMap<object, TxMemory>();

/** The transaction's memory of the user's chain head, when the transaction holds the user's lock. */
export function heldHeads(tx: Executor, userId: number): Map<number, ChainHead> | undefined {
  const memory = txMemory.get(tx);
  return memory?.locked.has(userId) ? memory.heads : undefined;
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
  if (is(tx, PgTransaction) && heldHeads(tx, userId)) return;
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

/** The user's chain head as the database has it (posting.ts asks when the transaction remembers none). */
export async function chainHead(db: Executor, userId: number): Promise<ChainHead> {
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
  heldHeads(db, userId)?.set(userId, { seq: row.seq, hash: row.hash });
  const accounts = (row.accounts ?? '')
    .split(' ')
    .filter((pair) => pair.includes('='))
    .map((pair): [string, number] => {
      const [kind = '', id] = pair.split('=');
      return [kind, Number(id)];
    });
  rememberUserAccounts(db, userId, accounts);
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

const lockManyStatement = statement<{ userIds: number[] }, LedgerRow & { user_id: number }>(
  'ledger_lock_many',
  (p) => `select h.user_id, ${ledgerColumns('h', [])} from ledger_heads h
    where h.user_id = any(${p('userIds')}::int[]) order by h.user_id for no key update`,
);

/**
 * lockUser for many users in one statement (a daily job's batch, ADR 0027): their locks taken in ascending
 * user id, the order every batch takes them in (a single-user transaction takes one only, so none waits on
 * another in a cycle), their heads and account ids remembered. Answers their balances.
 */
export async function lockUsers(
  tx: Executor,
  userIds: readonly number[],
): Promise<Map<number, UserBalances>> {
  const out = new Map<number, UserBalances>();
  if (!is(tx, PgTransaction)) throw new LedgerError('lockUsers needs a transaction');
  const wanted = [...new Set(userIds)].filter((id) => !heldHeads(tx, id)).sort((a, b) => a - b);
  if (wanted.length > 0) {
    for (const row of await run(tx, lockManyStatement, { userIds: wanted })) {
      out.set(row.user_id, takeLedgerRow(tx, row.user_id, row, { locked: true }).balances);
    }
    const missing = wanted.find((id) => !out.has(id));
    if (missing !== undefined) throw new LedgerError(`user ${missing} has no ledger head`);
  }
  return out;
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
 * `users` (the placeholder of an int[]). Run by the property and concurrency tests and by the crash script;
 * nothing is wrong when it answers no row.
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
