import { eq } from 'drizzle-orm';
import { negSen, sen } from '@kabuto/contract';
import type { Tx } from '../../db/types.js';
import {
  bankAccounts,
  bankTransfers,
  deposits,
  identityVerifications,
  users,
  withdrawals,
} from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import type { Clock } from '../../lib/clock.js';
import { messageParams, logBankAccount } from '../banking/banking.js';
import { audit } from '../console/audit.js';
import type { OperatorPrincipal } from '../console/operators.js';
import { lockUser, postEntry } from '../ledger/ledger.js';
import { notify, type EventOutbox } from '../messages/messages.js';
import { openBrokerageAccount } from '../opening/brokerage.js';

/**
 * Operators' decisions on what users filed. Each runs in one transaction that takes the user's lock first
 * (as every money movement of the user does), then re-reads the item under that lock: of two operators
 * deciding the same item at once, the second finds it decided (ALREADY_REVIEWED) and changes nothing.
 * Each decision is audited with the state before and after, and the user gets a message.
 */
/** An approval may carry a reason (a deposit with no matching transfer needs one); a rejection must. */
export type Decision = { approve: true; reason?: string | undefined } | { approve: false; reason: string };
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

/** What a queue's decision did before the item is written. */
interface Effect {
  /** the entry the decision posted (null: a queue that posts one posted none this time) */
  entryId?: number | null;
  /** more of what the decision did, for the audit row's `after` (the brokerage account it opened) */
  audited?: Record<string, unknown>;
}

/**
 * One description per queue: the status an approval gives, what the decision does before the item is
 * written (post an entry, mark the user verified), what it records after (the bank account's log), and the
 * parameters of the user's message. `settle` below does the rest the same way for every queue.
 */
interface QueueReview<K extends ReviewKind> {
  approved: Approved[K];
  apply: (tx: Tx, row: Rows[K], approve: boolean, now: Date) => Promise<Effect>;
  /** Writes the decision (and the entry `apply` posted) to the item. */
  write: (
    tx: Tx,
    id: number,
    set: ItemUpdate<K>,
    entryId: number | null | undefined,
  ) => Promise<Rows[K] | undefined>;
  recorded?: (
    tx: Tx,
    updated: Rows[K],
    status: ItemUpdate<K>['status'],
    reason: string | null,
    now: Date,
  ) => Promise<void>;
  messageParams: (row: Rows[K]) => Record<string, unknown>;
}

/** An approved identity check is `passed`; every other approved item is `approved`. */
interface Approved {
  identity: 'passed';
  bank_account: 'approved';
  deposit: 'approved';
  withdrawal: 'approved';
}

interface ItemUpdate<K extends ReviewKind> {
  status: Approved[K] | 'rejected';
  reason: string | null;
  reviewedBy: number;
  reviewedAt: Date;
}

const REVIEWS: { [K in ReviewKind]: QueueReview<K> } = {
  identity: {
    approved: 'passed',
    apply: async (tx, row, approve, now) => {
      await tx
        .update(users)
        .set({ realNameStatus: approve ? 'verified' : 'rejected' })
        .where(eq(users.id, row.userId));
      // Issue 23 (ADR 0022): an approved application opens the brokerage account, in this transaction.
      const opened = approve ? await openBrokerageAccount(tx, row, now) : undefined;
      return opened
        ? {
            audited: {
              brokerage_account: {
                specific_account: opened.specificAccount,
                nisa: opened.nisaOpenedAt !== null,
                default_tax_account: opened.defaultTaxAccount,
              },
            },
          }
        : {};
    },
    write: async (tx, id, set) => {
      const [row] = await tx
        .update(identityVerifications)
        .set(set)
        .where(eq(identityVerifications.id, id))
        .returning();
      return row;
    },
    messageParams: () => ({}),
  },
  bank_account: {
    approved: 'approved',
    apply: async () => ({}),
    write: async (tx, id, set) => {
      const [row] = await tx.update(bankAccounts).set(set).where(eq(bankAccounts.id, id)).returning();
      return row;
    },
    recorded: async (tx, updated, status, reason, now) => {
      await logBankAccount(tx, updated, status, now, reason);
    },
    messageParams: (row) => messageParams(row),
  },
  /** Approval credits the user's cash from bank clearing: the transfer has been matched with the bank's record. */
  deposit: {
    approved: 'approved',
    apply: async (tx, row, approve, now) => {
      if (!approve) return { entryId: null };
      const amount = sen(row.amount);
      const entryId = await postEntry(tx, {
        kind: 'deposit',
        memo: `Bank transfer of ${row.transferDate}`,
        params: { deposit_id: row.id, amount, transfer_date: row.transferDate },
        ref: `deposit:${row.id}`,
        at: now,
        lines: [
          { user: row.userId, account: 'cash', amount },
          { house: 'bank_clearing', amount: negSen(amount) },
        ],
      });
      return { entryId };
    },
    write: async (tx, id, set, entryId) => {
      const [row] = await tx
        .update(deposits)
        .set({ ...set, entryId })
        .where(eq(deposits.id, id))
        .returning();
      return row;
    },
    messageParams: (row) => ({ amount: sen(row.amount) }),
  },
  /**
   * The final decision on a withdrawal (its first of two approvals is `reviewWithdrawal`'s own branch):
   * approval pays the held amount out to bank clearing, rejection returns it to cash.
   */
  withdrawal: {
    approved: 'approved',
    apply: async (tx, row, approve, now) => {
      if (approve) {
        const [account] = await tx.select().from(bankAccounts).where(eq(bankAccounts.id, row.bankAccountId));
        if (account?.status !== 'approved') throw new AppError('BANK_ACCOUNT_NOT_APPROVED');
      }
      const amount = sen(row.amount);
      const entryId = await postEntry(tx, {
        kind: approve ? 'withdrawal_paid' : 'withdrawal_release',
        memo: approve ? 'Sent to your bank account' : 'Withdrawal rejected: returned to cash',
        params: { withdrawal_id: row.id, amount },
        ref: `withdrawal:${row.id}`,
        at: now,
        lines: approve
          ? [
              { user: row.userId, account: 'withdrawing', amount: negSen(amount) },
              { house: 'bank_clearing', amount },
            ]
          : [
              { user: row.userId, account: 'withdrawing', amount: negSen(amount) },
              { user: row.userId, account: 'cash', amount },
            ],
      });
      return { entryId };
    },
    write: async (tx, id, set, entryId) => {
      const [row] = await tx
        .update(withdrawals)
        .set({ ...set, settleEntryId: entryId })
        .where(eq(withdrawals.id, id))
        .returning();
      return row;
    },
    messageParams: (row) => ({ amount: sen(row.amount) }),
  },
};

/**
 * The decision itself, the same for every queue: the queue's effect, the item's new status and reviewer
 * (with the entry the effect posted), the queue's record of it, the audit row and the user's message.
 */
async function settle<K extends ReviewKind>(
  tx: Tx,
  deps: ReviewDeps,
  kind: K,
  row: Rows[K],
  decision: Decision,
  outbox: EventOutbox,
): Promise<ReviewStatus> {
  const review: QueueReview<K> = REVIEWS[kind];
  const now = deps.clock.now();
  const status = decision.approve ? review.approved : 'rejected';
  const reason = decision.approve ? null : decision.reason;
  const { entryId, audited } = await review.apply(tx, row, decision.approve, now);
  const set: ItemUpdate<K> = { status, reason, reviewedBy: deps.operator.id, reviewedAt: now };
  const updated = await review.write(tx, row.id, set, entryId);
  if (updated && review.recorded) await review.recorded(tx, updated, status, reason, now);
  await audit(tx, {
    operatorId: deps.operator.id,
    action: `${kind}.${decision.approve ? 'approve' : 'reject'}`,
    targetType: kind,
    targetId: row.id,
    userId: row.userId,
    reason: decision.reason ?? null,
    before: snapshot(row),
    after: {
      status,
      reason,
      ...(entryId === undefined ? {} : { entry_id: entryId }),
      ...audited,
    },
    at: now,
  });
  await notify(
    tx,
    outbox,
    row.userId,
    `${kind}.${status}`,
    { ...review.messageParams(row), ...(reason === null ? {} : { reason }) },
    now,
  );
  return status;
}

/**
 * The decision on a queue whose approval settles at once (identity, bank account, deposit): lock the item,
 * then settle it by its description in REVIEWS.
 */
export function reviewBy(kind: Exclude<ReviewKind, 'withdrawal' | 'deposit'>) {
  return async (
    tx: Tx,
    deps: ReviewDeps,
    id: number,
    decision: Decision,
    outbox: EventOutbox,
  ): Promise<ReviewStatus> => settle(tx, deps, kind, await lockForDecision(tx, kind, id), decision, outbox);
}

/**
 * Above the threshold in force when it was filed, a withdrawal needs two approvals by two different
 * operators: the first approval only records its operator; the second (by someone else) settles it.
 */
export async function reviewWithdrawal(
  tx: Tx,
  deps: ReviewDeps,
  id: number,
  decision: Decision,
  outbox: EventOutbox,
): Promise<ReviewStatus> {
  const row = await lockForDecision(tx, 'withdrawal', id);
  const operatorId = deps.operator.id;
  if (decision.approve && row.needsSecondApproval && row.firstApprovedBy === null) {
    const now = deps.clock.now();
    await tx
      .update(withdrawals)
      .set({ firstApprovedBy: operatorId, firstApprovedAt: now })
      .where(eq(withdrawals.id, id));
    await audit(tx, {
      operatorId,
      action: 'withdrawal.approve_first',
      targetType: 'withdrawal',
      targetId: id,
      userId: row.userId,
      before: { status: row.status, first_approved_by: null },
      after: { status: row.status, first_approved_by: operatorId },
      at: now,
    });
    return 'awaiting_second_approval';
  }
  if (decision.approve && row.firstApprovedBy === operatorId) throw new AppError('SECOND_APPROVER_SAME');
  return settle(tx, deps, 'withdrawal', row, decision, outbox);
}

/**
 * A deposit matched with a bank transfer (deposit reconciliation, ADR 0023) is credited on one approval,
 * and its transfer becomes `credited`. A deposit with no matching transfer is the customer's word alone:
 * its approval needs a reason and two different operators (the first approval records its operator and
 * reason; the second, by someone else, credits it). A rejection frees the transfer it was matched with.
 */
export async function reviewDeposit(
  tx: Tx,
  deps: ReviewDeps,
  id: number,
  decision: Decision,
  outbox: EventOutbox,
): Promise<ReviewStatus> {
  const row = await lockForDecision(tx, 'deposit', id);
  const operatorId = deps.operator.id;
  const now = deps.clock.now();
  if (decision.approve && row.transferId === null) {
    if (decision.reason === undefined) throw new AppError('DEPOSIT_REASON_REQUIRED');
    if (row.firstApprovedBy === null) {
      await tx
        .update(deposits)
        .set({ firstApprovedBy: operatorId, firstApprovedAt: now })
        .where(eq(deposits.id, id));
      await audit(tx, {
        operatorId,
        action: 'deposit.approve_first',
        targetType: 'deposit',
        targetId: id,
        userId: row.userId,
        reason: decision.reason,
        before: { status: row.status, first_approved_by: null },
        after: { status: row.status, first_approved_by: operatorId, transfer_id: null },
        at: now,
      });
      return 'awaiting_second_approval';
    }
    if (row.firstApprovedBy === operatorId) throw new AppError('SECOND_APPROVER_SAME');
  }
  const status = await settle(tx, deps, 'deposit', row, decision, outbox);
  if (row.transferId !== null) {
    await tx
      .update(bankTransfers)
      .set(
        decision.approve
          ? { status: 'credited' }
          : { status: 'unmatched', depositId: null, note: `deposit ${row.id} rejected` },
      )
      .where(eq(bankTransfers.id, row.transferId));
    if (!decision.approve) await tx.update(deposits).set({ transferId: null }).where(eq(deposits.id, row.id));
  }
  return status;
}
