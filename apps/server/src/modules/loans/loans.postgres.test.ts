import { afterAll, beforeAll, expect, it } from 'vitest';
import { count, eq, sql } from 'drizzle-orm';
import { addIsoDays, chargesThrough, negSen, yen } from '@kabuto/contract';
import { jobRuns, loanAccruals, loanProducts, loans, messages } from '../../db/schema.js';
import { createTestApp, registerAndLogin, type TestApp } from '../../test/harness.js';
import { describeNeeding } from '../../test/needs.js';
import { ledgerHeadMismatches, lockUser, postEntry } from '../ledger/ledger.js';
import { LOAN_ACCRUAL_JOB, runLoanAccrual } from './accrual.js';
import { loanRef, termsOf } from './loans.js';

/**
 * The daily accrual on PostgreSQL, as several processes run it (issue 18, ADR 0028): eight passes at once on
 * separate connections, after forty days of downtime, must write each (loan, day) once, run each day once,
 * send each state change's message once, and leave the ledger heads right. `npm test` runs this file in its
 * PostgreSQL step; without TEST_DATABASE_URL it is reported as not run (test/needs.ts).
 */
let t: TestApp;
const LOANS = 6;

describeNeeding('postgres', 'the loan accrual across processes on PostgreSQL', () => {
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('runs each day once and charges each loan each day once, however many passes race', async () => {
    const db = t.database.db;
    const [product] = await db
      .insert(loanProducts)
      .values({ name: 'test', rateBp: 1800, lateRateBp: 2000, termDays: 30, minYen: 10_000, maxYen: 999_999 })
      .returning();
    const ids: number[] = [];
    for (let i = 0; i < LOANS; i += 1) {
      const { userId } = await registerAndLogin(t, { verified: false });
      await db.transaction(async (tx) => {
        await lockUser(tx, userId);
        const principal = yen(100_000 + i * 10_000);
        const [row] = await tx
          .insert(loans)
          .values({
            userId,
            productId: product?.id ?? 0,
            requested: principal,
            principal,
            status: 'repaying',
            fullName: 'test',
            idNumber: '****',
            address: 'test',
            contactPhone: '0000000000',
            email: 'x@example.jp',
            annualIncomeYen: 6_000_000,
            otherBorrowingYen: 0,
            agreedAt: t.clock.now(),
            rateBp: 1800,
            lateRateBp: 2000,
            lateGraceDays: 7,
            disbursedOn: '2026-11-24',
            dueOn: '2026-12-24',
            freeUntil: null,
          })
          .returning();
        if (!row) throw new Error('no loan');
        await postEntry(tx, {
          kind: 'loan_disbursement',
          params: { loan_id: row.id, amount: principal },
          ref: loanRef(row.id),
          at: t.clock.now(),
          lines: [
            { house: 'loan_book', amount: negSen(principal) },
            { user: userId, account: 'cash', amount: principal },
          ],
        });
        ids.push(row.id);
      });
    }
    t.clock.set('2027-01-03T01:00:00Z'); // forty days later: days 11-24 .. 01-02 are due
    await Promise.all(Array.from({ length: 8 }, () => runLoanAccrual(db, t.clock)));
    const [runs] = await db.select({ n: count() }).from(jobRuns).where(eq(jobRuns.job, LOAN_ACCRUAL_JOB));
    expect(runs?.n).toBe(40);
    for (const id of ids) {
      const [row] = await db.select().from(loans).where(eq(loans.id, id));
      if (!row) throw new Error('loan gone');
      const [sum] = await db
        .select({
          n: count(),
          interest: sql<string>`sum(${loanAccruals.interest})::text`,
          late: sql<string>`sum(${loanAccruals.lateCharge})::text`,
        })
        .from(loanAccruals)
        .where(eq(loanAccruals.loanId, id));
      const expected = chargesThrough(termsOf(row), addIsoDays('2027-01-03', -1));
      expect(sum).toEqual({
        n: 39,
        interest: String(yen(expected.interest_yen)),
        late: String(yen(expected.late_yen)),
      });
      expect(row.status).toBe('overdue');
      const overdue = await db
        .select({ n: count() })
        .from(messages)
        .where(sql`${messages.userId} = ${row.userId} and ${messages.kind} = 'loan.overdue'`);
      expect(overdue[0]?.n).toBe(1);
    }
    expect(await ledgerHeadMismatches(db)).toEqual([]);
  });
});
