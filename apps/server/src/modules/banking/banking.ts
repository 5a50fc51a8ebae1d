import { and, desc, eq, ne } from 'drizzle-orm';
import {
  isKanaName,
  maskTail,
  sameAccountHolder,
  samePersonName,
  YUCHO_BANK_CODE,
  zenginKana,
  type TBankAccount,
  type TBankAccountCreate,
  type TBankAccountLogEntry,
} from '@kabuto/contract';
import type { Executor, Tx } from '../../db/types.js';
import { bankAccountLog, bankAccounts } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import type { Clock } from '../../lib/clock.js';
import { requireVerified } from '../identity/identity.js';
import { lockUser } from '../ledger/ledger.js';
import { notify, type EventOutbox } from '../messages/messages.js';
import { ownUpload } from '../uploads/uploads.js';
import { findBank, yuchoToZengin } from './zengin.js';

export type BankAccountRow = typeof bankAccounts.$inferSelect;
export type BankAccountLogRow = typeof bankAccountLog.$inferSelect;

/** Accounts a user may have at once (pending, approved or rejected; replaced ones do not count). */
export const MAX_BANK_ACCOUNTS = 3;

export function bankAccountView(row: BankAccountRow): TBankAccount {
  return {
    id: row.id,
    holder_name: row.holderName,
    account_number: row.accountNumber,
    bank_code: row.bankCode,
    bank_name: row.bankName,
    branch_name: row.branchName,
    branch_number: row.branchNumber,
    account_type: row.accountType,
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
 * The holder's name as stored, when it is the customer's: matched with the reading of the name given at
 * account opening (`full_name_kana`, katakana, in the Zengin form: width, small kana, long vowels and
 * spaces folded), and stored in that form. An identity without a reading (verified before account opening
 * asked for it) falls back to the verified name itself (`samePersonName`), as before.
 */
export function holderOf(
  identity: { fullName: string; fullNameKana: string | null },
  holder: string,
): string {
  const reading = identity.fullNameKana;
  if (reading !== null && reading.trim() !== '') {
    if (!sameAccountHolder(reading, holder))
      throw new AppError('BANK_HOLDER_MISMATCH', { name: zenginKana(reading) });
    return zenginKana(holder);
  }
  if (!samePersonName(holder, identity.fullName))
    throw new AppError('BANK_HOLDER_MISMATCH', { name: identity.fullName });
  return isKanaName(holder) ? zenginKana(holder) : holder.trim();
}

interface ResolvedAccount {
  bankCode: string;
  bankName: string;
  branchCode: string;
  branchName: string;
  accountNumber: string;
  accountType: 'ordinary' | 'checking' | 'savings';
}

/**
 * The bank and branch from the Zengin data (their names are the data's, never the client's), and for
 * ゆうちょ銀行 the passbook's 記号・番号 converted to branch, 預金種目 and account number.
 */
export function resolveAccount(input: TBankAccountCreate): ResolvedAccount {
  const bank = findBank(input.bank_code);
  if (!bank) throw new AppError('BANK_CODE_UNKNOWN', { code: input.bank_code });
  let branchCode = input.branch_code ?? '';
  let accountNumber = input.account_number ?? '';
  let accountType = input.account_type;
  if (input.yucho !== undefined && input.bank_code === YUCHO_BANK_CODE) {
    const converted = yuchoToZengin(input.yucho.symbol, input.yucho.number, input.account_type === 'savings');
    if ('error' in converted) throw new AppError('YUCHO_NUMBER_INVALID');
    branchCode = converted.branch_code;
    accountNumber = converted.account_number;
    accountType = converted.account_type;
  }
  const branch = bank.branches.get(branchCode);
  if (!branch) throw new AppError('BRANCH_CODE_UNKNOWN', { bank: bank.name, code: branchCode });
  return {
    bankCode: bank.code,
    bankName: bank.name,
    branchCode,
    branchName: branch.name,
    accountNumber,
    accountType,
  };
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
  const holder = holderOf(identity, input.holder_name);
  const where = resolveAccount(input);
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
      holderName: holder,
      accountNumber: where.accountNumber,
      bankCode: where.bankCode,
      accountType: where.accountType,
      bankName: where.bankName,
      branchName: where.branchName,
      branchNumber: where.branchCode,
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
