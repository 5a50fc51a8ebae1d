import { negSen, type LedgerEntryKind, type LedgerMemoParams, type Sen } from '@kabuto/contract';
import type { Executor } from '../../db/types.js';
import { run, statement } from '../../db/statement.js';
import type { postings } from '../../db/schema.js';
import { intArrayLiteral, textArrayLiteral } from '../../db/array-literal.js';
import {
  LedgerError,
  USER_ACCOUNT_KINDS,
  houseAccountId,
  knownUserAccountId,
  rememberUserAccounts,
  userAccountId,
  type HouseAccountKind,
  type UserAccountKind,
} from './accounts.js';
import { chainHash } from './chain.js';
import { chainHead, heldHeads, type ChainHead } from './heads.js';

/**
 * Writing journal entries (ADR 0002, ADR 0010, ADR 0016). Every movement of money is one journal entry
 * whose postings sum to zero, written in the caller's transaction under the lock of every user in it
 * (heads.ts, lockUser). A positive posting increases what the account's owner holds.
 *
 * entryCtes is the ONE SQL generator that writes an entry: the entry, its postings hashed onto the users'
 * chains, and the users' ledger heads moved, as three data-modifying CTEs. postEntry runs it as a statement of
 * its own; the order path (trading's writeOrderStatement) puts the same CTEs in its composite statement, with
 * the values entryParams makes. Both make their values with paramsOf, so a draft written either way gives the
 * same postings, heads and chain hashes (posting.test.ts).
 */

/** A line of an entry: a user's account (by kind) or a house account. */
export type PostingLine =
  { user: number; account: UserAccountKind; amount: Sen } | { house: HouseAccountKind; amount: Sen };

/** What one journal entry records: its kind, what caused it, when, and its lines. */
export interface EntryDraft {
  /** one of the contract's LEDGER_ENTRY_KINDS, each of which the catalogues label */
  kind: LedgerEntryKind;
  /** the English memo, for operators (and what old entries show) */
  memo?: string;
  /**
   * the memo's parameters, from which clients render it in the reader's language (`ledgerMemos.<kind>`):
   * amounts and prices in sen. Not hashed, like the memo (chain.ts).
   */
  params: LedgerMemoParams;
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
      const head = heldHeads(db, line.user)?.get(line.user) ?? (await chainHead(db, line.user));
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
    heldHeads(db, userId)?.set(userId, { seq: move.seq, hash: move.hash });
  }
  return { rows, moves };
}

/** The values of entryCtes' parameters. */
export interface EntryParams extends Record<string, unknown> {
  entryId: number;
  entryKind: string;
  entryMemo: string | null;
  /** the draft's params as JSON text, cast to jsonb by the statement */
  entryMemoParams: string;
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
 * An entry as three data-modifying CTEs (`ledger_entry`, `ledger_postings`, `ledger_heads_moved`) for the
 * caller's statement (src/db/statement.ts), so that it is written with the caller's own changes in one round
 * trip; PostgreSQL checks the postings' foreign keys at the end of that statement. Each user's ledger head
 * moves to the new chain head and by the entry's amounts, in the same statement as the postings. entryParams
 * gives the values. The only SQL that writes postings: postEntry runs it on its own.
 */
export function entryCtes(p: (name: keyof EntryParams & string) => string): string {
  return `ledger_entry as (
      insert into journal_entries (id, kind, memo, params, ref, created_at) overriding system value
      values (${p('entryId')}::int, ${p('entryKind')}::text, ${p('entryMemo')}::text,
        ${p('entryMemoParams')}::jsonb, ${p('entryRef')}::text, ${p('entryAt')}::timestamptz)
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

/** postEntry's statement: entryCtes alone. */
const entryStatement = statement<EntryParams>('ledger_post_entry', (p) => `with ${entryCtes(p)} select 1`);
const drawEntryId = statement<Record<string, never>, { id: string }>(
  'ledger_draw_entry_id',
  () => `select nextval(pg_get_serial_sequence('journal_entries', 'id'))::text as id`,
);

/**
 * Writes one balanced journal entry (two statements: its id drawn, then entryCtes with the entry's values);
 * refuses an empty, unbalanced or zero-amount entry. Lines of zero are dropped first (a reservation that
 * exactly matches its fill nets to nothing). The caller holds the lock of every user in the entry (lockUser).
 */
export async function postEntry(db: Executor, entry: EntryDraft): Promise<number> {
  const lines = checkedLines(entry);
  const [drawn] = await run(db, drawEntryId, {});
  if (!drawn) throw new LedgerError('journal entry id was not drawn');
  const id = Number(drawn.id);
  await run(db, entryStatement, await paramsOf(db, id, entry, lines));
  return id;
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
    entryMemoParams: JSON.stringify(entry.params),
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

/**
 * The values of entriesStatement: many entries, their postings and the heads they move, each an array
 * literal (src/db/array-literal.ts).
 */
export interface EntriesParams extends Record<string, unknown> {
  entryIds: string;
  entryKinds: string;
  entryMemos: string;
  entryMemoParams: string;
  entryRefs: string;
  entryAts: string;
  postingEntries: string;
  postingAccounts: string;
  postingAmounts: string;
  postingAts: string;
  postingUsers: string;
  postingSeqs: string;
  postingHashes: string;
  headUsers: string;
  headSeqs: string;
  headHashes: string;
  headCash: string;
  headReserved: string;
  headMargin: string;
  headWithdrawing: string;
}

/**
 * entryCtes for many entries at once (postEntries): the same three writes, each a multi-row insert or update
 * from arrays, so a batch of entries costs one round trip whatever its size. Each user's head moves once, to
 * the last of the batch's postings on the user's chain, by the sum of the batch's amounts.
 */
const entriesStatement = statement<EntriesParams>(
  'ledger_post_entries',
  (p) => `with ledger_entries as (
      insert into journal_entries (id, kind, memo, params, ref, created_at) overriding system value
      select e.id, e.kind, e.memo, e.params::jsonb, e.ref, e.at
      from unnest(${p('entryIds')}::int[], ${p('entryKinds')}::text[], ${p('entryMemos')}::text[],
        ${p('entryMemoParams')}::text[], ${p('entryRefs')}::text[], ${p('entryAts')}::timestamptz[])
        as e(id, kind, memo, params, ref, at)
    ),
    ledger_postings as (
      insert into postings (entry_id, account_id, amount, created_at, user_id, seq, hash)
      select l.entry_id, l.account_id, l.amount, l.at, l.user_id, l.seq, l.hash
      from unnest(${p('postingEntries')}::int[], ${p('postingAccounts')}::int[], ${p('postingAmounts')}::bigint[],
        ${p('postingAts')}::timestamptz[], ${p('postingUsers')}::int[], ${p('postingSeqs')}::int[],
        ${p('postingHashes')}::text[]) as l(entry_id, account_id, amount, at, user_id, seq, hash)
    ),
    ledger_heads_moved as (
      update ledger_heads h set seq = m.seq, hash = m.hash, cash = h.cash + m.cash,
        reserved = h.reserved + m.reserved, margin = h.margin + m.margin,
        withdrawing = h.withdrawing + m.withdrawing
      from unnest(${p('headUsers')}::int[], ${p('headSeqs')}::int[], ${p('headHashes')}::text[],
        ${p('headCash')}::bigint[], ${p('headReserved')}::bigint[], ${p('headMargin')}::bigint[],
        ${p('headWithdrawing')}::bigint[]) as m(user_id, seq, hash, cash, reserved, margin, withdrawing)
      where h.user_id = m.user_id
    )
    select 1`,
);
const drawEntryIdsStatement = statement<{ count: number }, { id: string }>(
  'ledger_draw_entry_ids',
  (p) => `select nextval(pg_get_serial_sequence('journal_entries', 'id'))::text as id
    from generate_series(1, ${p('count')}::int)`,
);
const accountsOfUsers = statement<{ users: number[] }, { user_id: number; kind: string; id: number }>(
  'ledger_accounts_of_users',
  (p) => `select user_id, kind, id from ledger_accounts where user_id = any(${p('users')}::int[])`,
);

/** Entries a batch statement writes at most (its arrays' length stays moderate). */
export const ENTRY_BATCH = 2_000;

/**
 * Draws `count` journal entry ids (one statement), for entries about to be written by writeEntries. It does
 * not depend on the users' locks, so a batch may send it beside lockUsers and await both at once.
 */
export async function drawEntryIds(db: Executor, count: number): Promise<number[]> {
  if (count === 0) return [];
  const drawn = await run(db, drawEntryIdsStatement, { count });
  if (drawn.length !== count) throw new LedgerError('journal entry ids were not drawn');
  return drawn.map((r) => Number(r.id));
}

/**
 * entriesStatement's values for drafts whose ids were drawn (drawEntryIds, `ids[i]` for `drafts[i]`): the
 * same checks, postings, chain hashes and heads as postEntry one after another (posting.test.ts), and the
 * transaction's memory of the heads moved past them. The caller holds every user's lock (lockUsers), which
 * also remembered their chain heads and account ids; accounts it does not remember are read in one
 * statement for all. The values must then be written in this transaction (writeEntries).
 */
export async function prepareEntries(
  db: Executor,
  ids: readonly number[],
  drafts: readonly EntryDraft[],
): Promise<EntriesParams> {
  if (ids.length !== drafts.length) throw new LedgerError('one entry id a draft');
  const checked = drafts.map((draft) => checkedLines(draft));
  // What the lines name, resolved before the loop, which then awaits nothing: the house accounts, the
  // users' accounts and chain heads (each a map lookup when the lock remembered them).
  const house = new Map<HouseAccountKind, number>();
  const users = new Set<number>();
  for (const lines of checked) {
    for (const line of lines) {
      if ('house' in line) {
        if (!house.has(line.house)) house.set(line.house, await houseAccountId(db, line.house));
      } else users.add(line.user);
    }
  }
  const unknown = [...users].filter((user) =>
    USER_ACCOUNT_KINDS.some((kind) => knownUserAccountId(db, user, kind) === undefined),
  );
  const accounts = new Map<number, Map<string, number>>();
  if (unknown.length > 0) {
    for (const row of await run(db, accountsOfUsers, { users: unknown })) {
      let mine = accounts.get(row.user_id);
      if (!mine) accounts.set(row.user_id, (mine = new Map<string, number>()));
      mine.set(row.kind, row.id);
    }
    for (const [user, mine] of accounts) rememberUserAccounts(db, user, [...mine]);
  }
  const accountOf = (user: number, kind: UserAccountKind): number => {
    const id = knownUserAccountId(db, user, kind) ?? accounts.get(user)?.get(kind);
    if (id === undefined) throw new LedgerError(`user ${user} has no ${kind} account`);
    return id;
  };
  const heads = new Map<number, HeadMove>();
  for (const user of users) {
    const head = heldHeads(db, user)?.get(user) ?? (await chainHead(db, user));
    heads.set(user, { ...head, delta: { cash: 0, reserved: 0, margin: 0, withdrawing: 0 } });
  }

  const entryIds: number[] = [];
  const entryKinds: string[] = [];
  const entryMemos: (string | null)[] = [];
  const entryMemoParams: string[] = [];
  const entryRefs: (string | null)[] = [];
  const entryAts: string[] = [];
  const postingEntries: number[] = [];
  const postingAccounts: number[] = [];
  const postingAmounts: number[] = [];
  const postingAts: string[] = [];
  const postingUsers: (number | null)[] = [];
  const postingSeqs: (number | null)[] = [];
  const postingHashes: (string | null)[] = [];
  // a batch's drafts mostly share one Date: its text is made once
  let lastAt: Date | undefined;
  let at = '';
  for (const [i, draft] of drafts.entries()) {
    const id = ids[i] ?? 0;
    if (draft.at !== lastAt) {
      lastAt = draft.at;
      at = draft.at.toISOString();
    }
    entryIds.push(id);
    entryKinds.push(draft.kind);
    entryMemos.push(draft.memo ?? null);
    entryMemoParams.push(JSON.stringify(draft.params));
    entryRefs.push(draft.ref ?? null);
    entryAts.push(at);
    for (const line of checked[i] ?? []) {
      postingEntries.push(id);
      postingAmounts.push(line.amount);
      postingAts.push(at);
      if ('house' in line) {
        postingAccounts.push(house.get(line.house) ?? 0);
        postingUsers.push(null);
        postingSeqs.push(null);
        postingHashes.push(null);
        continue;
      }
      const move = heads.get(line.user);
      if (!move) throw new LedgerError(`user ${line.user} has no ledger head`);
      move.seq += 1;
      move.hash = chainHash(move.hash, {
        seq: move.seq,
        entry: id,
        at,
        kind: draft.kind,
        account: line.account,
        amount: line.amount,
      });
      move.delta[line.account] += line.amount;
      postingAccounts.push(accountOf(line.user, line.account));
      postingUsers.push(line.user);
      postingSeqs.push(move.seq);
      postingHashes.push(move.hash);
    }
  }
  const moved = [...heads];
  for (const [userId, move] of moved) heldHeads(db, userId)?.set(userId, { seq: move.seq, hash: move.hash });
  return {
    entryIds: intArrayLiteral(entryIds),
    entryKinds: textArrayLiteral(entryKinds),
    entryMemos: textArrayLiteral(entryMemos),
    entryMemoParams: textArrayLiteral(entryMemoParams),
    entryRefs: textArrayLiteral(entryRefs),
    entryAts: textArrayLiteral(entryAts),
    postingEntries: intArrayLiteral(postingEntries),
    postingAccounts: intArrayLiteral(postingAccounts),
    postingAmounts: intArrayLiteral(postingAmounts),
    postingAts: textArrayLiteral(postingAts),
    postingUsers: intArrayLiteral(postingUsers),
    postingSeqs: intArrayLiteral(postingSeqs),
    postingHashes: textArrayLiteral(postingHashes),
    headUsers: intArrayLiteral(moved.map(([userId]) => userId)),
    headSeqs: intArrayLiteral(moved.map(([, m]) => m.seq)),
    headHashes: textArrayLiteral(moved.map(([, m]) => m.hash)),
    headCash: intArrayLiteral(moved.map(([, m]) => m.delta.cash)),
    headReserved: intArrayLiteral(moved.map(([, m]) => m.delta.reserved)),
    headMargin: intArrayLiteral(moved.map(([, m]) => m.delta.margin)),
    headWithdrawing: intArrayLiteral(moved.map(([, m]) => m.delta.withdrawing)),
  };
}

/**
 * Writes entries prepared by prepareEntries (one statement). The statement is sent when this is called, so
 * a caller may send its next statements of the same transaction behind it and await them all together
 * (PostgreSQL runs them in order; if one fails, those behind it fail too and the transaction rolls back).
 */
export function writeEntries(db: Executor, params: EntriesParams): Promise<unknown> {
  return run(db, entriesStatement, params);
}

/**
 * Writes many balanced journal entries, in order, as postEntry would one by one (the same checks, postings,
 * chain hashes and heads: posting.test.ts), but in two statements per ENTRY_BATCH entries: their ids drawn,
 * then entriesStatement. For the daily jobs that pay thousands of holders (ADR 0027). The caller holds the
 * lock of every user in the entries (lockUsers). Answers the entries' ids in the drafts' order.
 */
export async function postEntries(db: Executor, drafts: readonly EntryDraft[]): Promise<number[]> {
  const ids: number[] = [];
  for (let start = 0; start < drafts.length; start += ENTRY_BATCH) {
    const batch = drafts.slice(start, start + ENTRY_BATCH);
    const drawn = await drawEntryIds(db, batch.length);
    await writeEntries(db, await prepareEntries(db, drawn, batch));
    ids.push(...drawn);
  }
  return ids;
}

/** Demo mode only: the visible journal entry that gives a user demo cash from the house. */
export async function fundDemoCash(db: Executor, userId: number, amount: Sen, at: Date): Promise<number> {
  return postEntry(db, {
    kind: 'demo_funding',
    memo: 'Demo cash (demo mode): not real money',
    params: { amount },
    at,
    lines: [
      { user: userId, account: 'cash', amount },
      { house: 'demo_funding', amount: negSen(amount) },
    ],
  });
}
