import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TProductDetail, TProductRecord } from '@kabuto/contract';
import { operators } from '../../db/schema.js';
import { hashPassword } from '../../lib/passwords.js';
import { body, createTestApp, registerAndLogin, type TestApp } from '../../test/harness.js';
import { TestMarket } from '../../test/test-market.js';
import { hasRun } from '../jobs/run-once.js';
import { ledgerHeadMismatches } from '../ledger/ledger.js';
import { NAV_JOB, runNavJob } from './nav-job.js';
import { daysBetween, navDateFor, strikeNav, unitsFor, valueOf } from './nav.js';

/**
 * Follow-up products (issue 17, ADR 0027) as named scenarios with a fixed clock and hand-set prices. The
 * week: Mon 2026-11-23 is 勤労感謝の日 (a holiday), Tue 24 to Fri 27 business days, then the weekend.
 * Two constituents: Toyota (7203) 60% and Sony (6758) 40%; the fee 0.365% a year, so 0.001% a day.
 */
let t: TestApp;
let market: TestMarket;
let admin: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp({ DEMO_MODE: 'true', DEMO_CASH_YEN: '1000000' }, undefined, {
    market: (clock) => (market = new TestMarket(clock)),
  });
  await t.database.db.insert(operators).values({
    username: 'prodadmin',
    displayName: 'Products',
    passwordHash: await hashPassword('operator-password-1'),
    role: 'administrator',
    mustChangePassword: false,
  });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/console/login',
    payload: { username: 'prodadmin', password: 'operator-password-1' },
  });
  admin = { authorization: `Bearer ${body<{ token: string }>(res).data.token}` };
});
afterAll(() => t.close());

/** Tokyo wall-clock instants as UTC ISO strings. */
const TOKYO = (date: string, hhmm: string) => new Date(`${date}T${hhmm}:00+09:00`).toISOString();

function prices(toyota: number, sony: number) {
  market.set('7203', toyota);
  market.set('6758', sony);
}

const PRODUCT = {
  issuer: 'Kabuto Asset Management',
  name: 'Test basket',
  strategy: 'Toyota and Sony, 60/40, rebalanced at every close.',
  risk_disclosure: 'The value moves with the market; you may lose money.',
  constituents: [
    { code: '7203', weight_bp: 6000 },
    { code: '6758', weight_bp: 4000 },
  ],
  fund_cap: 50_000_000, // ¥500,000
  deadline: '2026-12-31',
  min_investment: 10_000, // ¥100
  management_rate_ppm: 3650,
};

async function publish(extra: object = {}) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/console/products?lang=en',
    headers: admin,
    payload: { ...PRODUCT, ...extra },
  });
  return body<TProductDetail>(res);
}

type User = { phone: string; password: string };
/** Signs in again (the fixed clock moves past a session's life between steps); answers the token. */
async function login(u: User): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { account: u.phone, password: u.password, agree: true },
  });
  return body<{ token: string }>(res).data.token;
}

async function post<T>(u: User, url: string, payload: object = {}) {
  const token = await login(u);
  const res = await t.app.inject({
    method: 'POST',
    url: `${url}?lang=en`,
    payload,
    headers: { token, 'idempotency-key': randomUUID() },
  });
  return body<T>(res);
}
const buy = (u: User, id: number, amount: string, ack = true) =>
  post<TProductRecord>(u, `/api/products/${id}/buy`, { amount, acknowledge_risk: ack });
async function records(u: User) {
  const res = await t.app.inject({ url: '/api/products/records', headers: { token: await login(u) } });
  expect(body(res).code, res.body).toBe(1);
  return body<{ items: TProductRecord[] }>(res).data.items;
}
async function cash(u: User) {
  const res = await t.app.inject({ url: '/api/index/getUserInfo', headers: { token: await login(u) } });
  return body<{ available_balance: number }>(res).data.available_balance;
}
const detail = async (id: number) =>
  body<TProductDetail>(await t.app.inject({ url: `/api/products/${id}` })).data;

async function pass(at: string) {
  t.clock.set(at);
  return runNavJob(t.database.db, market, t.clock.now());
}

describe('the written rules', () => {
  it('strikes a NAV from the weighted price ratios, net of the fee of the calendar days between', () => {
    // +10% on 60%, −5% on 40%: growth 1.04; 3 days of 0.365%/365: × (1 − 0.00003)
    const nav = strikeNav({
      prevNav: 1_000_000,
      constituents: PRODUCT.constituents,
      prevCloses: { '7203': 300_000, '6758': 400_000 },
      closes: { '7203': 330_000, '6758': 380_000 },
      feePpm: 3650,
      days: 3,
    });
    expect(nav).toBe(Math.round(1_000_000 * 1.04 * (1 - 0.00003))); // 1,039,968.8 → 1,039,969
    expect(daysBetween('2026-11-27', '2026-11-30')).toBe(3);
  });

  it('buys whole units, floored, at a cost floored to the sen; the rest goes back', () => {
    // ¥10,000.55 at NAV ¥10,399.69 per 10,000 units: 9,616 units costing ¥10,000.26
    expect(unitsFor(1_000_055, 1_039_969)).toEqual({ units: 9616, cost: 1_000_034, refund: 21 });
    expect(valueOf(9616, 1_039_969)).toBe(1_000_035);
  });

  it('prices an order before the 15:30 cutoff at that day, after it (or on a holiday) at the next business day', () => {
    expect(navDateFor(new Date(TOKYO('2026-11-24', '15:29')))).toBe('2026-11-24');
    expect(navDateFor(new Date(TOKYO('2026-11-24', '15:30')))).toBe('2026-11-25');
    expect(navDateFor(new Date(TOKYO('2026-11-27', '16:00')))).toBe('2026-11-30');
    expect(navDateFor(new Date(TOKYO('2026-11-23', '10:00')))).toBe('2026-11-24');
  });
});

describe('a product from publication to redemption', () => {
  beforeEach(() => {
    prices(3000, 4000);
  });

  it('refuses a portfolio whose weights do not sum to 100%, an unknown stock and a past deadline', async () => {
    t.clock.set(TOKYO('2026-11-24', '10:00'));
    const bad = await publish({ constituents: [{ code: '7203', weight_bp: 6000 }] });
    expect(bad.code).toBe(400);
    expect(JSON.stringify(bad.data)).toContain('The weights must sum to exactly 100%');
    expect((await publish({ constituents: [{ code: '0000', weight_bp: 10_000 }] })).code).toBe(1559);
    expect((await publish({ deadline: '2026-11-23' })).code).toBe(1560);
  });

  it('strikes the NAV over a holiday and a weekend, prices buys by the cutoff, and derives earnings', async () => {
    // Published Mon 23 (a holiday): the base NAV ¥10,000 is dated Fri 20, from today's prices.
    t.clock.set(TOKYO('2026-11-23', '12:00'));
    const published = await publish();
    expect(published.code, JSON.stringify(published)).toBe(1);
    const id = published.data.id;
    expect(published.data.history).toEqual([{ date: '2026-11-20', nav: 1_000_000 }]);

    const u = await registerAndLogin(t);
    // No acknowledgement, three decimals, below the minimum, above the cap, above the cash.
    expect((await buy(u, id, '10000', false)).code).toBe(1555);
    const decimals = await buy(u, id, '100.555');
    expect(decimals.code).toBe(400);
    expect(JSON.stringify(decimals.data)).toContain('The purchase price can only have two decimal places');
    expect((await buy(u, id, '99.99')).code).toBe(1554);
    expect((await buy(u, id, '-5')).code).toBe(400);
    expect((await buy(u, id, '0')).code).toBe(1554);
    expect((await buy(u, id, '500000.01')).msg).toContain('¥500,000');
    expect((await buy(u, id, '500000.01')).code).toBe(1553);
    expect(await records(u)).toEqual([]);

    // Tue 24 10:00, before the cutoff: priced at Tuesday's NAV.
    t.clock.set(TOKYO('2026-11-24', '10:00'));
    const first = await buy(u, id, '100000.50');
    expect(first.code, JSON.stringify(first)).toBe(1);
    expect(first.data).toMatchObject({ status: 'pending', amount: 10_000_050, buy_nav_date: '2026-11-24' });
    expect(await cash(u)).toBe(100_000_000 - 10_000_050);
    // Selling a pending record is refused.
    expect((await post(u, `/api/products/records/${first.data.id}/sell`)).code).toBe(1557);

    // Tue 24 16:00, after the cutoff: priced at Wednesday's NAV.
    t.clock.set(TOKYO('2026-11-24', '16:00'));
    const second = await buy(u, id, '50000');
    expect(second.data.buy_nav_date).toBe('2026-11-25');

    // Tuesday's close: Toyota +10%, Sony −5%. The strike covers Fri 20 → Tue 24: 4 days of fee.
    prices(3300, 3800);
    await pass(TOKYO('2026-11-24', '15:30'));
    const nav24 = Math.round(1_000_000 * 1.04 * (1 - (3650 * 4) / 365e6));
    expect((await detail(id)).history.at(-1)).toEqual({ date: '2026-11-24', nav: nav24 });
    const bought = unitsFor(10_000_050, nav24);
    const [, firstRecord] = await records(u);
    expect(firstRecord).toMatchObject({
      status: 'following',
      units: bought.units,
      cost: bought.cost,
      buy_nav: nav24,
      yesterday_earnings: null,
      total_profit: valueOf(bought.units, nav24) - bought.cost,
    });
    expect(await cash(u)).toBe(100_000_000 - 10_000_050 - 5_000_000 + bought.refund);

    // The job run again (another pass, another process) changes nothing.
    await pass(TOKYO('2026-11-24', '15:45'));
    expect((await detail(id)).history).toHaveLength(2);

    // Wednesday: Toyota flat, Sony +5%: growth 0.6 + 0.4 × 3990/3800; one day of fee.
    prices(3300, 3990);
    await pass(TOKYO('2026-11-25', '15:30'));
    const nav25 = Math.round(nav24 * (0.6 + (0.4 * 3990) / 3800) * (1 - 3650 / 365e6));
    expect((await detail(id)).nav).toBe(nav25);
    const [secondRecord, again] = await records(u);
    expect(secondRecord).toMatchObject({ status: 'following', buy_nav: nav25 });
    // Yesterday's earnings = units × (NAV yesterday − NAV the day before); total profit = value − cost.
    expect(again?.yesterday_earnings).toBe(valueOf(bought.units, nav25) - valueOf(bought.units, nav24));
    expect(again?.total_profit).toBe(valueOf(bought.units, nav25) - bought.cost);
    expect(secondRecord?.yesterday_earnings).toBeNull();

    // Sell the first record (Thursday before the cutoff): redeeming, then ended at Thursday's NAV.
    t.clock.set(TOKYO('2026-11-26', '11:00'));
    const sold = await post<TProductRecord>(u, `/api/products/records/${first.data.id}/sell`);
    expect(sold.data).toMatchObject({ status: 'redeeming', sell_nav_date: '2026-11-26' });
    expect((await post(u, `/api/products/records/${first.data.id}/sell`)).code).toBe(1558);
    const before = await cash(u);
    prices(3000, 3990);
    await pass(TOKYO('2026-11-26', '15:30'));
    const nav26 = Math.round(nav25 * (0.6 * (3000 / 3300) + 0.4) * (1 - 3650 / 365e6));
    const ended = (await records(u)).find((r) => r.id === first.data.id);
    const proceeds = valueOf(bought.units, nav26);
    expect(ended).toMatchObject({
      status: 'ended',
      sell_nav: nav26,
      proceeds,
      total_profit: proceeds - bought.cost,
    });
    expect(ended?.ended_at).toBe(new Date(TOKYO('2026-11-26', '15:30')).toISOString());
    expect(await cash(u)).toBe(before + proceeds);
    expect((await post(u, `/api/products/records/${first.data.id}/sell`)).code).toBe(1558);

    // Over the weekend: Friday's strike, then Monday's with 3 days of fee.
    await pass(TOKYO('2026-11-27', '15:30'));
    prices(3000, 3990);
    await pass(TOKYO('2026-11-30', '15:31'));
    const history = (await detail(id)).history;
    const nav27 = history.find((h) => h.date === '2026-11-27')?.nav ?? 0;
    expect(history.find((h) => h.date === '2026-11-30')?.nav).toBe(
      Math.round(nav27 * (1 - (3 * 3650) / 365e6)),
    );
    expect(history.map((h) => h.date)).not.toContain('2026-11-28');
    expect(await hasRun(t.database.db, NAV_JOB, '2026-11-30')).toBe(true);
    expect(await ledgerHeadMismatches(t.database.db)).toEqual([]);
  });

  it('refuses applications after the deadline, and users reach only their own records', async () => {
    t.clock.set(TOKYO('2026-11-24', '10:00'));
    const { data } = await publish({ deadline: '2026-11-24', name: 'Short window' });
    const u = await registerAndLogin(t);
    const other = await registerAndLogin(t);
    const mine = await buy(u, data.id, '1000');
    expect(mine.code).toBe(1);
    expect((await post(other, `/api/products/records/${mine.data.id}/sell`)).code).toBe(1556);
    expect(await records(other)).toEqual([]);
    t.clock.set(TOKYO('2026-11-25', '09:00'));
    expect((await buy(u, data.id, '1000')).code).toBe(1552);
    expect((await buy(u, 999_999, '1000')).code).toBe(1551);
    const anonymous = await t.app.inject({
      method: 'POST',
      url: `/api/products/${data.id}/buy`,
      payload: {},
    });
    expect(anonymous.statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/products/records' })).statusCode).toBe(401);
  });

  it('settles records in batches on two transactions at once, each once, a holder in several batches', async () => {
    t.clock.set(TOKYO('2026-12-02', '10:00'));
    const { data } = await t.app
      .inject({ url: '/api/products' })
      .then((r) => body<{ items: TProductDetail[] }>(r));
    const product = data.items.find((p) => p.name === 'Test basket');
    if (!product) throw new Error('no Test basket');
    const u = await registerAndLogin(t);
    const v = await registerAndLogin(t);
    for (const [who, n] of [
      [u, 3],
      [v, 2],
    ] as const) {
      for (let i = 0; i < n; i++) expect((await buy(who, product.id, '1000')).code).toBe(1);
    }
    t.clock.set(TOKYO('2026-12-02', '16:00'));
    const now = t.clock.now();
    // batches of one record: the two workers of each pass take u's records in different transactions
    const [a, b] = await Promise.all([
      runNavJob(t.database.db, market, now, { batchSize: 1 }),
      runNavJob(t.database.db, market, now, { batchSize: 1 }),
    ]);
    expect(await runNavJob(t.database.db, market, now, { batchSize: 1 })).toEqual([]);
    const settled = [...a, ...b].filter((e) => JSON.stringify(e).includes('product.following'));
    expect(settled).toHaveLength(5);
    for (const [who, n] of [
      [u, 3],
      [v, 2],
    ] as const) {
      const mine = await records(who);
      expect(mine).toHaveLength(n);
      expect(mine.every((r) => r.status === 'following')).toBe(true);
    }
    expect(await ledgerHeadMismatches(t.database.db)).toEqual([]);
  });

  it('two concurrent passes strike a date exactly once', async () => {
    t.clock.set(TOKYO('2026-12-01', '16:00'));
    const results = await Promise.all(
      Array.from({ length: 4 }, () => runNavJob(t.database.db, market, t.clock.now())),
    );
    expect(results).toHaveLength(4);
    const { data } = await t.app
      .inject({ url: '/api/products' })
      .then((r) => body<{ items: TProductDetail[] }>(r));
    for (const p of data.items) {
      const history = (await detail(p.id)).history.filter((h) => h.date === '2026-12-01');
      expect(history).toHaveLength(1);
    }
  });
});
