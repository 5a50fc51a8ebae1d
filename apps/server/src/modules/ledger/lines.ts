import { and, eq, sql } from 'drizzle-orm';
import {
  sen,
  type LedgerEntryKind,
  type LedgerMemoParams,
  type Sen,
  type TLedgerMovement,
  type TMovementQuery,
} from '@kabuto/contract';
import type { Executor } from '../../db/types.js';
import { journalEntries, ledgerAccounts, postings, withdrawals } from '../../db/schema.js';
import { tokyoInstant } from '../../lib/tokyo-time.js';
import { GENESIS_HASH } from './ledger.js';
import type { StatementLine } from './statement.js';

export interface LineFilter {
  kind?: string | undefined;
  /** Tokyo dates, inclusive */
  from?: string | undefined;
  to?: string | undefined;
}

/**
 * A user's ledger lines in chain order, each with its account's balance after it (a running sum over the
 * whole history, so a filtered page still shows true balances) and the previous hash of the chain.
 */
export async function ledgerLines(
  db: Executor,
  userId: number,
  filter: LineFilter,
  page?: { limit: number; offset: number; newestFirst: boolean },
): Promise<{
  total: number;
  lines: (StatementLine & { memo: string | null; params: LedgerMemoParams | null })[];
}> {
  const chain = db
    .select({
      seq: sql<number>`${postings.seq}`.as('seq'),
      entry: sql<number>`${postings.entryId}`.as('entry'),
      at: sql<Date>`${postings.createdAt}`.as('at'),
      kind: sql<string>`${journalEntries.kind}`.as('kind'),
      memo: sql<string | null>`${journalEntries.memo}`.as('memo'),
      params: sql<LedgerMemoParams | null>`${journalEntries.params}`.as('params'),
      account: sql<string>`${ledgerAccounts.kind}`.as('account'),
      amount: sql<string>`${postings.amount}::text`.as('amount'),
      balance:
        sql<string>`(sum(${postings.amount}) over (partition by ${postings.accountId} order by ${postings.seq}))::text`.as(
          'balance',
        ),
      prevHash: sql<string | null>`lag(${postings.hash}) over (order by ${postings.seq})`.as('prev_hash'),
      hash: sql<string>`${postings.hash}`.as('hash'),
    })
    .from(postings)
    .innerJoin(journalEntries, eq(journalEntries.id, postings.entryId))
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, postings.accountId))
    .where(eq(postings.userId, userId))
    .as('chain');
  const conditions = [
    filter.kind ? eq(chain.kind, filter.kind) : undefined,
    filter.from ? sql`${chain.at} >= ${tokyoInstant(filter.from, 0).toISOString()}::timestamptz` : undefined,
    filter.to ? sql`${chain.at} < ${tokyoInstant(filter.to, 24 * 60).toISOString()}::timestamptz` : undefined,
  ].filter((c) => c !== undefined);
  const where = conditions.length > 0 ? and(...conditions) : undefined;
  const [count] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(chain)
    .where(where);
  let query = db
    .select()
    .from(chain)
    .where(where)
    .orderBy(page?.newestFirst ? sql`${chain.seq} desc` : sql`${chain.seq} asc`)
    .$dynamic();
  if (page) query = query.limit(page.limit).offset(page.offset);
  const rows = await query;
  return {
    total: count?.n ?? 0,
    lines: rows.map((r) => ({
      seq: r.seq,
      entry: r.entry,
      at: new Date(r.at).toISOString(),
      kind: r.kind,
      memo: r.memo,
      params: r.params,
      account: r.account,
      amount: sen(BigInt(r.amount)),
      balance: sen(BigInt(r.balance)),
      prevHash: r.prevHash ?? GENESIS_HASH,
      hash: r.hash,
    })),
  };
}

/** The ledger's own hashes for a range of seqs of a user. */
export async function chainHashes(
  db: Executor,
  userId: number,
  fromSeq: number,
  toSeq: number,
): Promise<Map<number, string>> {
  const rows = await db
    .select({ seq: postings.seq, hash: postings.hash })
    .from(postings)
    .where(and(eq(postings.userId, userId), sql`${postings.seq} between ${fromSeq} and ${toSeq}`));
  return new Map(rows.flatMap((r) => (r.seq !== null && r.hash !== null ? [[r.seq, r.hash] as const] : [])));
}

/**
 * The user's movements (ZLedgerMovement), newest first: the user's journal entries grouped by the business
 * object they belong to. The rule: a withdrawal's request entry belongs to its withdrawal (found by the
 * withdrawal's hold_entry_id, since it is written before the withdrawal has an id), as do its payout or
 * return (ref `withdrawal:<id>`); any other entry belongs to its ref (an order number, `deposit:<id>`), and
 * an entry without one is a movement of its own. The filters apply to whole movements (one entry of the
 * kind, one entry in the period). Three statements: the page, the count, the cash balance.
 */
export async function ledgerMovements(
  db: Executor,
  userId: number,
  query: TMovementQuery,
): Promise<{ total: number; cash_balance: Sen; items: TLedgerMovement[] }> {
  const entries = db
    .select({
      key: sql<string>`coalesce('withdrawal:' || ${withdrawals.id}, ${journalEntries.ref}, 'entry:' || ${journalEntries.id})`.as(
        'key',
      ),
      entry: sql<number>`${journalEntries.id}`.as('entry'),
      kind: sql<string>`${journalEntries.kind}`.as('kind'),
      memo: sql<string | null>`${journalEntries.memo}`.as('memo'),
      params: sql<LedgerMemoParams | null>`${journalEntries.params}`.as('params'),
      at: sql<Date>`${journalEntries.createdAt}`.as('at'),
      cash: sql<string>`sum(case when ${ledgerAccounts.kind} = 'cash' then ${postings.amount} else 0 end)`.as(
        'cash',
      ),
    })
    .from(postings)
    .innerJoin(journalEntries, eq(journalEntries.id, postings.entryId))
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, postings.accountId))
    .leftJoin(withdrawals, eq(withdrawals.holdEntryId, journalEntries.id))
    .where(eq(postings.userId, userId))
    .groupBy(
      sql`1`,
      journalEntries.id,
      journalEntries.kind,
      journalEntries.memo,
      journalEntries.params,
      journalEntries.createdAt,
    )
    .as('entries');
  const having = [
    query.kind ? sql`bool_or(${entries.kind} = ${query.kind})` : undefined,
    query.from
      ? sql`max(${entries.at}) >= ${tokyoInstant(query.from, 0).toISOString()}::timestamptz`
      : undefined,
    query.to
      ? sql`min(${entries.at}) < ${tokyoInstant(query.to, 24 * 60).toISOString()}::timestamptz`
      : undefined,
  ].filter((c) => c !== undefined);
  const movements = db
    .select({
      key: entries.key,
      first: sql<number>`min(${entries.entry})`.as('first'),
      kind: sql<string>`(array_agg(${entries.kind} order by ${entries.entry}))[1]`.as('first_kind'),
      state: sql<string>`(array_agg(${entries.kind} order by ${entries.entry} desc))[1]`.as('state'),
      startedAt: sql<Date>`min(${entries.at})`.as('started_at'),
      updatedAt: sql<Date>`max(${entries.at})`.as('updated_at'),
      cash: sql<string>`sum(${entries.cash})::text`.as('net_cash'),
      openingCash: sql<string>`((array_agg(${entries.cash} order by ${entries.entry}))[1])::text`.as(
        'opening_cash',
      ),
      memo: sql<
        string | null
      >`(array_agg(${entries.memo} order by ${entries.entry}) filter (where ${entries.memo} is not null))[1]`.as(
        'first_memo',
      ),
      // the first entry's, whose kind is the movement's: null when that entry is older than params
      params: sql<LedgerMemoParams | null>`(array_agg(${entries.params} order by ${entries.entry}))[1]`.as(
        'first_params',
      ),
      entries: sql<number>`count(*)::int`.as('entry_count'),
    })
    .from(entries)
    .groupBy(entries.key)
    .having(having.length > 0 ? and(...having) : undefined)
    .as('movements');
  const [rows, [count], [balance]] = await Promise.all([
    db
      .select()
      .from(movements)
      .orderBy(sql`${movements.first} desc`)
      .limit(query.limit)
      .offset(query.offset),
    db.select({ n: sql<number>`count(*)::int` }).from(movements),
    db.select({ cash: sql<string>`coalesce(sum(${entries.cash}), 0)::text` }).from(entries),
  ]);
  return {
    total: count?.n ?? 0,
    cash_balance: sen(BigInt(balance?.cash ?? '0')),
    items: rows.map((r) => ({
      key: r.key,
      kind: r.kind as LedgerEntryKind,
      state: r.state as LedgerEntryKind,
      started_at: new Date(r.startedAt).toISOString(),
      updated_at: new Date(r.updatedAt).toISOString(),
      cash: sen(BigInt(r.cash)),
      opening_cash: sen(BigInt(r.openingCash)),
      memo: r.memo,
      params: r.params,
      entries: r.entries,
    })),
  };
}
