import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import { alias, type AnyPgColumn, type PgSelect, type PgTable } from 'drizzle-orm/pg-core';
import type {
  TBankAccountReview,
  TDepositReview,
  TIdentityReview,
  TReviewStatus,
  TSettings,
  TWithdrawalReview,
} from '@kabuto/contract';
import type { Executor } from '../../db/types.js';
import {
  bankAccounts,
  deposits,
  identityVerifications,
  operators,
  users,
  withdrawals,
} from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { bankAccountView } from '../banking/banking.js';
import { loadSettings } from '../settings/settings.js';
import type { Config } from '../../config.js';
import { depositView, virtualAccountNumber } from './deposits.js';
import { withdrawalView } from './withdrawals.js';
import { applicationView, maskedIdNumber } from '../opening/application.js';

export { bankAccountLogView, bankAccountView } from '../banking/banking.js';
export { depositView } from './deposits.js';
export { withdrawalView } from './withdrawals.js';
export { messageView } from '../messages/messages.js';

/** The console's views of the review queues: each item with its user's phone and its reviewers' names. */
const reviewer = alias(operators, 'reviewer');
const firstApprover = alias(operators, 'first_approver');

export interface QueueQuery {
  status?: TReviewStatus;
  user_id?: number;
  limit: number;
  offset: number;
}
export interface Page<T> {
  total: number;
  items: T[];
}

/** The columns every review item has, by which its queue is filtered and ordered. */
interface ItemTable {
  status: AnyPgColumn;
  userId: AnyPgColumn;
  id: AnyPgColumn;
}

/**
 * One description per queue: the item's table, the page's one select (the item with what its view shows
 * joined in, however many rows the page has), and how a row becomes the item the console reads. `page`
 * does the rest the same way for each: the filters, the order (newest first), the page and its total.
 */
interface QueueView<S extends PgSelect, T, P> {
  table: ItemTable & PgTable;
  /** the queue filter's status as this table spells it */
  status?: (s: TReviewStatus) => string;
  select: (db: Executor) => S;
  view: (row: Awaited<S>[number], prepared: P) => T;
}

async function page<S extends PgSelect, T, P>(
  spec: QueueView<S, T, P>,
  db: Executor,
  q: QueueQuery,
  id: number | undefined,
  prepared: P | Promise<P>,
): Promise<Page<T>> {
  const t = spec.table;
  const status = q.status && (spec.status ? spec.status(q.status) : q.status);
  const where = and(
    status ? eq(t.status, status) : undefined,
    q.user_id ? eq(t.userId, q.user_id) : undefined,
    id !== undefined ? eq(t.id, id) : undefined,
  );
  const [rows, n, p] = await Promise.all([
    spec.select(db).where(where).orderBy(desc(t.id)).limit(q.limit).offset(q.offset),
    total(db, t, where),
    prepared,
  ]);
  return { total: n, items: rows.map((row) => spec.view(row, p)) };
}

async function total(db: Executor, t: PgTable, where: SQL | undefined): Promise<number> {
  const [row] = await db.select({ n: count() }).from(t).where(where);
  return row?.n ?? 0;
}

type IdentityJoined = {
  row: typeof identityVerifications.$inferSelect;
  phone: string;
  reviewer: string | null;
};

export function identityReviewView({ row, phone, reviewer: by }: IdentityJoined): TIdentityReview {
  return {
    id: row.id,
    user_id: row.userId,
    phone,
    full_name: row.fullName,
    id_number: row.myNumberLast4 === null ? row.idNumber : maskedIdNumber(row),
    front_upload_id: row.frontUploadId,
    back_upload_id: row.backUploadId,
    status: row.status,
    reason: row.reason,
    reviewed_by: by,
    reviewed_at: row.reviewedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    application: applicationView(row),
  };
}

const IDENTITY = {
  table: identityVerifications,
  /** Identity queue statuses are pending / passed / rejected; the queue filter's `approved` means passed. */
  status: (s: TReviewStatus) => (s === 'approved' ? 'passed' : s),
  select: (db: Executor) =>
    db
      .select({ row: identityVerifications, phone: users.phone, reviewer: reviewer.username })
      .from(identityVerifications)
      .innerJoin(users, eq(users.id, identityVerifications.userId))
      .leftJoin(reviewer, eq(reviewer.id, identityVerifications.reviewedBy))
      .$dynamic(),
  view: identityReviewView,
};

/**
 * The name of the user's newest identity submission when it passed, read in the same statement as the
 * bank account (one correlated subquery per row, not one query per row).
 */
const verifiedName = sql<string | null>`(
  select case when iv.status = 'passed' then iv.full_name end
  from ${identityVerifications} iv
  where iv.user_id = ${bankAccounts.userId}
  order by iv.id desc
  limit 1
)`;

const BANK_ACCOUNT = {
  table: bankAccounts,
  select: (db: Executor) =>
    db
      .select({ row: bankAccounts, phone: users.phone, reviewer: reviewer.username, verifiedName })
      .from(bankAccounts)
      .innerJoin(users, eq(users.id, bankAccounts.userId))
      .leftJoin(reviewer, eq(reviewer.id, bankAccounts.reviewedBy))
      .$dynamic(),
  view: ({
    row,
    phone,
    reviewer: by,
    verifiedName: name,
  }: {
    row: typeof bankAccounts.$inferSelect;
    phone: string;
    reviewer: string | null;
    verifiedName: string | null;
  }): TBankAccountReview => ({
    ...bankAccountView(row),
    user_id: row.userId,
    phone,
    verified_name: name,
    reviewed_by: by,
  }),
};

const DEPOSIT = {
  table: deposits,
  select: (db: Executor) =>
    db
      .select({
        row: deposits,
        phone: users.phone,
        reviewer: reviewer.username,
        first: firstApprover.username,
      })
      .from(deposits)
      .innerJoin(users, eq(users.id, deposits.userId))
      .leftJoin(reviewer, eq(reviewer.id, deposits.reviewedBy))
      .leftJoin(firstApprover, eq(firstApprover.id, deposits.firstApprovedBy))
      .$dynamic(),
  view: (
    {
      row,
      phone,
      reviewer: by,
      first,
    }: { row: typeof deposits.$inferSelect; phone: string; reviewer: string | null; first: string | null },
    settings: TSettings,
  ): TDepositReview => ({
    ...depositView(row),
    user_id: row.userId,
    phone,
    virtual_account_number: virtualAccountNumber(settings.deposit.number_prefix, row.userId),
    transfer_id: row.transferId,
    first_approved_by: first,
    first_approved_at: row.firstApprovedAt?.toISOString() ?? null,
    reviewed_by: by,
  }),
};

const WITHDRAWAL = {
  table: withdrawals,
  select: (db: Executor) =>
    db
      .select({
        row: withdrawals,
        account: bankAccounts,
        phone: users.phone,
        reviewer: reviewer.username,
        first: firstApprover.username,
      })
      .from(withdrawals)
      .innerJoin(users, eq(users.id, withdrawals.userId))
      .innerJoin(bankAccounts, eq(bankAccounts.id, withdrawals.bankAccountId))
      .leftJoin(reviewer, eq(reviewer.id, withdrawals.reviewedBy))
      .leftJoin(firstApprover, eq(firstApprover.id, withdrawals.firstApprovedBy))
      .$dynamic(),
  view: ({
    row,
    account,
    phone,
    reviewer: by,
    first,
  }: {
    row: typeof withdrawals.$inferSelect;
    account: typeof bankAccounts.$inferSelect;
    phone: string;
    reviewer: string | null;
    first: string | null;
  }): TWithdrawalReview => ({
    ...withdrawalView(row, account),
    user_id: row.userId,
    phone,
    holder_name: account.holderName,
    bank_account_status: account.status,
    needs_second_approval: row.needsSecondApproval,
    first_approved_by: first,
    first_approved_at: row.firstApprovedAt?.toISOString() ?? null,
    reviewed_by: by,
  }),
};

export const identityQueue = (db: Executor, q: QueueQuery, id?: number) =>
  page(IDENTITY, db, q, id, undefined);

/** The newest identity submission of a user, as the console shows it. */
export async function latestIdentityReview(db: Executor, userId: number): Promise<TIdentityReview | null> {
  const found = await identityQueue(db, { user_id: userId, limit: 1, offset: 0 });
  return found.items[0] ?? null;
}

export const bankAccountQueue = (db: Executor, q: QueueQuery, id?: number) =>
  page(BANK_ACCOUNT, db, q, id, undefined);

export const depositQueue = (db: Executor, config: Config, q: QueueQuery, id?: number) =>
  page(DEPOSIT, db, q, id, loadSettings(db, config));

export const withdrawalQueue = (db: Executor, q: QueueQuery, id?: number) =>
  page(WITHDRAWAL, db, q, id, undefined);

/** The one item of a page asked for by id, or NOT_FOUND. */
export function only<T>(page: Page<T>): T {
  const [item] = page.items;
  if (item === undefined) throw new AppError('NOT_FOUND');
  return item;
}
