import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_LOAN_SETTINGS,
  LATE_CHARGE_CAP_BP,
  legalCapBp,
  withinCap,
  yen,
  type TLoan,
} from '@kabuto/contract';
import { loanLimits, loanProducts, operators, settings } from '../../db/schema.js';
import { hashPassword } from '../../lib/passwords.js';
import { body, createTestApp, registerAndLogin, type TestApp } from '../../test/harness.js';
import { fundDemoCash, ledgerHeadMismatches, lockUser } from '../ledger/ledger.js';
import { runLoanAccrual } from './accrual.js';

/**
 * Issue 18's property through the API: for random lawful products, amounts and repayment days, what a loan
 * costs (interest plus late charges; there are no fees) over the days it was held never exceeds the legal cap
 * for its principal (late charges: 20%), and the ledger's invariants hold after every repayment.
 * PROPERTY_RUNS sets the random loans: 8 in `npm test`; the issue's high count:
 * `PROPERTY_RUNS=200 npx vitest run apps/server/src/modules/loans/loans.property.test.ts`.
 */
const RUNS = Number(process.env['PROPERTY_RUNS'] ?? 8);
const DAY_MS = 86_400_000;

let t: TestApp;
let user: { token: string; userId: number; phone: string; password: string };
let reviewer: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  await t.database.db.insert(operators).values({
    username: 'propop',
    displayName: 'propop',
    passwordHash: await hashPassword('operator-password-1'),
    role: 'reviewer',
    mustChangePassword: false,
  });
  // interest from the first day (the free period would make every loan cost nothing)
  await t.database.db
    .insert(settings)
    .values({ key: 'loans', value: JSON.stringify({ ...DEFAULT_LOAN_SETTINGS, free_days: 0 }) });
  user = await registerAndLogin(t);
  await t.database.db
    .insert(loanLimits)
    .values({ userId: user.userId, limitYen: 100_000_000, setBy: 1, setAt: t.clock.now() });
  await t.database.db.transaction(async (tx) => {
    await lockUser(tx, user.userId);
    await fundDemoCash(tx, user.userId, yen(50_000_000), t.clock.now());
  });
});
afterAll(() => t.close());

async function signInAll() {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { account: user.phone, password: user.password, agree: true },
  });
  user.token = body<{ token: string }>(res).data.token;
  const op = await t.app.inject({
    method: 'POST',
    url: '/api/console/login',
    payload: { username: 'propop', password: 'operator-password-1' },
  });
  reviewer = { authorization: `Bearer ${body<{ token: string }>(op).data.token}` };
}

describe('random loans through the API', () => {
  it(
    'never cost more than the legal cap, and keep the ledger consistent',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 10_000, max: 5_000_000 }),
          fc.integer({ min: 0, max: 2000 }),
          fc.integer({ min: 0, max: LATE_CHARGE_CAP_BP }),
          fc.integer({ min: 1, max: 60 }),
          fc.integer({ min: 0, max: 90 }),
          async (amount, rateWanted, lateRate, term, heldDays) => {
            const rate = Math.min(rateWanted, legalCapBp(amount));
            // the only product offered is this one (the others retired)
            await t.database.db.update(loanProducts).set({ active: false });
            await t.database.db.insert(loanProducts).values({
              name: 'random',
              rateBp: rate,
              lateRateBp: lateRate,
              termDays: term,
              minYen: 10_000,
              maxYen: Math.max(amount, 10_000),
            });
            await signInAll();
            const applied = body<TLoan>(
              await t.app.inject({
                method: 'POST',
                url: '/api/loans',
                headers: { token: user.token, 'idempotency-key': randomUUID() },
                payload: {
                  amount: yen(amount),
                  full_name: '山田 太郎',
                  id_number: 'AB1234567',
                  address: '東京都',
                  phone: '090-1234-5678',
                  email: 'taro@example.jp',
                  annual_income_yen: 90_000_000,
                  other_borrowing_yen: 0,
                  agree: true,
                },
              }),
            );
            expect(applied.code, JSON.stringify(applied)).toBe(1);
            const id = applied.data.id;
            const approve = async () =>
              body(
                await t.app.inject({
                  method: 'POST',
                  url: `/api/console/loans/${id}/approve`,
                  headers: reviewer,
                  payload: { amount: yen(amount), limit_yen: 100_000_000 },
                }),
              );
            let approved = await approve();
            if (approved.data && (approved.data as { status: string }).status === 'disbursing') {
              // four-eyes: a second reviewer
              await t.database.db.insert(operators).values({
                username: `propop${id}`,
                displayName: 'second',
                passwordHash: await hashPassword('operator-password-1'),
                role: 'reviewer',
                mustChangePassword: false,
              });
              const op = await t.app.inject({
                method: 'POST',
                url: '/api/console/login',
                payload: { username: `propop${id}`, password: 'operator-password-1' },
              });
              reviewer = { authorization: `Bearer ${body<{ token: string }>(op).data.token}` };
              approved = await approve();
            }
            expect(approved.code, JSON.stringify(approved)).toBe(1);
            t.clock.advance(heldDays * DAY_MS);
            await runLoanAccrual(t.database.db, t.clock);
            await signInAll();
            const loan = body<TLoan>(
              await t.app.inject({ url: `/api/loans/${id}`, headers: { token: user.token } }),
            ).data;
            const repaid = body<TLoan>(
              await t.app.inject({
                method: 'POST',
                url: `/api/loans/${id}/repay`,
                headers: { token: user.token, 'idempotency-key': randomUUID() },
                payload: { amount: loan.amount_to_repay },
              }),
            );
            expect(repaid.code, JSON.stringify(repaid)).toBe(1);
            const interestYen = loan.interest / 100;
            const lateYen = loan.late_charges / 100;
            expect(loan.amount_to_repay).toBe(yen(amount) + loan.interest + loan.late_charges);
            // Interest is rounded down to the yen: it is owed only once the days charged make at least ¥1 (at
            // 1 bp, ¥100,000 earns ¥0.027 a day). Counted on days within the term, a 366-day year, less a day.
            const charged = Math.max(0, Math.min(heldDays, term) - 1);
            if (rate > 0 && amount >= 100_000 && amount * rate * charged >= 10_000 * 366) {
              expect(loan.interest).toBeGreaterThan(0);
            }
            expect(withinCap(interestYen, amount, heldDays, legalCapBp(amount))).toBe(true);
            expect(withinCap(lateYen, amount, heldDays, LATE_CHARGE_CAP_BP)).toBe(true);
            expect(await ledgerHeadMismatches(t.database.db)).toEqual([]);
            // top the cash up again for the next loan
            await t.database.db.transaction(async (tx) => {
              await lockUser(tx, user.userId);
              await fundDemoCash(tx, user.userId, yen(interestYen + lateYen + 1), t.clock.now());
            });
          },
        ),
        { numRuns: RUNS },
      );
    },
    30_000 + RUNS * 5_000,
  );
});
