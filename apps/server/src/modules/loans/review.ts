import { and, count, desc, eq, sql } from 'drizzle-orm';
import {
  LATE_CHARGE_CAP_BP,
  addIsoDays,
  formatYen,
  legalCapBp,
  negSen,
  sen,
  totalVolumeRoom,
  yen,
  type TLoanApprove,
  type TLoanProduct,
  type TLoanProductCreate,
  type TLoanReject,
  type TLoanReview,
} from '@kabuto/contract';
import type { Executor, Tx } from '../../db/types.js';
import { identityVerifications, loanLimits, loanProducts, loans, users } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import type { Clock } from '../../lib/clock.js';
import { audit } from '../console/audit.js';
import type { OperatorPrincipal } from '../console/operators.js';
import { lockUser, postEntry } from '../ledger/ledger.js';
import { notify, type EventOutbox } from '../messages/messages.js';
import {
  freeUntilFor,
  limitOf,
  loanRef,
  loanSettings,
  loanView,
  todayOf,
  userLoans,
  type LoanRow,
  type ProductRow,
} from './loans.js';

/**
 * The console's side of loans (issue 18, ADR 0028): products (refused above the legal caps), the review
 * queue, approval (four-eyes above the policy's amount) with disbursement, rejection with a listed reason.
 * Every decision takes the user's lock, re-reads the application under it, and writes the change, its
 * entry, the audit row and the user's message in one transaction.
 */

export interface LoanReviewDeps {
  clock: Clock;
  operator: OperatorPrincipal;
  locale: string;
}

export function productView(row: ProductRow): TLoanProduct {
  return {
    id: row.id,
    name: row.name,
    rate_bp: row.rateBp,
    late_rate_bp: row.lateRateBp,
    term_days: row.termDays,
    min_yen: row.minYen,
    max_yen: row.maxYen,
    active: row.active,
    created_at: row.createdAt.toISOString(),
  };
}

/**
 * The Interest Rate Restriction Act's cap for the principal `maxYen` (the lowest cap of the amounts a product
 * offers) and the late-charge cap: refused here, whatever the console shows.
 */
export function assertLawful(rateBp: number, lateRateBp: number, maxYen: number, locale: string): void {
  const cap = legalCapBp(maxYen);
  if (rateBp > cap) {
    throw new AppError('LOAN_RATE_ABOVE_CAP', {
      cap: `${(cap / 100).toFixed(0)}%`,
      principal: formatYen(yen(maxYen), locale),
    });
  }
  if (lateRateBp > LATE_CHARGE_CAP_BP) throw new AppError('LOAN_LATE_RATE_ABOVE_CAP');
}

export async function createProduct(
  tx: Tx,
  deps: LoanReviewDeps,
  input: TLoanProductCreate,
): Promise<TLoanProduct> {
  assertLawful(input.rate_bp, input.late_rate_bp, input.max_yen, deps.locale);
  const now = deps.clock.now();
  const [row] = await tx
    .insert(loanProducts)
    .values({
      name: input.name,
      rateBp: input.rate_bp,
      lateRateBp: input.late_rate_bp,
      termDays: input.term_days,
      minYen: input.min_yen,
      maxYen: input.max_yen,
      createdBy: deps.operator.id,
      createdAt: now,
    })
    .returning();
  if (!row) throw new Error('loan product was not written');
  await audit(tx, {
    operatorId: deps.operator.id,
    action: 'loan_product.create',
    targetType: 'loan_product',
    targetId: row.id,
    after: productView(row),
    at: now,
  });
  return productView(row);
}

export async function retireProduct(tx: Tx, deps: LoanReviewDeps, id: number): Promise<TLoanProduct> {
  const now = deps.clock.now();
  const [row] = await tx
    .update(loanProducts)
    .set({ active: false })
    .where(eq(loanProducts.id, id))
    .returning();
  if (!row) throw new AppError('LOAN_PRODUCT_NOT_FOUND');
  await audit(tx, {
    operatorId: deps.operator.id,
    action: 'loan_product.retire',
    targetType: 'loan_product',
    targetId: id,
    before: { active: true },
    after: { active: false },
    at: now,
  });
  return productView(row);
}

export async function listProducts(db: Executor): Promise<TLoanProduct[]> {
  return (await db.select().from(loanProducts).orderBy(desc(loanProducts.id))).map(productView);
}

/** The review queue: applications with what the reviewer needs to decide (newest first). */
export async function loanQueue(
  db: Executor,
  query: { status?: LoanRow['status'] | undefined; limit: number; offset: number },
  now: Date,
  id?: number,
): Promise<{ total: number; items: TLoanReview[] }> {
  const where = and(
    id === undefined ? undefined : eq(loans.id, id),
    query.status ? eq(loans.status, query.status) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select({
        row: loans,
        phone: users.phone,
        product: loanProducts.name,
        verified: sql<string | null>`(select ${identityVerifications.fullName} from ${identityVerifications}
          where ${identityVerifications.userId} = ${loans.userId} and ${identityVerifications.status} = 'passed'
          order by ${identityVerifications.id} desc limit 1)`,
      })
      .from(loans)
      .innerJoin(users, eq(users.id, loans.userId))
      .leftJoin(loanProducts, eq(loanProducts.id, loans.productId))
      .where(where)
      .orderBy(desc(loans.id))
      .limit(query.limit)
      .offset(query.offset),
    db.select({ n: count() }).from(loans).where(where),
  ]);
  const today = todayOf(now);
  const policy = await loanSettings(db);
  const items: TLoanReview[] = [];
  for (const r of rows) {
    const mine = await userLoans(db, r.row.userId, today);
    const self = mine.find((i) => i.row.id === r.row.id);
    const elsewhere = mine.filter((i) => i.row.id !== r.row.id).reduce((sum, i) => sum + i.owed.principal, 0);
    const room = totalVolumeRoom(r.row.annualIncomeYen, r.row.otherBorrowingYen, elsewhere / 100);
    items.push({
      ...loanView(r.row, self?.owed ?? { principal: sen(0), interest: sen(0), late: sen(0), total: sen(0) }),
      user_id: r.row.userId,
      phone: r.phone,
      full_name: r.row.fullName,
      verified_name: r.verified,
      id_number: r.row.idNumber,
      address: r.row.address,
      contact_phone: r.row.contactPhone,
      email: r.row.email,
      annual_income: yen(r.row.annualIncomeYen),
      other_borrowing: yen(r.row.otherBorrowingYen),
      outstanding_elsewhere_here: sen(elsewhere),
      total_volume_room: yen(room),
      limit: yen(await limitOf(db, r.row.userId, policy)),
      product_name: r.product,
      needs_second_approval: r.row.needsSecondApproval,
      first_approved_by: r.row.firstApprovedBy,
    });
  }
  return { total: total?.n ?? 0, items };
}

/** The application under its user's lock, still to be decided. */
async function lockApplication(tx: Tx, id: number): Promise<LoanRow> {
  const [owner] = await tx.select({ userId: loans.userId }).from(loans).where(eq(loans.id, id));
  if (!owner) throw new AppError('LOAN_NOT_FOUND');
  await lockUser(tx, owner.userId);
  const [row] = await tx.select().from(loans).where(eq(loans.id, id)).for('update');
  if (!row) throw new AppError('LOAN_NOT_FOUND');
  if (row.status !== 'pending' && row.status !== 'disbursing') throw new AppError('LOAN_ALREADY_REVIEWED');
  return row;
}

const snapshot = (row: LoanRow) => ({
  status: row.status,
  principal: row.principal,
  first_approved_by: row.firstApprovedBy,
});

/**
 * Approve: the amount (at least the minimum, at most what was applied for, within the limit being set less
 * what the user owes on other loans, within the total-volume rule) at the product's rate, which must be
 * lawful for that principal. Above the policy's amount the first approval records the operator, amount and
 * limit (state `disbursing`); a second operator's approval of the same figures disburses.
 */
export async function approveLoan(
  tx: Tx,
  deps: LoanReviewDeps,
  id: number,
  input: TLoanApprove,
  outbox: EventOutbox,
): Promise<'disbursing' | 'repaying'> {
  const row = await lockApplication(tx, id);
  const now = deps.clock.now();
  const today = todayOf(now);
  const policy = await loanSettings(tx);
  const amountYen = input.amount / 100;
  const [product] = await tx.select().from(loanProducts).where(eq(loanProducts.id, row.productId));
  if (!product) throw new AppError('LOAN_PRODUCT_NOT_FOUND');
  assertLawful(product.rateBp, product.lateRateBp, amountYen, deps.locale);
  const others = (await userLoans(tx, row.userId, today)).filter((i) => i.row.id !== id);
  const owedElsewhere = others.reduce((sum, i) => sum + i.owed.principal, 0) / 100;
  const room = totalVolumeRoom(row.annualIncomeYen, row.otherBorrowingYen, owedElsewhere);
  if (
    amountYen < policy.min_yen ||
    input.amount > row.requested ||
    amountYen + owedElsewhere > input.limit_yen ||
    amountYen > room ||
    amountYen < product.minYen ||
    amountYen > product.maxYen
  ) {
    throw new AppError('LOAN_APPROVAL_OUT_OF_POLICY');
  }
  if (others.some((i) => i.row.status === 'overdue' || i.row.status === 'collection')) {
    throw new AppError('LOAN_OVERDUE_EXISTS');
  }
  const operatorId = deps.operator.id;
  const needsTwo = amountYen > policy.second_approval_over_yen;
  if (row.status === 'pending' && needsTwo) {
    await tx
      .update(loans)
      .set({
        status: 'disbursing',
        needsSecondApproval: true,
        principal: input.amount,
        approvedLimitYen: input.limit_yen,
        firstApprovedBy: operatorId,
        firstApprovedAt: now,
      })
      .where(eq(loans.id, id));
    await audit(tx, {
      operatorId,
      action: 'loan.approve_first',
      targetType: 'loan',
      targetId: id,
      userId: row.userId,
      before: snapshot(row),
      after: {
        status: 'disbursing',
        principal: input.amount,
        limit_yen: input.limit_yen,
        first_approved_by: operatorId,
      },
      at: now,
    });
    await notify(tx, outbox, row.userId, 'loan.disbursing', { loan_id: id, amount: input.amount }, now);
    return 'disbursing';
  }
  if (row.status === 'disbursing') {
    if (row.firstApprovedBy === operatorId) throw new AppError('SECOND_APPROVER_SAME');
    if (row.principal !== input.amount || row.approvedLimitYen !== input.limit_yen) {
      throw new AppError('LOAN_APPROVAL_OUT_OF_POLICY');
    }
  }
  const free = await freeUntilFor(tx, row.userId, today, policy);
  const dueOn = addIsoDays(today, product.termDays);
  const entryId = await postEntry(tx, {
    kind: 'loan_disbursement',
    memo: `Loan ${id} paid to cash`,
    params: { loan_id: id, amount: input.amount },
    ref: loanRef(id),
    at: now,
    lines: [
      { house: 'loan_book', amount: negSen(sen(input.amount)) },
      { user: row.userId, account: 'cash', amount: sen(input.amount) },
    ],
  });
  const [updated] = await tx
    .update(loans)
    .set({
      status: 'repaying',
      principal: input.amount,
      approvedLimitYen: input.limit_yen,
      rateBp: product.rateBp,
      lateRateBp: product.lateRateBp,
      lateGraceDays: policy.late_grace_days,
      disbursedOn: today,
      dueOn,
      freeUntil: free.until,
      disburseEntryId: entryId,
      disbursedAt: now,
      reviewedBy: operatorId,
      reviewedAt: now,
    })
    .where(eq(loans.id, id))
    .returning();
  if (!updated) throw new Error('loan was not updated');
  await tx
    .insert(loanLimits)
    .values({ userId: row.userId, limitYen: input.limit_yen, setBy: operatorId, setAt: now })
    .onConflictDoUpdate({
      target: loanLimits.userId,
      set: { limitYen: input.limit_yen, setBy: operatorId, setAt: now },
    });
  await audit(tx, {
    operatorId,
    action: 'loan.approve',
    targetType: 'loan',
    targetId: id,
    userId: row.userId,
    before: snapshot(row),
    after: {
      status: 'repaying',
      principal: input.amount,
      limit_yen: input.limit_yen,
      rate_bp: product.rateBp,
      late_rate_bp: product.lateRateBp,
      due_on: dueOn,
      free_until: free.until,
      entry_id: entryId,
    },
    at: now,
  });
  await notify(
    tx,
    outbox,
    row.userId,
    'loan.disbursed',
    { loan_id: id, amount: input.amount, due_on: dueOn },
    now,
  );
  return 'repaying';
}

export async function rejectLoan(
  tx: Tx,
  deps: LoanReviewDeps,
  id: number,
  input: TLoanReject,
  outbox: EventOutbox,
): Promise<'rejected'> {
  const row = await lockApplication(tx, id);
  const now = deps.clock.now();
  await tx
    .update(loans)
    .set({
      status: 'rejected',
      rejectReasonCode: input.reason_code,
      reason: input.reason,
      reviewedBy: deps.operator.id,
      reviewedAt: now,
    })
    .where(eq(loans.id, id));
  await audit(tx, {
    operatorId: deps.operator.id,
    action: 'loan.reject',
    targetType: 'loan',
    targetId: id,
    userId: row.userId,
    reason: input.reason,
    before: snapshot(row),
    after: { status: 'rejected', reason_code: input.reason_code, reason: input.reason },
    at: now,
  });
  await notify(
    tx,
    outbox,
    row.userId,
    'loan.rejected',
    { loan_id: id, amount: sen(row.requested), reason: input.reason, reason_code: input.reason_code },
    now,
  );
  return 'rejected';
}
