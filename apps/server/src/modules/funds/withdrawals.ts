import { and, count, desc, eq } from 'drizzle-orm';
import {
  formatYen,
  maskTail,
  negSen,
  sen,
  yen,
  type TReviewStatus,
  type TSettings,
  type TWithdrawal,
  type TWithdrawalCreate,
} from '@kabuto/contract';
import type { Executor, Tx } from '../../db/types.js';
import { bankAccounts, withdrawals } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import type { Clock } from '../../lib/clock.js';
import { nextWindowStart } from '../account/withdrawal-rules.js';
import { parseHHMM } from '../../lib/tokyo-time.js';
import type { BankAccountRow } from '../banking/banking.js';
import { requireVerified } from '../identity/identity.js';
import { postEntry, userBalances } from '../ledger/ledger.js';
import { notify, type EventOutbox } from '../messages/messages.js';
import { requireWithdrawableWithLoans } from '../loans/loans.js';
import { dividendAdjustmentsHeld } from '../dividends/held.js';

export type WithdrawalRow = typeof withdrawals.$inferSelect;

export function withdrawalView(row: WithdrawalRow, account: BankAccountRow): TWithdrawal {
  return {
    id: row.id,
    amount: sen(row.amount),
    bank_account: {
      id: account.id,
      bank_name: account.bankName,
      branch_name: account.branchName,
      account_number: maskTail(account.accountNumber, 3),
    },
    status: row.status,
    process_after: row.processAfter.toISOString(),
    reason: row.reason,
    created_at: row.createdAt.toISOString(),
    reviewed_at: row.reviewedAt?.toISOString() ?? null,
  };
}

/** When a request filed at `now` will be processed: now inside a window, else the next window's start. */
export function processingTime(
  settings: TSettings,
  isBusinessDay: (date: string) => boolean,
  now: Date,
): Date {
  const windows = settings.withdrawal.windows.map((w) => ({
    start: parseHHMM(w.start),
    end: parseHHMM(w.end),
  }));
  return nextWindowStart(windows, isBusinessDay, now);
}

export interface WithdrawalDeps {
  clock: Clock;
  settings: TSettings;
  isBusinessDay: (date: string) => boolean;
  locale: string;
}

/**
 * Files a withdrawal, under the user's lock (the caller, `idempotent`, took it): a verified user, an
 * approved account in the user's name, at least the published minimum, at most the free cash. The amount
 * leaves cash for the user's `withdrawing` account at once, so it cannot be spent or withdrawn twice. No
 * fee, ever. Requests are accepted at any time; the published hours say when they are processed.
 */
export async function fileWithdrawal(
  tx: Tx,
  deps: WithdrawalDeps,
  userId: number,
  input: Omit<TWithdrawalCreate, 'txn_password'>,
  outbox: EventOutbox,
): Promise<{ row: WithdrawalRow; account: BankAccountRow }> {
  await requireVerified(tx, userId);
  const [account] = await tx
    .select()
    .from(bankAccounts)
    .where(and(eq(bankAccounts.id, input.bank_account_id), eq(bankAccounts.userId, userId)));
  if (!account || account.status === 'replaced') throw new AppError('BANK_ACCOUNT_NOT_FOUND');
  if (account.status !== 'approved') throw new AppError('BANK_ACCOUNT_NOT_APPROVED');
  const rules = deps.settings.withdrawal;
  const amount = sen(input.amount);
  if (amount < yen(rules.min_yen)) {
    throw new AppError('WITHDRAWAL_BELOW_MIN', { m: formatYen(yen(rules.min_yen), deps.locale) });
  }
  const { cash } = await userBalances(tx, userId);
  if (amount > cash) {
    throw new AppError('WITHDRAWAL_EXCEEDS_AVAILABLE', { available: formatYen(cash, deps.locale) });
  }
  const now = deps.clock.now();
  // Issue 17 (ADR 0027): from the ex date to the payment, what short positions owe as dividend adjustments.
  const held = await dividendAdjustmentsHeld(tx, userId, now);
  const free = sen(Math.max(0, cash - held));
  if (amount > free) {
    throw new AppError('WITHDRAWAL_DIVIDEND_ADJUSTMENT_HELD', {
      owed: formatYen(held, deps.locale),
      available: formatYen(free, deps.locale),
    });
  }
  // Issue 18 (ADR 0028): while a loan is overdue, the cash it owes cannot be withdrawn.
  await requireWithdrawableWithLoans(tx, userId, amount, free, now, deps.locale);
  const holdEntryId = await postEntry(tx, {
    kind: 'withdrawal_hold',
    memo: `Withdrawal to ${account.bankName} ${maskTail(account.accountNumber, 3)}`,
    // no withdrawal id yet: the withdrawal is written after its request entry (hold_entry_id)
    params: { amount, bank: account.bankName, account: maskTail(account.accountNumber, 3) },
    at: now,
    lines: [
      { user: userId, account: 'cash', amount: negSen(amount) },
      { user: userId, account: 'withdrawing', amount },
    ],
  });
  const processAfter = processingTime(deps.settings, deps.isBusinessDay, now);
  const [row] = await tx
    .insert(withdrawals)
    .values({
      userId,
      bankAccountId: account.id,
      amount,
      processAfter,
      needsSecondApproval: amount > yen(rules.second_approval_over_yen),
      holdEntryId,
      createdAt: now,
    })
    .returning();
  if (!row) throw new Error('withdrawal was not written');
  await notify(
    tx,
    outbox,
    userId,
    'withdrawal.filed',
    { amount, process_after: processAfter.toISOString() },
    now,
  );
  return { row, account };
}

export async function listWithdrawals(
  db: Executor,
  userId: number,
  query: { status?: TReviewStatus; limit: number; offset: number },
): Promise<{ total: number; items: { row: WithdrawalRow; account: BankAccountRow }[] }> {
  const where = and(
    eq(withdrawals.userId, userId),
    query.status ? eq(withdrawals.status, query.status) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select({ row: withdrawals, account: bankAccounts })
      .from(withdrawals)
      .innerJoin(bankAccounts, eq(bankAccounts.id, withdrawals.bankAccountId))
      .where(where)
      .orderBy(desc(withdrawals.id))
      .limit(query.limit)
      .offset(query.offset),
    db.select({ n: count() }).from(withdrawals).where(where),
  ]);
  return { total: total?.n ?? 0, items: rows };
}
