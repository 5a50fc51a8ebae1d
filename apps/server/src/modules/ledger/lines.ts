import { and, eq, sql } from 'drizzle-orm';
import { sen } from '@kabuto/contract';
import type { Executor } from '../../db/types.js';
import { journalEntries, ledgerAccounts, postings } from '../../db/schema.js';
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
): Promise<{ total: number; lines: (StatementLine & { memo: string | null })[] }> {
  const chain = db
    .select({
      seq: sql<number>`${postings.seq}`.as('seq'),
      entry: sql<number>`${postings.entryId}`.as('entry'),
      at: sql<Date>`${postings.createdAt}`.as('at'),
      kind: sql<string>`${journalEntries.kind}`.as('kind'),
      memo: sql<string | null>`${journalEntries.memo}`.as('memo'),
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
