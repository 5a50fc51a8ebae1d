import { and, count, desc, eq } from 'drizzle-orm';
import {
  DEPOSIT_MAX_PENDING,
  sen,
  translate,
  type Locale,
  type TDeposit,
  type TDepositAccount,
  type TDepositCreate,
  type TReviewStatus,
  type TSettings,
} from '@kabuto/contract';
import type { Executor, Tx } from '../../db/types.js';
import { deposits } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import type { Clock } from '../../lib/clock.js';
import { addDays, tokyoParts } from '../../lib/tokyo-time.js';
import { requireVerified } from '../identity/identity.js';
import { notify, type EventOutbox } from '../messages/messages.js';
import { ownUpload } from '../uploads/uploads.js';
import { findBank } from '../banking/zengin.js';

export type DepositRow = typeof deposits.$inferSelect;

/** How far back a transfer date may lie. */
export const TRANSFER_DATE_MAX_AGE_DAYS = 30;

/** The user's own 7-digit virtual account number: the published prefix, then the user id. */
export function virtualAccountNumber(prefix: string, userId: number): string {
  return prefix + String(userId).padStart(7 - prefix.length, '0');
}

/**
 * The firm's deposit account as the reader reads it (ADR 0023). With a published Zengin bank code, the
 * bank and branch names come from the Zengin data: as written in Japanese for ja, zh-Hans and zh-Hant
 * readers (三井住友銀行 本店営業部; 銀行 as 银行 in simplified Chinese), romanised from the data's romaji in
 * the catalogue's words for the others (en "Mitsuisumitomo Bank", fr "Banque Mitsuisumitomo"), with the
 * Zengin kana beside them, which is what a Japanese bank's transfer screen searches by. Without a code,
 * the published names as written.
 */
export function depositAccount(settings: TSettings, userId: number, locale: Locale = 'ja'): TDepositAccount {
  const d = settings.deposit;
  const bank = d.bank_code === null ? undefined : findBank(d.bank_code);
  const branch = bank?.branches.get(d.branch_number);
  const local = (name: string) => (locale === 'zh-Hans' ? name.replace(/銀行/gu, '银行') : name);
  const japanese = locale === 'ja' || locale === 'zh-Hans' || locale === 'zh-Hant';
  return {
    bank_code: bank ? bank.code : null,
    bank_name: !bank
      ? d.bank_name
      : japanese
        ? local(bank.name)
        : translate(locale, 'banking.bankName', { name: bank.roma }),
    bank_kana: bank ? bank.kana : null,
    branch_name: !branch
      ? d.branch_name
      : japanese
        ? local(branch.name)
        : translate(locale, 'banking.branchName', { name: branch.roma }),
    branch_kana: branch ? branch.kana : null,
    branch_number: d.branch_number,
    account_type: d.account_type,
    account_number: virtualAccountNumber(d.number_prefix, userId),
    holder: d.holder,
    holder_kana: d.holder_kana,
    deposit_url: d.url,
  };
}

export function depositView(row: DepositRow): TDeposit {
  return {
    id: row.id,
    amount: sen(row.amount),
    transfer_date: row.transferDate,
    proof_upload_id: row.proofUploadId,
    status: row.status,
    reason: row.reason,
    created_at: row.createdAt.toISOString(),
    reviewed_at: row.reviewedAt?.toISOString() ?? null,
  };
}

/**
 * A deposit notice: the user says a transfer was made to their virtual account. Nothing is credited until
 * an operator matches it with the bank's record and approves it.
 */
export async function fileDeposit(
  tx: Tx,
  clock: Clock,
  userId: number,
  input: TDepositCreate,
  outbox: EventOutbox,
): Promise<DepositRow> {
  await requireVerified(tx, userId);
  const now = clock.now();
  const today = tokyoParts(now).date;
  if (input.transfer_date > today || input.transfer_date < addDays(today, -TRANSFER_DATE_MAX_AGE_DAYS)) {
    throw new AppError('TRANSFER_DATE_INVALID');
  }
  if (input.proof_upload_id !== undefined) {
    await ownUpload(tx, userId, input.proof_upload_id, ['deposit_proof']);
  }
  // A cap on notices waiting for review (counted under the user's lock, which the route's claim holds).
  const [waiting] = await tx
    .select({ n: count() })
    .from(deposits)
    .where(and(eq(deposits.userId, userId), eq(deposits.status, 'pending')));
  if ((waiting?.n ?? 0) >= DEPOSIT_MAX_PENDING) {
    throw new AppError('DEPOSIT_TOO_MANY_PENDING', { max: DEPOSIT_MAX_PENDING });
  }
  const [row] = await tx
    .insert(deposits)
    .values({
      userId,
      amount: input.amount,
      transferDate: input.transfer_date,
      proofUploadId: input.proof_upload_id ?? null,
      createdAt: now,
    })
    .returning();
  if (!row) throw new Error('deposit was not written');
  await notify(tx, outbox, userId, 'deposit.filed', { amount: sen(row.amount) }, now);
  return row;
}

export async function listDeposits(
  db: Executor,
  userId: number,
  query: { status?: TReviewStatus; limit: number; offset: number },
): Promise<{ total: number; items: DepositRow[] }> {
  const where = and(
    eq(deposits.userId, userId),
    query.status ? eq(deposits.status, query.status) : undefined,
  );
  const [items, [total]] = await Promise.all([
    db
      .select()
      .from(deposits)
      .where(where)
      .orderBy(desc(deposits.id))
      .limit(query.limit)
      .offset(query.offset),
    db.select({ n: count() }).from(deposits).where(where),
  ]);
  return { total: total?.n ?? 0, items };
}
