import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import {
  DEFAULT_LOAN_SETTINGS,
  LATE_CHARGE_CAP_BP,
  LOAN_MAX_YEN,
  ZLoanSettings,
  addIsoDays,
  chargesOfDay,
  chargesThrough,
  formatYen,
  freeUntil,
  legalCapBp,
  localeOf,
  negSen,
  quoteLoan,
  sen,
  suitabilityRuleText,
  totalVolumeRoom,
  translate,
  yen,
  type LoanStatus,
  type LoanTerms,
  type Sen,
  type TLoan,
  type TLoanApply,
  type TLoanOverview,
  type TLoanQuote,
  type TLoanSettings,
} from '@kabuto/contract';
import type { Executor, Tx } from '../../db/types.js';
import {
  journalEntries,
  loanAccruals,
  loanLimits,
  loanProducts,
  loans,
  postings,
  settings,
  users,
} from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import type { Clock } from '../../lib/clock.js';
import { tokyoParts } from '../../lib/tokyo-time.js';
import { requireVerified } from '../identity/identity.js';
import { brokerageView } from '../opening/brokerage.js';
import { houseAccountId, postEntry, userBalances } from '../ledger/ledger.js';
import { notify, type EventOutbox } from '../messages/messages.js';

/**
 * Credit loans (issue 18, ADR 0028): applying, what the user owes, repayment. Nothing owed is stored as a
 * number: a loan's principal is its disbursement entry on the house's `loan_book` (less its repayment), its
 * interest and late charges are its `loan_accruals` rows (one per Tokyo day, written by the daily job or, for
 * the days the job has not reached, by the repayment). The terms are the contract's pure `loan-terms.ts`.
 */

export type LoanRow = typeof loans.$inferSelect;
export type ProductRow = typeof loanProducts.$inferSelect;

/** Loans that are owed (disbursed, not repaid). */
export const OWED_STATUSES = ['repaying', 'overdue', 'collection'] as const satisfies readonly LoanStatus[];
const OPEN_APPLICATIONS = ['pending', 'disbursing'] as const satisfies readonly LoanStatus[];

export const todayOf = (clock: Clock | Date) => tokyoParts(clock instanceof Date ? clock : clock.now()).date;
export const loanRef = (id: number) => `loan:${id}`;

/** The `loans` setting as published, or its defaults. */
export async function loanSettings(db: Executor): Promise<TLoanSettings> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, 'loans'));
  if (!row) return DEFAULT_LOAN_SETTINGS;
  const parsed = ZLoanSettings.safeParse(JSON.parse(row.value));
  return parsed.success ? parsed.data : DEFAULT_LOAN_SETTINGS;
}

/** A disbursed loan's terms, as the terms engine takes them. */
export function termsOf(row: LoanRow): LoanTerms {
  if (
    row.principal === null ||
    row.rateBp === null ||
    row.lateRateBp === null ||
    row.disbursedOn === null ||
    row.dueOn === null ||
    row.lateGraceDays === null
  ) {
    throw new Error(`loan ${row.id} has no terms yet`);
  }
  return {
    principal_yen: row.principal / 100,
    rate_bp: row.rateBp,
    late_rate_bp: row.lateRateBp,
    disbursed_on: row.disbursedOn,
    due_on: row.dueOn,
    free_until: row.freeUntil,
    late_grace_days: row.lateGraceDays,
  };
}

/** The principal each loan still owes: minus the sum of its entries' postings on the house's loan book. */
export async function principalOwed(db: Executor, ids: readonly number[]): Promise<Map<number, Sen>> {
  const out = new Map<number, Sen>();
  if (ids.length === 0) return out;
  const book = await houseAccountId(db, 'loan_book');
  const rows = await db
    .select({ ref: journalEntries.ref, total: sql<string>`coalesce(sum(${postings.amount}), 0)::text` })
    .from(postings)
    .innerJoin(journalEntries, eq(journalEntries.id, postings.entryId))
    .where(
      and(
        eq(postings.accountId, book),
        inArray(
          journalEntries.ref,
          ids.map((id) => loanRef(id)),
        ),
      ),
    )
    .groupBy(journalEntries.ref);
  for (const id of ids) out.set(id, sen(0));
  for (const row of rows) out.set(Number(row.ref?.slice(5)), negSen(sen(Number(row.total))));
  return out;
}

/** The interest and late charges each loan's accrual rows hold (sen). */
export async function accruedOf(
  db: Executor,
  ids: readonly number[],
): Promise<Map<number, { interest: Sen; late: Sen }>> {
  const out = new Map<number, { interest: Sen; late: Sen }>();
  if (ids.length === 0) return out;
  const rows = await db
    .select({
      loanId: loanAccruals.loanId,
      interest: sql<string>`sum(${loanAccruals.interest})::text`,
      late: sql<string>`sum(${loanAccruals.lateCharge})::text`,
    })
    .from(loanAccruals)
    .where(inArray(loanAccruals.loanId, [...ids]))
    .groupBy(loanAccruals.loanId);
  for (const id of ids) out.set(id, { interest: sen(0), late: sen(0) });
  for (const row of rows)
    out.set(row.loanId, { interest: sen(Number(row.interest)), late: sen(Number(row.late)) });
  return out;
}

/**
 * Writes the loan's accrual rows for every day from the day after its disbursement through `through` that
 * has none yet (the job's days are already there; a day is written once, whoever gets there first).
 */
export async function accrueThrough(tx: Executor, row: LoanRow, through: string): Promise<number> {
  const terms = termsOf(row);
  const [last] = await tx
    .select({ day: loanAccruals.day })
    .from(loanAccruals)
    .where(eq(loanAccruals.loanId, row.id))
    .orderBy(desc(loanAccruals.day))
    .limit(1);
  const values: (typeof loanAccruals.$inferInsert)[] = [];
  const start = addIsoDays(terms.disbursed_on, 1);
  for (let day = start; day <= through; day = addIsoDays(day, 1)) {
    if (last && day <= last.day) continue;
    const charges = chargesOfDay(terms, day);
    values.push({
      loanId: row.id,
      day,
      interest: charges.interest_yen * 100,
      lateCharge: charges.late_yen * 100,
    });
  }
  if (values.length > 0) await tx.insert(loanAccruals).values(values).onConflictDoNothing();
  return values.length;
}

/** What a loan owes now: principal from the ledger, interest and late charges through today by the terms. */
export interface Owed {
  principal: Sen;
  interest: Sen;
  late: Sen;
  total: Sen;
}

function owedNow(row: LoanRow, principal: Sen, today: string): Owed {
  if (!(OWED_STATUSES as readonly string[]).includes(row.status) || principal === 0) {
    return { principal: sen(0), interest: sen(0), late: sen(0), total: sen(0) };
  }
  // What the accrual rows hold through yesterday plus today's, as the rows will hold them (chargesOfDay sums).
  const charges = chargesThrough(termsOf(row), today);
  const interest = sen(charges.interest_yen * 100);
  const late = sen(charges.late_yen * 100);
  return { principal, interest, late, total: sen(principal + interest + late) };
}

export function loanView(row: LoanRow, owed: Owed): TLoan {
  return {
    id: row.id,
    status: row.status,
    amount: sen(row.requested),
    disbursed_amount: row.disbursedAt === null || row.principal === null ? null : sen(row.principal),
    rate_bp: row.rateBp,
    late_rate_bp: row.lateRateBp,
    free_until: row.freeUntil,
    amount_to_repay: owed.total,
    interest: owed.interest,
    late_charges: owed.late,
    applied_at: row.createdAt.toISOString(),
    loan_time: row.disbursedAt?.toISOString() ?? null,
    due_date: row.dueOn,
    repayment_time: row.repaidAt?.toISOString() ?? null,
    repaid_amount: row.repaidAmount === null ? null : sen(row.repaidAmount),
    reject_reason_code: (row.rejectReasonCode as TLoan['reject_reason_code']) ?? null,
    reject_reason: row.reason,
  };
}

/** The user's loans with what each owes now, newest first. */
export async function userLoans(db: Executor, userId: number, today: string) {
  const rows = await db.select().from(loans).where(eq(loans.userId, userId)).orderBy(desc(loans.id));
  const principals = await principalOwed(
    db,
    rows.filter((r) => r.disburseEntryId !== null).map((r) => r.id),
  );
  return rows.map((row) => ({ row, owed: owedNow(row, principals.get(row.id) ?? sen(0), today) }));
}

export async function listLoans(db: Executor, userId: number, today: string) {
  const items = await userLoans(db, userId, today);
  const total = items.reduce((sum, i) => sum + i.owed.total, 0);
  return { total_to_repay: sen(total), items: items.map((i) => loanView(i.row, i.owed)) };
}

export async function oneLoan(db: Executor, userId: number, id: number, today: string): Promise<TLoan> {
  const found = (await userLoans(db, userId, today)).find((i) => i.row.id === id);
  if (!found) throw new AppError('LOAN_NOT_FOUND');
  return loanView(found.row, found.owed);
}

/** The product an application of `amountYen` takes: the active one covering it at the lowest rate. */
export async function productFor(db: Executor, amountYen?: number): Promise<ProductRow | undefined> {
  const rows = await db
    .select()
    .from(loanProducts)
    .where(eq(loanProducts.active, true))
    .orderBy(asc(loanProducts.rateBp), asc(loanProducts.id));
  if (amountYen === undefined) return rows[0];
  return rows.find((p) => p.minYen <= amountYen && amountYen <= p.maxYen);
}

/** The user's credit limit (yen): as a reviewer set it, or the policy's default. */
export async function limitOf(db: Executor, userId: number, policy: TLoanSettings): Promise<number> {
  const [row] = await db.select().from(loanLimits).where(eq(loanLimits.userId, userId));
  return row?.limitYen ?? policy.default_limit_yen;
}

/** Registration date (Tokyo) and the number of loans disbursed before: what the free period depends on. */
async function freePeriodOf(db: Executor, userId: number) {
  const [user] = await db.select({ createdAt: users.createdAt }).from(users).where(eq(users.id, userId));
  const [counted] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(loans)
    .where(and(eq(loans.userId, userId), sql`${loans.disbursedAt} is not null`));
  return { registeredOn: todayOf(user?.createdAt ?? new Date(0)), loansBefore: counted?.n ?? 0 };
}

export async function freeUntilFor(db: Executor, userId: number, today: string, policy: TLoanSettings) {
  const { registeredOn, loansBefore } = await freePeriodOf(db, userId);
  return {
    until: freeUntil(registeredOn, today, loansBefore, policy.free_days, policy.free_loans),
    left: Math.max(0, policy.free_loans - loansBefore),
  };
}

/** Where the user stands: principal owed to us, amounts under application, the limit. */
async function standing(db: Executor, userId: number, today: string, policy: TLoanSettings) {
  const items = await userLoans(db, userId, today);
  const owedPrincipal = items.reduce((sum, i) => sum + i.owed.principal, 0);
  const underApplication = items
    .filter((i) => (OPEN_APPLICATIONS as readonly string[]).includes(i.row.status))
    .reduce((sum, i) => sum + i.row.requested, 0);
  const limitYen = await limitOf(db, userId, policy);
  return {
    items,
    owedPrincipal: sen(owedPrincipal),
    underApplication: sen(underApplication),
    limit: yen(limitYen),
    available: sen(Math.max(0, yen(limitYen) - owedPrincipal - underApplication)),
    overdue: items.some((i) => i.row.status === 'overdue' || i.row.status === 'collection'),
    pending: items.some((i) => (OPEN_APPLICATIONS as readonly string[]).includes(i.row.status)),
    totalToRepay: sen(items.reduce((sum, i) => sum + i.owed.total, 0)),
  };
}

async function loanSuitability(db: Executor, userId: number, today: string) {
  const view = await brokerageView(db, userId, today);
  return { open: view.status === 'open', verdict: view.suitability.loans, rules: view.rules };
}

/** GET /api/loans/overview */
export async function loanOverview(db: Executor, userId: number, now: Date): Promise<TLoanOverview> {
  const today = todayOf(now);
  const policy = await loanSettings(db);
  const s = await standing(db, userId, today, policy);
  const product = await productFor(db);
  const free = await freeUntilFor(db, userId, today, policy);
  const suitable = await loanSuitability(db, userId, today);
  const verified = await requireVerified(db, userId).then(
    () => true,
    () => false,
  );
  const blocked: TLoanOverview['blocked'] = !verified
    ? 'identity'
    : !suitable.open || !suitable.verdict.allowed
      ? 'suitability'
      : s.overdue
        ? 'overdue'
        : s.pending
          ? 'pending'
          : product
            ? null
            : 'no_product';
  return {
    limit: s.limit,
    available: s.available,
    under_application: s.underApplication,
    total_to_repay: s.totalToRepay,
    product: product
      ? {
          product_id: product.id,
          name: product.name,
          rate_bp: product.rateBp,
          late_rate_bp: product.lateRateBp,
          term_days: product.termDays,
          min: yen(Math.max(product.minYen, policy.min_yen)),
          max: yen(product.maxYen),
        }
      : null,
    policy: {
      min: yen(policy.min_yen),
      max: yen(LOAN_MAX_YEN),
      free_days: policy.free_days,
      free_loans: policy.free_loans,
      late_grace_days: policy.late_grace_days,
      collection_days: policy.collection_days,
      late_cap_bp: LATE_CHARGE_CAP_BP,
    },
    free_until: free.until,
    free_loans_left: free.left,
    blocked,
  };
}

/** GET /api/loans/quote: the calculator, by the same terms a disbursement today would fix. */
export async function loanQuote(db: Executor, userId: number, amount: Sen, now: Date): Promise<TLoanQuote> {
  const today = todayOf(now);
  const policy = await loanSettings(db);
  const amountYen = amount / 100;
  const product = await productFor(db, amountYen);
  if (!product) throw new AppError('LOAN_NO_PRODUCT');
  const free = await freeUntilFor(db, userId, today, policy);
  const q = quoteLoan({
    principal_yen: amountYen,
    rate_bp: product.rateBp,
    late_rate_bp: product.lateRateBp,
    disbursed_on: today,
    due_on: addIsoDays(today, product.termDays),
    free_until: free.until,
    late_grace_days: policy.late_grace_days,
  });
  return {
    principal: amount,
    rate_bp: q.rate_bp,
    cap_bp: legalCapBp(amountYen),
    interest_per_day: yen(q.interest_per_day_yen),
    due_on: q.due_on,
    free_until: q.free_until,
    interest_to_due: yen(q.interest_to_due_yen),
    total_at_due: yen(q.total_at_due_yen),
    late_rate_bp: q.late_rate_bp,
    late_from: q.late_from,
    collection_days: policy.collection_days,
  };
}

const bareName = (name: string) => name.normalize('NFKC').replace(/\s+/gu, '');

/** The last four characters of an ID number; the rest is not kept. */
const maskId = (id: string) => `${'*'.repeat(Math.max(0, id.length - 4))}${id.slice(-4)}`;

/**
 * POST /api/loans, under the user's lock (`idempotent`'s claim): a verified, suitable applicant under their
 * verified name, no loan overdue and no application open, at least the minimum, a product that offers the
 * amount, within the available limit and the total-volume rule (a third of the declared income, less
 * declared borrowing elsewhere and what is owed to us).
 */
export async function applyForLoan(
  tx: Tx,
  deps: { clock: Clock; locale: string },
  userId: number,
  input: TLoanApply,
  outbox: EventOutbox,
): Promise<TLoan> {
  const now = deps.clock.now();
  const today = todayOf(now);
  const identity = await requireVerified(tx, userId);
  const suitable = await loanSuitability(tx, userId, today);
  if (!suitable.open) throw new AppError('ACCOUNT_NOT_OPEN');
  if (!suitable.verdict.allowed) {
    const locale = localeOf(deps.locale);
    throw new AppError('LOAN_NOT_SUITABLE', {
      rules: suitable.verdict.unmet
        .map((rule) =>
          suitabilityRuleText(rule, 'loans', suitable.rules, (key, params) => translate(locale, key, params)),
        )
        .join(', '),
    });
  }
  if (bareName(input.full_name) !== bareName(identity.fullName)) throw new AppError('LOAN_NAME_MISMATCH');
  const policy = await loanSettings(tx);
  const s = await standing(tx, userId, today, policy);
  if (s.overdue) throw new AppError('LOAN_OVERDUE_EXISTS');
  if (s.pending) throw new AppError('LOAN_PENDING_EXISTS');
  const amount = sen(input.amount);
  if (amount < yen(policy.min_yen)) {
    throw new AppError('LOAN_BELOW_MIN', { m: formatYen(yen(policy.min_yen), deps.locale) });
  }
  const product = await productFor(tx, amount / 100);
  if (!product) throw new AppError('LOAN_NO_PRODUCT');
  if (amount > s.available) {
    throw new AppError('LOAN_LIMIT_INSUFFICIENT', { available: formatYen(s.available, deps.locale) });
  }
  const room = totalVolumeRoom(input.annual_income_yen, input.other_borrowing_yen, s.owedPrincipal / 100);
  if (amount > yen(room)) {
    throw new AppError('LOAN_TOTAL_VOLUME', { room: formatYen(yen(room), deps.locale) });
  }
  const [row] = await tx
    .insert(loans)
    .values({
      userId,
      productId: product.id,
      requested: amount,
      fullName: input.full_name,
      idNumber: maskId(input.id_number),
      address: input.address,
      contactPhone: input.phone,
      email: input.email,
      annualIncomeYen: input.annual_income_yen,
      otherBorrowingYen: input.other_borrowing_yen,
      agreedAt: now,
      createdAt: now,
    })
    .returning();
  if (!row) throw new Error('loan application was not written');
  await notify(tx, outbox, userId, 'loan.applied', { loan_id: row.id, amount }, now);
  return loanView(row, owedNow(row, sen(0), today));
}

/**
 * POST /api/loans/:id/repay, under the user's lock: a lump sum of everything owed (partial repayment is not
 * offered: ADR 0028). The days the accrual job has not reached are written first, so what is repaid is the
 * principal from the ledger plus the loan's accrual rows; the amount must be exactly that, from cash.
 */
export async function repayLoan(
  tx: Tx,
  deps: { clock: Clock; locale: string },
  userId: number,
  id: number,
  amount: Sen,
  outbox: EventOutbox,
): Promise<TLoan> {
  const now = deps.clock.now();
  const today = todayOf(now);
  const [row] = await tx
    .select()
    .from(loans)
    .where(and(eq(loans.id, id), eq(loans.userId, userId)))
    .for('update');
  if (!row) throw new AppError('LOAN_NOT_FOUND');
  if (!(OWED_STATUSES as readonly string[]).includes(row.status)) throw new AppError('LOAN_NOT_REPAYABLE');
  await accrueThrough(tx, row, today);
  const principal = (await principalOwed(tx, [id])).get(id) ?? sen(0);
  const accrued = (await accruedOf(tx, [id])).get(id) ?? { interest: sen(0), late: sen(0) };
  const owed = sen(principal + accrued.interest + accrued.late);
  const shown = { owed: formatYen(owed, deps.locale) };
  if (amount > owed) throw new AppError('LOAN_REPAY_EXCEEDS', shown);
  if (amount < owed) throw new AppError('LOAN_PARTIAL_NOT_ALLOWED', shown);
  const { cash } = await userBalances(tx, userId);
  if (cash < owed) {
    throw new AppError('LOAN_INSUFFICIENT_CASH', { ...shown, cash: formatYen(cash, deps.locale) });
  }
  const entryId = await postEntry(tx, {
    kind: 'loan_repayment',
    memo: `Loan ${id} repaid`,
    params: { loan_id: id, amount: owed, principal, interest: accrued.interest, late: accrued.late },
    ref: loanRef(id),
    at: now,
    lines: [
      { user: userId, account: 'cash', amount: negSen(owed) },
      { house: 'loan_book', amount: principal },
      { house: 'loan_interest', amount: accrued.interest },
      { house: 'loan_late_charges', amount: accrued.late },
    ],
  });
  const [updated] = await tx
    .update(loans)
    .set({ status: 'repaid', repayEntryId: entryId, repaidAt: now, repaidAmount: owed })
    .where(eq(loans.id, id))
    .returning();
  if (!updated) throw new Error('loan was not updated');
  await notify(tx, outbox, userId, 'loan.repaid', { loan_id: id, amount: owed }, now);
  return loanView(updated, owedNow(updated, sen(0), today));
}

/**
 * The withdrawal rule (ADR 0028), called by funds' withdrawal filing: while any loan is overdue (or in
 * collection), what the user owes on those loans stays in cash: a withdrawal may take only the cash above it.
 * Loans that are not overdue do not restrict withdrawals.
 */
export async function requireWithdrawableWithLoans(
  db: Executor,
  userId: number,
  amount: Sen,
  cash: Sen,
  now: Date,
  locale: string,
): Promise<void> {
  const overdue = (await userLoans(db, userId, todayOf(now))).filter(
    (i) => i.row.status === 'overdue' || i.row.status === 'collection',
  );
  if (overdue.length === 0) return;
  const owed = sen(overdue.reduce((sum, i) => sum + i.owed.total, 0));
  const available = sen(Math.max(0, cash - owed));
  if (amount > available) {
    throw new AppError('LOAN_WITHDRAWAL_BLOCKED', {
      owed: formatYen(owed, locale),
      available: formatYen(available, locale),
    });
  }
}
