import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  TDividendAnnouncement,
  TDividendsView,
  TLedgerMovement,
  TOrder,
  TPosition,
} from '@kabuto/contract';
import { brokerageAccounts, operators } from '../../db/schema.js';
import { hashPassword } from '../../lib/passwords.js';
import { body, createTestApp, registerAndLogin, type TestApp } from '../../test/harness.js';
import { TestMarket } from '../../test/test-market.js';
import { hasRun } from '../jobs/run-once.js';
import { ledgerHeadMismatches } from '../ledger/ledger.js';
import { adjustmentOf, businessDaysUntil, dividendDates } from './dates.js';
import { DIVIDEND_JOB, runDividendJob } from './dividends.js';

/**
 * Dividends (issue 17, ADR 0027) as named scenarios with a fixed clock. Toyota (7203) announces ¥37.50 a
 * share for the record date Mon 2026-11-30: the cum date is Thu 26 (two business days before), the ex date
 * Fri 27, payment Tue 2026-12-15. 100 shares: gross ¥3,750, income tax floor(3,750 × 15.315%) = ¥574,
 * local tax floor(3,750 × 5%) = ¥187, net ¥2,989.
 */
let t: TestApp;
let market: TestMarket;
/** The administrator's console session, signed in again for each call (the clock moves past its life). */
async function adminHeaders() {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/console/login',
    payload: { username: 'divadmin', password: 'operator-password-1' },
  });
  return { authorization: `Bearer ${body<{ token: string }>(res).data.token}` };
}
beforeAll(async () => {
  t = await createTestApp({ DEMO_MODE: 'true', DEMO_CASH_YEN: '10000000' }, undefined, {
    market: (clock) => (market = new TestMarket(clock)),
  });
  await t.database.db.insert(operators).values({
    username: 'divadmin',
    displayName: 'Dividends',
    passwordHash: await hashPassword('operator-password-1'),
    role: 'administrator',
    mustChangePassword: false,
  });
  market.set('7203', 3100);
});
afterAll(() => t.close());

const TOKYO = (date: string, hhmm: string) => new Date(`${date}T${hhmm}:00+09:00`).toISOString();
type User = { phone: string; password: string; userId: number };

async function login(u: User): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { account: u.phone, password: u.password, agree: true },
  });
  return body<{ token: string }>(res).data.token;
}
async function order(u: User, extra: object = {}) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/trade/placeOrder?lang=en',
    headers: { token: await login(u), 'idempotency-key': randomUUID() },
    payload: { code: '7203', direction: 'long', price_type: 'market', quantity: 100, leverage: 1, ...extra },
  });
  const answer = body<TOrder>(res);
  expect(answer.code, res.body).toBe(1);
  return answer.data;
}
async function sellAll(u: User) {
  const token = await login(u);
  const list = body<TPosition[]>(
    await t.app.inject({ url: '/api/trade/positions?status=holding', headers: { token } }),
  ).data;
  for (const p of list) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/trade/closePosition?lang=en',
      headers: { token, 'idempotency-key': randomUUID() },
      payload: { position_id: p.id, price_type: 'market', quantity: p.quantity },
    });
    expect(body(res).code, res.body).toBe(1);
  }
}
async function view(u: User) {
  const res = await t.app.inject({ url: '/api/dividends?lang=en', headers: { token: await login(u) } });
  expect(body(res).code, res.body).toBe(1);
  return body<TDividendsView>(res).data;
}
async function announce(payload: object) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/console/dividends?lang=en',
    headers: await adminHeaders(),
    payload,
  });
  return body<TDividendAnnouncement>(res);
}
async function nisaCustomer() {
  const u = await registerAndLogin(t);
  await t.database.db
    .update(brokerageAccounts)
    .set({ nisaOpenedAt: t.clock.now(), defaultTaxAccount: 'nisa' })
    .where(eq(brokerageAccounts.userId, u.userId));
  return u;
}

describe('dividend dates on the exchange calendar', () => {
  it('puts the cum date two business days before the record date and the ex date the next business day', () => {
    expect(dividendDates('2026-11-30')).toEqual({ cumDate: '2026-11-26', exDate: '2026-11-27' });
    // A record date on a Sunday counts from the Friday before; Mon 23 Nov is a holiday.
    expect(dividendDates('2026-11-29')).toEqual({ cumDate: '2026-11-25', exDate: '2026-11-26' });
    expect(dividendDates('2026-11-26')).toEqual({ cumDate: '2026-11-24', exDate: '2026-11-25' });
    expect(dividendDates('2026-11-25')).toEqual({ cumDate: '2026-11-20', exDate: '2026-11-24' });
    expect(businessDaysUntil('2026-11-24', '2026-11-26')).toBe(2);
    expect(businessDaysUntil('2026-11-26', '2026-11-26')).toBe(0);
    expect(businessDaysUntil('2026-11-27', '2026-11-26')).toBeNull();
  });

  it('settles margin adjustments: longs receive and 制度信用 shorts pay 84.685%, 一般信用 shorts the full dividend', () => {
    expect(adjustmentOf(375_000, 'long', 'standard', 15_315)).toBe(317_569);
    expect(adjustmentOf(375_000, 'short', 'standard', 15_315)).toBe(-317_569);
    expect(adjustmentOf(375_000, 'short', 'general', 15_315)).toBe(-375_000);
  });
});

describe('a dividend from announcement to payment', () => {
  it('refuses a past cum date, a payment before the record date, a duplicate and an unknown stock', async () => {
    t.clock.set(TOKYO('2026-11-24', '10:00'));
    const base = { code: '7203', per_share: 3750, record_date: '2026-11-25', payment_date: '2026-12-15' };
    expect((await announce(base)).code).toBe(1571);
    expect((await announce({ ...base, record_date: '2026-12-01', payment_date: '2026-12-01' })).code).toBe(
      1572,
    );
    expect((await announce({ ...base, code: '0000', record_date: '2026-12-01' })).code).toBe(1559);
    expect((await announce({ ...base, per_share: 0, record_date: '2026-12-01' })).code).toBe(400);
  });

  it('pays holders at the end of the cum date, withheld, once; margin positions settle the adjustment', async () => {
    t.clock.set(TOKYO('2026-11-24', '10:00'));
    const announced = await announce({
      code: '7203',
      per_share: 3750,
      record_date: '2026-11-30',
      payment_date: '2026-12-15',
    });
    expect(announced.code, JSON.stringify(announced)).toBe(1);
    expect(announced.data).toMatchObject({
      cum_date: '2026-11-26',
      ex_date: '2026-11-27',
      status: 'announced',
    });
    expect(
      (
        await announce({
          code: '7203',
          per_share: 100,
          record_date: '2026-11-30',
          payment_date: '2026-12-20',
        })
      ).code,
    ).toBe(1573);

    const seller = await registerAndLogin(t); // holds before, sells on the ex date: receives
    const cumBuyer = await registerAndLogin(t); // buys on the cum date: receives
    const exBuyer = await registerAndLogin(t); // buys on the ex date: does not
    const nisa = await nisaCustomer(); // NISA: no withholding
    const long = await registerAndLogin(t); // 制度信用 long: receives the adjustment
    const short = await registerAndLogin(t); // 制度信用 short: pays it
    const generalShort = await registerAndLogin(t); // 一般信用 short: pays the full dividend
    const watcher = await registerAndLogin(t);
    await order(seller, { quantity: 200 });
    await order(nisa);
    await t.app.inject({
      method: 'POST',
      url: '/api/watchlist/add',
      headers: { token: await login(watcher) },
      payload: { code: '7203' },
    });

    t.clock.set(TOKYO('2026-11-26', '10:00'));
    await order(cumBuyer);
    await order(long, { quantity: 200, leverage: 2, margin_type: 'standard' });
    await order(short, { direction: 'short', quantity: 200, leverage: 2, margin_type: 'standard' });
    await order(generalShort, { direction: 'short', quantity: 200, leverage: 2, margin_type: 'general' });
    const upcoming = (await view(cumBuyer)).upcoming;
    expect(upcoming).toEqual([
      expect.objectContaining({
        code: '7203',
        reason: 'holding',
        quantity: 100,
        days_to_cum: 0,
        expected_gross: 375_000,
      }),
    ]);

    t.clock.set(TOKYO('2026-11-27', '10:00'));
    await sellAll(seller);
    await order(exBuyer);

    // Not yet the payment date: nothing is paid.
    t.clock.set(TOKYO('2026-12-14', '23:59'));
    await runDividendJob(t.database.db, t.clock.now());
    expect((await view(seller)).history).toEqual([]);

    t.clock.set(TOKYO('2026-12-15', '00:05'));
    await Promise.all([
      runDividendJob(t.database.db, t.clock.now()),
      runDividendJob(t.database.db, t.clock.now()),
    ]);
    await runDividendJob(t.database.db, t.clock.now());
    expect(await hasRun(t.database.db, DIVIDEND_JOB, `announcement:${announced.data.id}`)).toBe(true);

    const history = async (u: User) => (await view(u)).history;
    expect(await history(seller)).toEqual([
      expect.objectContaining({
        kind: 'dividend',
        tax_account: 'specific',
        quantity: 200,
        gross: 750_000,
        tax_national: 114_800, // floor(7,500 × 15.315%) = ¥1,148
        tax_local: 37_500,
        net: 750_000 - 114_800 - 37_500,
      }),
    ]);
    expect(await history(cumBuyer)).toEqual([
      expect.objectContaining({
        quantity: 100,
        gross: 375_000,
        tax_national: 57_400,
        tax_local: 18_700,
        net: 298_900,
      }),
    ]);
    expect(await history(exBuyer)).toEqual([]);
    expect(await history(nisa)).toEqual([
      expect.objectContaining({
        tax_account: 'nisa',
        gross: 375_000,
        tax_national: 0,
        tax_local: 0,
        net: 375_000,
      }),
    ]);
    expect(await history(long)).toEqual([
      expect.objectContaining({ kind: 'adjustment_receive', quantity: 200, net: 635_138, tax_national: 0 }),
    ]);
    expect(await history(short)).toEqual([
      expect.objectContaining({ kind: 'adjustment_pay', net: -635_138 }),
    ]);
    expect(await history(generalShort)).toEqual([
      expect.objectContaining({ kind: 'adjustment_pay', net: -750_000 }),
    ]);
    expect(await history(watcher)).toEqual([]);
    expect((await view(watcher)).upcoming).toEqual([]);

    // The transaction log shows the credit.
    const movements = body<{ items: TLedgerMovement[] }>(
      await t.app.inject({
        url: '/api/ledger/movements?limit=50',
        headers: { token: await login(cumBuyer) },
      }),
    ).data.items;
    expect(movements.find((m) => m.kind === 'dividend')).toMatchObject({ cash: 298_900 });
    expect(await ledgerHeadMismatches(t.database.db)).toEqual([]);
  });

  it('lists upcoming dividends of watched stocks, and answers 401 without a session', async () => {
    t.clock.set(TOKYO('2026-12-16', '10:00'));
    const watcher = await registerAndLogin(t);
    await t.app.inject({
      method: 'POST',
      url: '/api/watchlist/add',
      headers: { token: await login(watcher) },
      payload: { code: '7203' },
    });
    expect(
      (
        await announce({
          code: '7203',
          per_share: 5000,
          record_date: '2027-03-31',
          payment_date: '2027-06-20',
        })
      ).code,
    ).toBe(1);
    expect((await view(watcher)).upcoming).toEqual([
      expect.objectContaining({
        reason: 'watchlist',
        quantity: 0,
        cum_date: '2027-03-29',
        ex_date: '2027-03-30',
      }),
    ]);
    expect((await t.app.inject({ url: '/api/dividends' })).statusCode).toBe(401);
  });
});
