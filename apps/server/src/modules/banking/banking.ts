import { and, desc, eq, ne } from 'drizzle-orm';
import {
  maskTail,
  samePersonName,
  type TBankAccount,
  type TBankAccountCreate,
  type TBankAccountLogEntry,
} from '@kabuto/contract';
import type { Executor, Tx } from '../../db/types.js';
import { bankAccountLog, bankAccounts, users } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import type { Clock } from '../../lib/clock.js';
import { verifyPassword } from '../../lib/passwords.js';
import { requireVerified } from '../identity/identity.js';
import { lockUser } from '../ledger/ledger.js';
import { notify, type EventOutbox } from '../messages/messages.js';
import { ownUpload } from '../uploads/uploads.js';

export type BankAccountRow = typeof bankAccounts.$inferSelect;
export type BankAccountLogRow = typeof bankAccountLog.$inferSelect;

/** Accounts a user may have at once (pending, approved or rejected; replaced ones do not count). */
export const MAX_BANK_ACCOUNTS = 3;

export function bankAccountView(row: BankAccountRow): TBankAccount {
  return {
    id: row.id,
    holder_name: row.holderName,
    account_number: row.accountNumber,
    bank_name: row.bankName,
    branch_name: row.branchName,
    branch_number: row.branchNumber,
    image_upload_id: row.imageUploadId,
    status: row.status,
    reason: row.reason,
    created_at: row.createdAt.toISOString(),
    reviewed_at: row.reviewedAt?.toISOString() ?? null,
  };
}

interface LogDetail {
  bank_name: string;
  branch_name: string;
  account_number: string;
  holder_name: string;
}

const logDetail = (row: BankAccountRow): LogDetail => ({
  bank_name: row.bankName,
  branch_name: row.branchName,
  account_number: maskTail(row.accountNumber, 3),
  holder_name: row.holderName,
});

export function bankAccountLogView(row: BankAccountLogRow): TBankAccountLogEntry {
  const detail = JSON.parse(row.detail) as LogDetail;
  return {
    id: row.id,
    bank_account_id: row.bankAccountId,
    action: row.action,
    bank_name: detail.bank_name,
    branch_name: detail.branch_name,
    account_number: detail.account_number,
    holder_name: detail.holder_name,
    reason: row.reason,
    at: row.createdAt.toISOString(),
  };
}

export async function logBankAccount(
  tx: Executor,
  row: BankAccountRow,
  action: BankAccountLogRow['action'],
  at: Date,
  reason: string | null = null,
): Promise<void> {
  await tx.insert(bankAccountLog).values({
    userId: row.userId,
    bankAccountId: row.id,
    action,
    detail: JSON.stringify(logDetail(row)),
    reason,
    createdAt: at,
  });
}

export async function listBankAccounts(db: Executor, userId: number): Promise<BankAccountRow[]> {
  return db
    .select()
    .from(bankAccounts)
    .where(and(eq(bankAccounts.userId, userId), ne(bankAccounts.status, 'replaced')))
    .orderBy(desc(bankAccounts.id));
}

export async function bankAccountHistory(
  db: Executor,
  userId: number,
  limit = 200,
): Promise<BankAccountLogRow[]> {
  return db
    .select()
    .from(bankAccountLog)
    .where(eq(bankAccountLog.userId, userId))
    .orderBy(desc(bankAccountLog.id))
    .limit(limit);
}

/**
 * Adds a bank account, or replaces one (`replaces_id`): only a verified user, only after the login
 * password again, only in the user's own verified name. The account waits for an operator's approval;
 * the user gets a message (so an account added by someone else does not go unnoticed).
 */
export async function addBankAccount(
  tx: Tx,
  clock: Clock,
  userId: number,
  input: TBankAccountCreate,
  outbox: EventOutbox,
): Promise<BankAccountRow> {
  await lockUser(tx, userId);
  const identity = await requireVerified(tx, userId);
  const [user] = await tx
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, userId));
  if (!user || !(await verifyPassword(user.passwordHash, input.login_password))) {
    throw new AppError('PASSWORD_WRONG');
  }
  if (!samePersonName(input.holder_name, identity.fullName)) {
    throw new AppError('BANK_HOLDER_MISMATCH', { name: identity.fullName });
  }
  if (input.image_upload_id !== undefined) {
    await ownUpload(tx, userId, input.image_upload_id, ['bank_account']);
  }
  const now = clock.now();
  const current = await listBankAccounts(tx, userId);
  let replaced: BankAccountRow | undefined;
  if (input.replaces_id !== undefined) {
    replaced = current.find((a) => a.id === input.replaces_id);
    if (!replaced) throw new AppError('BANK_ACCOUNT_NOT_FOUND');
  } else if (current.length >= MAX_BANK_ACCOUNTS) {
    throw new AppError('BANK_ACCOUNT_LIMIT', { max: MAX_BANK_ACCOUNTS });
  }
  if (replaced) {
    const [old] = await tx
      .update(bankAccounts)
      .set({ status: 'replaced' })
      .where(eq(bankAccounts.id, replaced.id))
      .returning();
    if (old) await logBankAccount(tx, old, 'replaced', now);
  }
  const [row] = await tx
    .insert(bankAccounts)
    .values({
      userId,
      holderName: input.holder_name,
      accountNumber: input.account_number,
      bankName: input.bank_name,
      branchName: input.branch_name,
      branchNumber: input.branch_number,
      imageUploadId: input.image_upload_id ?? null,
      createdAt: now,
    })
    .returning();
  if (!row) throw new Error('bank account was not written');
  await logBankAccount(tx, row, replaced ? 'changed' : 'added', now);
  await notify(tx, outbox, userId, 'bank_account.added', messageParams(row), now);
  return row;
}

export const messageParams = (row: BankAccountRow) => ({
  bank_name: row.bankName,
  account_number: maskTail(row.accountNumber, 3),
});
