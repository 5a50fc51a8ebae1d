import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq, sql } from 'drizzle-orm';
import {
  DEFAULT_LOAN_SETTINGS,
  addIsoDays,
  chargesThrough,
  sen,
  yen,
  type TLoan,
  type TLoanSettings,
} from '@kabuto/contract';
import {
  auditLog,
  jobRuns,
  loanAccruals,
  loanLimits,
  loanProducts,
  loans,
  messages,
  operators,
} from '../../db/schema.js';
import { hashPassword } from '../../lib/passwords.js';
import { body, createTestApp, registerAndLogin, type TestApp } from '../../test/harness.js';
import { fundDemoCash, ledgerHeadMismatches, lockUser, userBalances } from '../ledger/ledger.js';
import { LOAN_ACCRUAL_JOB, runLoanAccrual } from './accrual.js';
import { requireWithdrawableWithLoans, termsOf } from './loans.js';
import { injectStepped } from '../../test/step-up.js';

/**
 * Credit loans through the API (issue 18, ADR 0028), one named scenario per rule, with a fixed clock
 * (TEST_NOW: 2026-11-24 10:00 in Tokyo). The terms' arithmetic has its own tests in the contract
 * (loan-terms.test.ts); these check that the server applies it: what is refused, what is written, what moves.
 */

type Headers = Record<string, string>;
const OP_PASSWORD = 'operator-password-1';
let opCounter = 0;

function helpers(get: () => TestApp) {
  const t = () => get();
  async function operator(role: 'reviewer' | 'administrator' = 'reviewer'): Promise<Headers> {
    opCounter += 1;
    const username = `loanop${opCounter}`;
    await t()
      .database.db.insert(operators)
      .values({
        username,
        displayName: username,
        passwordHash: await hashPassword(OP_PASSWORD),
        role,
        mustChangePassword: false,
      });
    const res = await t().app.inject({
      method: 'POST',
      url: '/api/console/login',
      payload: { username, password: OP_PASSWORD },
    });
    return { authorization: `Bearer ${body<{ token: string }>(res).data.token}` };
  }
  const post = (url: string, payload: unknown, headers: Headers = {}) =>
    injectStepped(t(), { method: 'POST', url, payload: payload as object, headers });
  const get_ = (url: string, headers: Headers = {}) => t().app.inject({ method: 'GET', url, headers });
  const product = (admin: Headers, over: Record<string, unknown> = {}) =>
    post(
      '/api/console/loans/products?lang=en',
      {
        name: 'Kabuto card loan',
        rate_bp: 1800,
        late_rate_bp: 2000,
        term_days: 30,
        min_yen: 10_000,
        max_yen: 999_999,
        ...over,
      },
      admin,
    );
  const application = (over: Record<string, unknown> = {}) => ({
    amount: yen(100_000),
    full_name: '山田 太郎',
    id_number: 'AB1234567',
    address: '東京都千代田区丸の内1-1-1',
    phone: '090-1234-5678',
    email: 'taro@example.jp',
    annual_income_yen: 6_000_000,
    other_borrowing_yen: 0,
    agree: true,
    ...over,
  });
  const apply = (token: string, over: Record<string, unknown> = {}, lang = 'en') =>
    post(`/api/loans?lang=${lang}`, application(over), { token, 'idempotency-key': randomUUID() });
  const approve = (op: Headers, id: number, amountYen: number, limitYen = 500_000) =>
    post(`/api/console/loans/${id}/approve?lang=en`, { amount: yen(amountYen), limit_yen: limitYen }, op);
  const repay = (token: string, id: number, amount: number, key = randomUUID()) =>
    post(`/api/loans/${id}/repay?lang=en`, { amount }, { token, 'idempotency-key': key });
  const loanOf = async (token: string, id: number) =>
    body<TLoan>(await get_(`/api/loans/${id}`, { token })).data;
  const fund = async (userId: number, amountYen: number) =>
    t().database.db.transaction(async (tx) => {
      await lockUser(tx, userId);
      await fundDemoCash(tx, userId, yen(amountYen), t().clock.now());
    });
  const setPolicy = async (admin: Headers, over: Partial<TLoanSettings>) => {
    const res = await t().app.inject({
      method: 'PUT',
      url: '/api/console/settings/loans',
      payload: { ...DEFAULT_LOAN_SETTINGS, ...over },
      headers: admin,
    });
    expect(body(res).code, res.body).toBe(1);
  };
  const messageKinds = async (userId: number) =>
    (
      await t().database.db.select({ kind: messages.kind }).from(messages).where(eq(messages.userId, userId))
    ).map((m) => m.kind);
  return { operator, post, get: get_, product, apply, approve, repay, loanOf, fund, setPolicy, messageKinds };
}

describe('applying, the review and the refusals', () => {
  let t: TestApp;
  const h = helpers(() => t);
  let admin: Headers;
  let reviewer: Headers;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await h.operator('administrator');
    reviewer = await h.operator('reviewer');
    expect(body(await h.product(admin)).code).toBe(1);
    expect(
      body(await h.product(admin, { name: 'Large', rate_bp: 1500, min_yen: 1_000_000, max_yen: 100_000_000 }))
        .code,
    ).toBe(1);
  });
  afterAll(() => t.close());

  it('answers 401 without a session on every loan route, and one user cannot reach another user’s loan', async () => {
    for (const [method, url] of [
      ['GET', '/api/loans/overview'],
      ['GET', '/api/loans/quote?amount=10000000'],
      ['GET', '/api/loans'],
      ['POST', '/api/loans'],
      ['GET', '/api/loans/1'],
      ['POST', '/api/loans/1/repay'],
    ] as const) {
      const res = await t.app.inject({ method, url, ...(method === 'POST' ? { payload: {} } : {}) });
      expect(res.statusCode, url).toBe(401);
    }
    const owner = await registerAndLogin(t);
    const other = await registerAndLogin(t);
    const id = body<TLoan>(await h.apply(owner.token)).data.id;
    expect(body(await h.get(`/api/loans/${id}?lang=en`, { token: other.token }))).toMatchObject({
      code: 1600,
      msg: 'Loan not found',
    });
    expect(body(await h.repay(other.token, id, yen(100_000))).code).toBe(1600);
    expect(body<{ items: TLoan[] }>(await h.get('/api/loans', { token: other.token })).data.items).toEqual(
      [],
    );
  });

  it('refuses bad input with a clear, localized error and writes nothing', async () => {
    const u = await registerAndLogin(t);
    const [before] = await t.database.db.select({ n: count() }).from(loans);
    const cases: [Record<string, unknown>, number, string][] = [
      [{ amount: undefined }, 400, 'Please enter the loan amount'],
      [{ amount: 0 }, 400, 'The loan amount must be more than zero'],
      [{ amount: -10_000 }, 400, 'The loan amount must be more than zero'],
      [{ amount: 1_000_050 }, 400, 'Please enter a whole number of yen'],
      [{ amount: 12.5 }, 400, 'Please enter a whole number of yen'],
      [{ amount: yen(100_000_001) }, 400, 'The loan amount cannot exceed 100,000,000 yen'],
      [{ annual_income_yen: undefined }, 400, 'Please enter your annual income in yen (more than zero)'],
      [{ annual_income_yen: 'lots' }, 400, 'Please enter your annual income in yen (more than zero)'],
      [{ annual_income_yen: 0 }, 400, 'Please enter your annual income in yen (more than zero)'],
      [{ annual_income_yen: -5 }, 400, 'Please enter your annual income in yen (more than zero)'],
      [{ full_name: ' ' }, 400, 'Please enter the applicant name'],
      [{ id_number: '' }, 400, 'Please enter your ID number'],
      [{ address: '' }, 400, 'Please enter your address'],
      [{ email: 'not-mail' }, 400, 'Please enter a valid email address'],
      [{ agree: false }, 400, 'Please read and agree to the loan agreement'],
      [{ amount: yen(5_000) }, 1601, 'The loan amount cannot be less than the minimum loan amount: ¥10,000'],
      [{ amount: yen(600_000) }, 1602, 'Insufficient loan limit: you can borrow up to ¥500,000'],
      [{ full_name: '佐藤 花子' }, 1606, 'The applicant name must be the name on your verified identity'],
    ];
    for (const [over, code, msg] of cases) {
      const answer = body(await h.apply(u.token, over));
      expect(answer, JSON.stringify(over)).toMatchObject({ code, msg });
    }
    // in Japanese too, with the minimum as the specification's {m}
    expect(body(await h.apply(u.token, { amount: yen(5_000) }, 'jp')).msg).toBe(
      'お借入金額は最低お借入額￥10,000以上でご入力ください',
    );
    const [after] = await t.database.db.select({ n: count() }).from(loans);
    expect(after?.n).toBe(before?.n);
  });

  it('refuses an application beyond one third of the declared income (total-volume rule)', async () => {
    const u = await registerAndLogin(t);
    // a third of 900,000 is 300,000, less 100,000 borrowed elsewhere: 200,000 left
    const refused = body(
      await h.apply(u.token, {
        amount: yen(250_000),
        annual_income_yen: 900_000,
        other_borrowing_yen: 100_000,
      }),
    );
    expect(refused).toMatchObject({ code: 1603 });
    expect(refused.msg).toContain('¥200,000');
    expect(
      body(
        await h.apply(u.token, {
          amount: yen(200_000),
          annual_income_yen: 900_000,
          other_borrowing_yen: 100_000,
        }),
      ).code,
    ).toBe(1);
  });

  it('needs a verified identity, and one application at a time', async () => {
    const unverified = await registerAndLogin(t, { verified: false });
    expect(body(await h.apply(unverified.token)).code).toBe(1311);
    const u = await registerAndLogin(t);
    expect(body(await h.apply(u.token)).code).toBe(1);
    expect(body(await h.apply(u.token)).code).toBe(1605);
    const overview = body<{ under_application: number; available: number; blocked: string }>(
      await h.get('/api/loans/overview', { token: u.token }),
    ).data;
    expect(overview).toMatchObject({
      under_application: yen(100_000),
      available: yen(400_000),
      blocked: 'pending',
    });
  });

  it('refuses a product above the legal cap for its amounts, and a late rate above 20%', async () => {
    expect(body(await h.product(admin, { rate_bp: 1801, max_yen: 999_999 }))).toMatchObject({
      code: 1609,
      msg: 'The rate is above the legal cap of 18% a year for a principal of ¥999,999 (Interest Rate Restriction Act)',
    });
    expect(body(await h.product(admin, { rate_bp: 1800, max_yen: 1_000_000 })).code).toBe(1609);
    expect(body(await h.product(admin, { rate_bp: 2000, max_yen: 100_000 })).code).toBe(1609);
    expect(body(await h.product(admin, { rate_bp: 2000, max_yen: 99_999 })).code).toBe(1);
    expect(body(await h.product(admin, { late_rate_bp: 2001 })).code).toBe(1610);
    expect(body(await h.product(reviewer)).code).toBe(403);
  });

  it('refuses an approval whose rate is above the cap for the amount, even for a product written past the API', async () => {
    const u = await registerAndLogin(t);
    const id = body<TLoan>(await h.apply(u.token, { amount: yen(200_000) })).data.id;
    // a product row the API would refuse (20% up to 5,000,000 yen), as a bad migration or manual insert could leave
    const [bad] = await t.database.db
      .insert(loanProducts)
      .values({
        name: 'unlawful',
        rateBp: 2000,
        lateRateBp: 2000,
        termDays: 30,
        minYen: 10_000,
        maxYen: 5_000_000,
      })
      .returning();
    const badId = bad?.id ?? 0;
    await t.database.db.update(loans).set({ productId: badId }).where(eq(loans.id, id));
    expect(body(await h.approve(reviewer, id, 200_000))).toMatchObject({ code: 1609 });
    const [row] = await t.database.db.select().from(loans).where(eq(loans.id, id));
    expect(row?.status).toBe('pending');
    await t.database.db.update(loanProducts).set({ active: false }).where(eq(loanProducts.id, badId));
  });

  it('approves within policy only, disburses to cash from the loan book, audits and tells the user', async () => {
    const u = await registerAndLogin(t);
    const id = body<TLoan>(await h.apply(u.token, { amount: yen(150_000) })).data.id;
    expect(body(await h.approve(reviewer, id, 160_000)).code).toBe(1611); // more than applied for
    expect(body(await h.approve(reviewer, id, 150_000, 100_000)).code).toBe(1611); // above the limit set
    expect(body(await h.approve(reviewer, id, 5_000)).code).toBe(1611); // below the minimum
    expect(body(await h.approve(reviewer, id, 120_000, 300_000)).data).toEqual({ id, status: 'repaying' });
    expect(body(await h.approve(reviewer, id, 120_000, 300_000)).code).toBe(1617);
    expect((await userBalances(t.database.db, u.userId)).cash).toBe(yen(120_000));
    const loan = await h.loanOf(u.token, id);
    expect(loan).toMatchObject({
      status: 'repaying',
      amount: yen(150_000),
      disbursed_amount: yen(120_000),
      amount_to_repay: yen(120_000), // interest-free: registered today, first loan
      rate_bp: 1800,
      due_date: '2026-12-24',
      free_until: '2027-05-23',
    });
    const audits = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'loan.approve'));
    expect(audits.some((a) => a.targetId === String(id))).toBe(true);
    expect(await h.messageKinds(u.userId)).toEqual(
      expect.arrayContaining(['loan.applied', 'loan.disbursed']),
    );
    const overview = body<{ limit: number; available: number; total_to_repay: number }>(
      await h.get('/api/loans/overview', { token: u.token }),
    ).data;
    expect(overview).toMatchObject({
      limit: yen(300_000),
      available: yen(180_000),
      total_to_repay: yen(120_000),
    });
    expect(await ledgerHeadMismatches(t.database.db)).toEqual([]);
  });

  it('needs two different operators above the policy amount (four-eyes)', async () => {
    const u = await registerAndLogin(t);
    // test setup: the limit a reviewer set on an earlier loan
    await t.database.db
      .insert(loanLimits)
      .values({ userId: u.userId, limitYen: 3_000_000, setBy: 1, setAt: t.clock.now() });
    const id = body<TLoan>(await h.apply(u.token, { amount: yen(2_000_000), annual_income_yen: 9_000_000 }))
      .data.id;
    const limit = 3_000_000;
    expect(body(await h.approve(reviewer, id, 2_000_000, limit)).data).toEqual({ id, status: 'disbursing' });
    expect((await userBalances(t.database.db, u.userId)).cash).toBe(0);
    expect((await h.loanOf(u.token, id)).status).toBe('disbursing');
    expect(body(await h.approve(reviewer, id, 2_000_000, limit)).code).toBe(1342);
    const second = await h.operator('reviewer');
    expect(body(await h.approve(second, id, 1_900_000, limit)).code).toBe(1611); // not what the first approved
    expect(body(await h.approve(second, id, 2_000_000, limit)).data).toEqual({ id, status: 'repaying' });
    expect((await userBalances(t.database.db, u.userId)).cash).toBe(yen(2_000_000));
    expect(await h.messageKinds(u.userId)).toEqual(
      expect.arrayContaining(['loan.disbursing', 'loan.disbursed']),
    );
  });

  it('rejects with a listed reason and free text, which the records show with the next actions', async () => {
    const u = await registerAndLogin(t);
    const id = body<TLoan>(await h.apply(u.token)).data.id;
    expect(
      body(
        await h.post(
          `/api/console/loans/${id}/reject?lang=en`,
          { reason_code: 'nope', reason: 'x' },
          reviewer,
        ),
      ).code,
    ).toBe(400);
    const res = await h.post(
      `/api/console/loans/${id}/reject`,
      { reason_code: 'credit_history', reason: '他社での延滞が確認されました' },
      reviewer,
    );
    expect(body(res).data).toEqual({ id, status: 'rejected' });
    expect(await h.loanOf(u.token, id)).toMatchObject({
      status: 'rejected',
      reject_reason_code: 'credit_history',
      reject_reason: '他社での延滞が確認されました',
      amount_to_repay: 0,
    });
    expect(await h.messageKinds(u.userId)).toContain('loan.rejected');
    // the user may apply again
    expect(body(await h.apply(u.token)).code).toBe(1);
  });

  it('charges no interest on the first five loans of the free period; the sixth pays interest', async () => {
    const u = await registerAndLogin(t);
    for (let n = 0; n < 5; n += 1) {
      const id = body<TLoan>(await h.apply(u.token, { amount: yen(10_000) })).data.id;
      expect(body(await h.approve(reviewer, id, 10_000)).code).toBe(1);
      const loan = await h.loanOf(u.token, id);
      expect(loan.free_until).toBe('2027-05-23');
      expect(body(await h.repay(u.token, id, loan.amount_to_repay)).code).toBe(1);
    }
    const overview = body<{ free_until: string | null; free_loans_left: number }>(
      await h.get('/api/loans/overview', { token: u.token }),
    ).data;
    expect(overview).toMatchObject({ free_until: null, free_loans_left: 0 });
    const quote = body<{ free_until: string | null; interest_to_due: number }>(
      await h.get(`/api/loans/quote?amount=${yen(10_000)}`, { token: u.token }),
    ).data;
    expect(quote).toMatchObject({ free_until: null, interest_to_due: yen(147) }); // 10,000 × 18% × 30 / 365
    const id = body<TLoan>(await h.apply(u.token, { amount: yen(10_000) })).data.id;
    expect(body(await h.approve(reviewer, id, 10_000)).code).toBe(1);
    expect((await h.loanOf(u.token, id)).free_until).toBeNull();
  });
});

describe('accrual, repayment, overdue and collection over time', () => {
  let t: TestApp;
  const h = helpers(() => t);
  let reviewer: Headers;
  beforeAll(async () => {
    t = await createTestApp();
    const admin = await h.operator('administrator');
    reviewer = await h.operator('reviewer');
    expect(body(await h.product(admin)).code).toBe(1);
    // interest from the first day: these users are past any free period
    await h.setPolicy(admin, { free_days: 0 });
  });
  afterAll(() => t.close());

  let early: { token: string; userId: number; phone: string; password: string };
  let late: { token: string; userId: number; phone: string; password: string };
  /** Moves the clock and signs both users in again (sessions expire while the clock jumps). */
  const moveTo = async (at: string) => {
    t.clock.set(at);
    for (const u of [early, late]) {
      const res = await h.post('/api/auth/login', { account: u.phone, password: u.password, agree: true });
      u.token = body<{ token: string }>(res).data.token;
    }
  };
  let earlyId = 0;
  let lateId = 0;

  it('accrues each ended day once, across two processes and repeated passes, and catches up after downtime', async () => {
    early = await registerAndLogin(t);
    late = await registerAndLogin(t);
    earlyId = body<TLoan>(await h.apply(early.token)).data.id;
    lateId = body<TLoan>(await h.apply(late.token)).data.id;
    expect(body(await h.approve(reviewer, earlyId, 100_000)).code).toBe(1);
    expect(body(await h.approve(reviewer, lateId, 100_000)).code).toBe(1);
    // down for ten days: the first pass after catches every day up, once, whoever runs it
    await moveTo('2026-12-04T01:00:00Z');
    await Promise.all([runLoanAccrual(t.database.db, t.clock), runLoanAccrual(t.database.db, t.clock)]);
    await runLoanAccrual(t.database.db, t.clock);
    const runs = await t.database.db.select().from(jobRuns).where(eq(jobRuns.job, LOAN_ACCRUAL_JOB));
    expect(runs.map((r) => r.runKey).sort()).toEqual(
      Array.from({ length: 10 }, (_, i) => addIsoDays('2026-11-24', i)),
    );
    const [sum] = await t.database.db
      .select({ n: count(), interest: sql<string>`sum(${loanAccruals.interest})::text` })
      .from(loanAccruals)
      .where(eq(loanAccruals.loanId, earlyId));
    // days 11-25 .. 12-03: 100,000 × 18% × 9 / 365 = 443.8
    expect(sum).toEqual({ n: 9, interest: String(yen(443)) });
    // what the records show today includes today's day: 10 days, 493.15
    expect(await h.loanOf(early.token, earlyId)).toMatchObject({
      interest: yen(493),
      amount_to_repay: yen(100_493),
    });
  });

  it('repays before the due date: only the whole amount owed, from cash, once when two requests race', async () => {
    expect(body(await h.repay(early.token, earlyId, yen(100_493)))).toMatchObject({
      code: 1615,
      msg: 'Not enough available cash to repay: ¥100,493 is needed and you have ¥100,000',
    });
    await h.fund(early.userId, 1_000);
    expect(body(await h.repay(early.token, earlyId, yen(100_494)))).toMatchObject({
      code: 1613,
      msg: 'The amount is more than you owe: ¥100,493',
    });
    expect(body(await h.repay(early.token, earlyId, yen(50_000)))).toMatchObject({
      code: 1614,
      msg: 'Repayment is a lump sum of everything owed: ¥100,493',
    });
    const answers = await Promise.all([
      h.repay(early.token, earlyId, yen(100_493)),
      h.repay(early.token, earlyId, yen(100_493)),
    ]);
    expect(answers.map((a) => body(a).code).sort()).toEqual([1, 1612]);
    expect((await userBalances(t.database.db, early.userId)).cash).toBe(yen(507));
    expect(await h.loanOf(early.token, earlyId)).toMatchObject({
      status: 'repaid',
      amount_to_repay: 0,
      repaid_amount: yen(100_493),
    });
    // the repayment wrote today's row: the rows are what was repaid
    const [sum] = await t.database.db
      .select({ interest: sql<string>`sum(${loanAccruals.interest})::text` })
      .from(loanAccruals)
      .where(eq(loanAccruals.loanId, earlyId));
    expect(sum?.interest).toBe(String(yen(493)));
    expect(await h.messageKinds(early.userId)).toContain('loan.repaid');
    expect(await ledgerHeadMismatches(t.database.db)).toEqual([]);
  });

  it('reminds three days before the due date, then marks the loan overdue and refuses a new application', async () => {
    await moveTo('2026-12-21T01:00:00Z');
    await runLoanAccrual(t.database.db, t.clock);
    expect(await h.messageKinds(late.userId)).toContain('loan.due_soon');
    expect(await h.messageKinds(late.userId)).not.toContain('loan.overdue');
    await moveTo('2026-12-25T01:00:00Z');
    await runLoanAccrual(t.database.db, t.clock);
    expect((await h.loanOf(late.token, lateId)).status).toBe('overdue');
    expect(await h.messageKinds(late.userId)).toContain('loan.overdue');
    expect(body(await h.apply(late.token)).code).toBe(1604);
  });

  it('keeps the cash an overdue loan owes from being withdrawn (the withdrawal rule), through POST /api/withdrawals', async () => {
    const owed = (await h.loanOf(late.token, lateId)).amount_to_repay;
    // a verified user with a transaction password and an approved bank account in their own name
    const txn = await h.post(
      '/api/user/setTxnPassword',
      { login_password: late.password, new_password: '246810', confirm_password: '246810' },
      { token: late.token },
    );
    expect(body(txn).code, txn.body).toBe(1);
    const account = await h.post(
      '/api/bank-accounts',
      {
        holder_name: 'ヤマダ タロウ',
        account_number: '7654321',
        bank_code: '0001',
        branch_code: '100',
        login_password: late.password,
      },
      { token: late.token },
    );
    const accountId = body<{ id: number }>(account).data.id;
    // a fresh reviewer's session: the moved clock ended the first one's
    const checker = await h.operator();
    expect((await h.post(`/api/console/bank-accounts/${accountId}/approve`, {}, checker)).statusCode).toBe(
      200,
    );
    // cash: what the loan owes (still to be repaid: the disbursement was spent) plus ¥10,000
    const cash = (await userBalances(t.database.db, late.userId)).cash;
    await h.fund(late.userId, (owed + yen(10_000) - cash) / 100);
    const withdraw = (amount: number) =>
      h.post(
        '/api/withdrawals?lang=en',
        { amount, bank_account_id: accountId, txn_password: '246810' },
        { token: late.token, 'idempotency-key': randomUUID() },
      );
    const blocked = body(await withdraw(yen(10_001)));
    expect(blocked.code).toBe(1616);
    expect(blocked.msg).toContain('¥10,000');
    expect((await userBalances(t.database.db, late.userId)).cash).toBe(owed + yen(10_000));
    expect(body(await withdraw(yen(10_000))).code).toBe(1);
    expect((await userBalances(t.database.db, late.userId)).cash).toBe(owed);
    expect(body(await withdraw(yen(10_000))).code).toBe(1616);

    // the rule's function, also for a user with no overdue loan, who is not restricted by loans
    const now = t.clock.now();
    await expect(
      requireWithdrawableWithLoans(t.database.db, late.userId, sen(1), owed, now, 'en'),
    ).rejects.toMatchObject({ errorName: 'LOAN_WITHDRAWAL_BLOCKED' });
    await expect(
      requireWithdrawableWithLoans(t.database.db, early.userId, yen(500), yen(500), now, 'en'),
    ).resolves.toBeUndefined();
    expect(await ledgerHeadMismatches(t.database.db)).toEqual([]);
  });

  it('charges late charges from the 7th day after the due date, and passes the claim to collection at 30 days', async () => {
    await moveTo('2026-12-31T01:00:00Z');
    await runLoanAccrual(t.database.db, t.clock);
    const [row] = await t.database.db.select().from(loans).where(eq(loans.id, lateId));
    if (!row) throw new Error('the loan is gone');
    const terms = termsOf(row);
    const [day6] = await t.database.db
      .select()
      .from(loanAccruals)
      .where(and(eq(loanAccruals.loanId, lateId), eq(loanAccruals.day, '2026-12-30')));
    expect(day6?.lateCharge).toBe(0);
    // the records include today (12-31: the 7th day after the due date): the first late charge
    expect((await h.loanOf(late.token, lateId)).late_charges).toBe(yen(54));
    await moveTo('2027-01-22T01:00:00Z');
    await runLoanAccrual(t.database.db, t.clock);
    expect((await h.loanOf(late.token, lateId)).status).toBe('overdue');
    await moveTo('2027-01-23T01:00:00Z');
    await runLoanAccrual(t.database.db, t.clock);
    expect((await h.loanOf(late.token, lateId)).status).toBe('collection');
    expect(await h.messageKinds(late.userId)).toContain('loan.collection');
    // repaying after the due date: principal, 36 days of interest and the late charges from day 7
    const expected = chargesThrough(terms, '2027-01-23');
    expect(expected.interest_yen).toBe(1775); // 100,000 × 18% × 36 / 365 = 1,775.3
    const owed = yen(100_000 + expected.interest_yen + expected.late_yen);
    expect((await h.loanOf(late.token, lateId)).amount_to_repay).toBe(owed);
    await h.fund(late.userId, 10_000);
    expect(body(await h.repay(late.token, lateId, owed)).code).toBe(1);
    expect((await h.loanOf(late.token, lateId)).status).toBe('repaid');
    const [sum] = await t.database.db
      .select({
        interest: sql<string>`sum(${loanAccruals.interest})::text`,
        late: sql<string>`sum(${loanAccruals.lateCharge})::text`,
      })
      .from(loanAccruals)
      .where(eq(loanAccruals.loanId, lateId));
    expect(sum).toEqual({
      interest: String(yen(expected.interest_yen)),
      late: String(yen(expected.late_yen)),
    });
    expect(await ledgerHeadMismatches(t.database.db)).toEqual([]);
  });
});
