import { eq } from 'drizzle-orm';
import { negSen, sen } from '@kabuto/contract';
import type { Tx } from '../../db/types.js';
import { bankAccounts, deposits, identityVerifications, users, withdrawals } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import type { Clock } from '../../lib/clock.js';
import { messageParams, logBankAccount } from '../banking/banking.js';
import { audit } from '../console/audit.js';
import type { OperatorPrincipal } from '../console/operators.js';
import { lockUser, postEntry } from '../ledger/ledger.js';
import { notify, type EventOutbox } from '../messages/messages.js';

/**
 * Operators' decisions on what users filed. Each runs in one transaction that takes the user's lock first
 * (as every money movement of the user does), then re-reads the item under that lock: of two operators
 * deciding the same item at once, the second finds it decided (ALREADY_REVIEWED) and changes nothing.
 * Each decision is audited with the state before and after, and the user gets a message.
 */
export type Decision = { approve: true } | { approve: false; reason: string };
export type ReviewKind = 'identity' | 'bank_account' | 'deposit' | 'withdrawal';
export type ReviewStatus = 'passed' | 'approved' | 'rejected' | 'awaiting_second_approval';

export interface ReviewDeps {
  clock: Clock;
  operator: OperatorPrincipal;
}

const tables = {
  identity: identityVerifications,
  bank_account: bankAccounts,
  deposit: deposits,
  withdrawal: withdrawals,
} as const;

type Rows = { [K in ReviewKind]: (typeof tables)[K]['$inferSelect'] };

/**
 * The start of every decision: the item's user (read without a lock, only to know whose lock to take), the
 * user's lock, then the item again under it, which must still be pending.
 */
async function lockForDecision<K extends ReviewKind>(tx: Tx, kind: K, id: number): Promise<Rows[K]> {
  const table = tables[kind] as typeof identityVerifications;
  const [owner] = await tx.select({ userId: table.userId }).from(table).where(eq(table.id, id));
  if (!owner) throw new AppError('NOT_FOUND');
  await lockUser(tx, owner.userId);
  const [row] = await tx.select().from(table).where(eq(table.id, id)).for('update');
  if (!row) throw new AppError('NOT_FOUND');
  if (row.status !== 'pending') throw new AppError('ALREADY_REVIEWED');
  return row as unknown as Rows[K];
}

function snapshot(row: { status: string; reason: string | null }) {
  return { status: row.status, reason: row.reason };
}

export async function reviewIdentity(
  tx: Tx,
  deps: ReviewDeps,
  id: number,
  decision: Decision,
  outbox: EventOutbox,
): Promise<ReviewStatus> {
  const row = await lockForDecision(tx, 'identity', id);
  const { userId } = row;
  const now = deps.clock.now();
  const status = decision.approve ? 'passed' : 'rejected';
  const reason = decision.approve ? null : decision.reason;
  await tx
    .update(identityVerifications)
    .set({ status, reason, reviewedBy: deps.operator.id, reviewedAt: now })
    .where(eq(identityVerifications.id, id));
  await tx
    .update(users)
    .set({ realNameStatus: decision.approve ? 'verified' : 'rejected' })
    .where(eq(users.id, userId));
  await audit(tx, {
    operatorId: deps.operator.id,
    action: decision.approve ? 'identity.approve' : 'identity.reject',
    targetType: 'identity',
    targetId: id,
    userId,
    reason,
    before: snapshot(row),
    after: { status, reason },
    at: now,
  });
  await notify(tx, outbox, userId, `identity.${status}`, reason === null ? {} : { reason }, now);
  return status;
}

export async function reviewBankAccount(
  tx: Tx,
  deps: ReviewDeps,
  id: number,
  decision: Decision,
  outbox: EventOutbox,
): Promise<ReviewStatus> {
  const row = await lockForDecision(tx, 'bank_account', id);
  const { userId } = row;
  const now = deps.clock.now();
  const status = decision.approve ? 'approved' : 'rejected';
  const reason = decision.approve ? null : decision.reason;
  const [updated] = await tx
    .update(bankAccounts)
    .set({ status, reason, reviewedBy: deps.operator.id, reviewedAt: now })
    .where(eq(bankAccounts.id, id))
    .returning();
  if (updated) await logBankAccount(tx, updated, status, now, reason);
  await audit(tx, {
    operatorId: deps.operator.id,
    action: decision.approve ? 'bank_account.approve' : 'bank_account.reject',
    targetType: 'bank_account',
    targetId: id,
    userId,
    reason,
    before: snapshot(row),
    after: { status, reason },
    at: now,
  });
  await notify(
    tx,
    outbox,
    userId,
    `bank_account.${status}`,
    { ...messageParams(row), ...(reason === null ? {} : { reason }) },
    now,
  );
  return status;
}

/** Approval credits the user's cash from bank clearing: the transfer has been matched with the bank's record. */
export async function reviewDeposit(
  tx: Tx,
  deps: ReviewDeps,
  id: number,
  decision: Decision,
  outbox: EventOutbox,
): Promise<ReviewStatus> {
  const row = await lockForDecision(tx, 'deposit', id);
  const { userId } = row;
  const now = deps.clock.now();
  const amount = sen(row.amount);
  const status = decision.approve ? 'approved' : 'rejected';
  const reason = decision.approve ? null : decision.reason;
  const entryId = decision.approve
    ? await postEntry(tx, {
        kind: 'deposit',
        memo: `Bank transfer of ${row.transferDate}`,
        ref: `deposit:${row.id}`,
        at: now,
        lines: [
          { user: userId, account: 'cash', amount },
          { house: 'bank_clearing', amount: negSen(amount) },
        ],
      })
    : null;
  await tx
    .update(deposits)
    .set({ status, reason, reviewedBy: deps.operator.id, reviewedAt: now, entryId })
    .where(eq(deposits.id, id));
  await audit(tx, {
    operatorId: deps.operator.id,
    action: decision.approve ? 'deposit.approve' : 'deposit.reject',
    targetType: 'deposit',
    targetId: id,
    userId,
    reason,
    before: snapshot(row),
    after: { status, reason, entry_id: entryId },
    at: now,
  });
  await notify(
    tx,
    outbox,
    userId,
    `deposit.${status}`,
    { amount, ...(reason === null ? {} : { reason }) },
    now,
  );
  return status;
}

/**
 * Approval pays the held amount out to bank clearing; rejection returns it to cash. Above the threshold in
 * force when it was filed, a withdrawal needs two approvals by two different operators.
 */
export async function reviewWithdrawal(
  tx: Tx,
  deps: ReviewDeps,
  id: number,
  decision: Decision,
  outbox: EventOutbox,
): Promise<ReviewStatus> {
  const row = await lockForDecision(tx, 'withdrawal', id);
  const { userId } = row;
  const now = deps.clock.now();
  const amount = sen(row.amount);
  const operatorId = deps.operator.id;
  const base = { operatorId, targetType: 'withdrawal', targetId: id, userId, at: now };

  if (decision.approve && row.needsSecondApproval && row.firstApprovedBy === null) {
    await tx
      .update(withdrawals)
      .set({ firstApprovedBy: operatorId, firstApprovedAt: now })
      .where(eq(withdrawals.id, id));
    await audit(tx, {
      ...base,
      action: 'withdrawal.approve_first',
      before: { status: row.status, first_approved_by: null },
      after: { status: row.status, first_approved_by: operatorId },
    });
    return 'awaiting_second_approval';
  }
  if (decision.approve && row.firstApprovedBy === operatorId) throw new AppError('SECOND_APPROVER_SAME');

  if (decision.approve) {
    const [account] = await tx.select().from(bankAccounts).where(eq(bankAccounts.id, row.bankAccountId));
    if (account?.status !== 'approved') throw new AppError('BANK_ACCOUNT_NOT_APPROVED');
  }
  const status = decision.approve ? 'approved' : 'rejected';
  const reason = decision.approve ? null : decision.reason;
  const settleEntryId = await postEntry(tx, {
    kind: decision.approve ? 'withdrawal_paid' : 'withdrawal_release',
    memo: decision.approve ? 'Sent to your bank account' : 'Withdrawal rejected: returned to cash',
    ref: `withdrawal:${row.id}`,
    at: now,
    lines: decision.approve
      ? [
          { user: userId, account: 'withdrawing', amount: negSen(amount) },
          { house: 'bank_clearing', amount },
        ]
      : [
          { user: userId, account: 'withdrawing', amount: negSen(amount) },
          { user: userId, account: 'cash', amount },
        ],
  });
  await tx
    .update(withdrawals)
    .set({ status, reason, reviewedBy: operatorId, reviewedAt: now, settleEntryId })
    .where(eq(withdrawals.id, id));
  await audit(tx, {
    ...base,
    action: decision.approve ? 'withdrawal.approve' : 'withdrawal.reject',
    reason,
    before: snapshot(row),
    after: { status, reason, entry_id: settleEntryId },
  });
  await notify(
    tx,
    outbox,
    userId,
    `withdrawal.${status}`,
    { amount, ...(reason === null ? {} : { reason }) },
    now,
  );
  return status;
}
