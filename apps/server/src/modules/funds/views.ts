import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import { alias, type AnyPgColumn, type PgTable } from 'drizzle-orm/pg-core';
import type {
  TBankAccountReview,
  TDepositReview,
  TIdentityReview,
  TReviewStatus,
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

/** The queue filters of a table with `status`, `user_id` and `id` columns (and one item when `id` is given). */
function filters(
  t: { status: AnyPgColumn; userId: AnyPgColumn; id: AnyPgColumn },
  q: QueueQuery,
  id: number | undefined,
  status: string | undefined = q.status,
): SQL | undefined {
  return and(
    status ? eq(t.status, status) : undefined,
    q.user_id ? eq(t.userId, q.user_id) : undefined,
    id !== undefined ? eq(t.id, id) : undefined,
  );
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
    id_number: row.idNumber,
    front_upload_id: row.frontUploadId,
    back_upload_id: row.backUploadId,
    status: row.status,
    reason: row.reason,
    reviewed_by: by,
    reviewed_at: row.reviewedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

/** Identity queue statuses are pending / passed / rejected; the queue filter's `approved` means passed. */
const identityStatus = (s: TReviewStatus) => (s === 'approved' ? 'passed' : s);

export async function identityQueue(
  db: Executor,
  q: QueueQuery,
  id?: number,
): Promise<Page<TIdentityReview>> {
  const t = identityVerifications;
  const where = filters(t, q, id, q.status && identityStatus(q.status));
  const [rows, n] = await Promise.all([
    db
      .select({ row: t, phone: users.phone, reviewer: reviewer.username })
      .from(t)
      .innerJoin(users, eq(users.id, t.userId))
      .leftJoin(reviewer, eq(reviewer.id, t.reviewedBy))
      .where(where)
      .orderBy(desc(t.id))
      .limit(q.limit)
      .offset(q.offset),
    total(db, t, where),
  ]);
  return { total: n, items: rows.map(identityReviewView) };
}

/** The newest identity submission of a user, as the console shows it. */
export async function latestIdentityReview(db: Executor, userId: number): Promise<TIdentityReview | null> {
  const page = await identityQueue(db, { user_id: userId, limit: 1, offset: 0 });
  return page.items[0] ?? null;
}

export async function bankAccountQueue(
  db: Executor,
  q: QueueQuery,
  id?: number,
): Promise<Page<TBankAccountReview>> {
  const t = bankAccounts;
  const where = filters(t, q, id);
  const [rows, n] = await Promise.all([
    db
      .select({ row: t, phone: users.phone, reviewer: reviewer.username })
      .from(t)
      .innerJoin(users, eq(users.id, t.userId))
      .leftJoin(reviewer, eq(reviewer.id, t.reviewedBy))
      .where(where)
      .orderBy(desc(t.id))
      .limit(q.limit)
      .offset(q.offset),
    total(db, t, where),
  ]);
  const items: TBankAccountReview[] = [];
  for (const { row, phone, reviewer: by } of rows) {
    const identity = await latestIdentityReview(db, row.userId);
    items.push({
      ...bankAccountView(row),
      user_id: row.userId,
      phone,
      verified_name: identity?.status === 'passed' ? identity.full_name : null,
      reviewed_by: by,
    });
  }
  return { total: n, items };
}

export async function depositQueue(
  db: Executor,
  config: Config,
  q: QueueQuery,
  id?: number,
): Promise<Page<TDepositReview>> {
  const t = deposits;
  const where = filters(t, q, id);
  const [rows, n, settings] = await Promise.all([
    db
      .select({ row: t, phone: users.phone, reviewer: reviewer.username })
      .from(t)
      .innerJoin(users, eq(users.id, t.userId))
      .leftJoin(reviewer, eq(reviewer.id, t.reviewedBy))
      .where(where)
      .orderBy(desc(t.id))
      .limit(q.limit)
      .offset(q.offset),
    total(db, t, where),
    loadSettings(db, config),
  ]);
  return {
    total: n,
    items: rows.map(({ row, phone, reviewer: by }) => ({
      ...depositView(row),
      user_id: row.userId,
      phone,
      virtual_account_number: virtualAccountNumber(settings.deposit.number_prefix, row.userId),
      reviewed_by: by,
    })),
  };
}

export async function withdrawalQueue(
  db: Executor,
  q: QueueQuery,
  id?: number,
): Promise<Page<TWithdrawalReview>> {
  const t = withdrawals;
  const where = filters(t, q, id);
  const [rows, n] = await Promise.all([
    db
      .select({
        row: t,
        account: bankAccounts,
        phone: users.phone,
        reviewer: reviewer.username,
        first: firstApprover.username,
      })
      .from(t)
      .innerJoin(users, eq(users.id, t.userId))
      .innerJoin(bankAccounts, eq(bankAccounts.id, t.bankAccountId))
      .leftJoin(reviewer, eq(reviewer.id, t.reviewedBy))
      .leftJoin(firstApprover, eq(firstApprover.id, t.firstApprovedBy))
      .where(where)
      .orderBy(desc(t.id))
      .limit(q.limit)
      .offset(q.offset),
    total(db, t, where),
  ]);
  return {
    total: n,
    items: rows.map(({ row, account, phone, reviewer: by, first }) => ({
      ...withdrawalView(row, account),
      user_id: row.userId,
      phone,
      holder_name: account.holderName,
      bank_account_status: account.status,
      needs_second_approval: row.needsSecondApproval,
      first_approved_by: first,
      first_approved_at: row.firstApprovedAt?.toISOString() ?? null,
      reviewed_by: by,
    })),
  };
}

/** The one item of a page asked for by id, or NOT_FOUND. */
export function only<T>(page: Page<T>): T {
  const [item] = page.items;
  if (item === undefined) throw new AppError('NOT_FOUND');
  return item;
}
