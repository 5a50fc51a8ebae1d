import { eq } from 'drizzle-orm';
import { addIsoDays, negSen, yen } from '@kabuto/contract';
import type { Db } from './db/types.js';
import { loanProducts, loans } from './db/schema.js';
import type { Clock } from './lib/clock.js';
import { audit } from './modules/console/audit.js';
import { lockUser, postEntry } from './modules/ledger/ledger.js';
import { freeUntilFor, loanRef, loanSettings, todayOf } from './modules/loans/loans.js';

/** The demo's loan product: 18% a year (the cap for its largest amount, 999,999 yen), late charges 20%. */
export const DEMO_LOAN_PRODUCT = {
  name: 'カブト・フリーローン（デモ）',
  rateBp: 1800,
  lateRateBp: 2000,
  termDays: 30,
  minYen: 10_000,
  maxYen: 999_999,
} as const;
export const DEMO_LOAN_YEN = 100_000;

/**
 * Issue 18: a lawful loan product and, for the demo user, one loan in progress (applied, approved and paid to
 * cash by the seed: the audit row names the system, not an operator). Done once; later starts change nothing.
 */
export async function seedDemoLoans(db: Db, clock: Clock, userId: number, fullName: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [product] = await tx.select().from(loanProducts).limit(1);
    const productId =
      product?.id ?? (await tx.insert(loanProducts).values(DEMO_LOAN_PRODUCT).returning())[0]?.id;
    if (productId === undefined) throw new Error('the demo loan product was not written');
    await lockUser(tx, userId);
    const [existing] = await tx.select({ id: loans.id }).from(loans).where(eq(loans.userId, userId)).limit(1);
    if (existing) return;
    const now = clock.now();
    const today = todayOf(now);
    const policy = await loanSettings(tx);
    const free = await freeUntilFor(tx, userId, today, policy);
    const principal = yen(DEMO_LOAN_YEN);
    const [loan] = await tx
      .insert(loans)
      .values({
        userId,
        productId,
        requested: principal,
        fullName,
        idNumber: '********9018',
        address: '東京都中央区日本橋兜町2-1',
        contactPhone: '090-0000-0001',
        email: 'demo@kabuto.example',
        annualIncomeYen: 6_000_000,
        otherBorrowingYen: 0,
        agreedAt: now,
        createdAt: now,
      })
      .returning();
    if (!loan) throw new Error('the demo loan was not written');
    const entryId = await postEntry(tx, {
      kind: 'loan_disbursement',
      memo: `Loan ${loan.id} paid to cash`,
      params: { loan_id: loan.id, amount: principal },
      ref: loanRef(loan.id),
      at: now,
      lines: [
        { house: 'loan_book', amount: negSen(principal) },
        { user: userId, account: 'cash', amount: principal },
      ],
    });
    const dueOn = addIsoDays(today, DEMO_LOAN_PRODUCT.termDays);
    await tx
      .update(loans)
      .set({
        status: 'repaying',
        principal,
        rateBp: DEMO_LOAN_PRODUCT.rateBp,
        lateRateBp: DEMO_LOAN_PRODUCT.lateRateBp,
        lateGraceDays: policy.late_grace_days,
        disbursedOn: today,
        dueOn,
        freeUntil: free.until,
        disburseEntryId: entryId,
        disbursedAt: now,
        reviewedAt: now,
      })
      .where(eq(loans.id, loan.id));
    await audit(tx, {
      operatorId: null,
      action: 'loan.approve',
      targetType: 'loan',
      targetId: loan.id,
      userId,
      reason: 'Demo seed: the demo user starts with one loan in progress',
      after: { status: 'repaying', principal, due_on: dueOn, entry_id: entryId },
      at: now,
    });
  });
}
