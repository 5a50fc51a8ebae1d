import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type {
  TLedgerMovement,
  TNisaQuota,
  TOrder,
  TPosition,
  TTaxReport,
  TTaxSummary,
  TaxAccount,
} from '@kabuto/contract';
import { DEFAULT_TAX_SETTINGS } from '@kabuto/contract';
import { brokerageAccounts, settings } from '../../db/schema.js';
import { body, createTestApp, registerAndLogin, TEST_NOW, type TestApp } from '../../test/harness.js';
import { TestMarket } from '../../test/test-market.js';
import { ledgerHeadMismatches } from '../ledger/ledger.js';

/**
 * Tax accounts, withholding and NISA (ADR 0021), as named scenarios with a fixed clock (Tuesday 2026-11-24,
 * 10:00 Tokyo) and hand-set prices: Toyota (7203, ¥1 tick) with bid and ask a yen around the last price,
 * previous close ¥3,100 (limits ¥2,400 to ¥3,800). The fee is 0.1% of the principal, rounded down to the
 * yen. Amounts on the wire are sen.
 */
let t: TestApp;
let market: TestMarket;
beforeAll(async () => {
  t = await createTestApp({ DEMO_MODE: 'true', DEMO_CASH_YEN: '10000000', FEE_BP: '10' }, undefined, {
    market: (clock) => (market = new TestMarket(clock)),
  });
});
afterAll(() => t.close());
beforeEach(() => {
  t.clock.set(TEST_NOW);
  market.set('7203', 3100, { prevCloseYen: 3100 });
});

const Y = (yen: number) => yen * 100;
/** 2027-01-05 (a Tuesday) 10:00 in Tokyo: the next tax year, in session. */
const NEXT_YEAR = '2027-01-05T01:00:00.000Z';

/** A customer with a brokerage account: 特定口座 (with or without withholding, or none), NISA or not. */
async function customer(
  options: {
    specific?: 'withholding' | 'no_withholding' | 'none';
    nisa?: boolean;
    default?: TaxAccount;
  } = {},
) {
  const u = await registerAndLogin(t);
  // registerAndLogin opens the account through the review (特定口座 源泉徴収あり): the scenario's choices replace it
  const account = {
    specificAccount: options.specific ?? 'withholding',
    nisaOpenedAt: options.nisa ? t.clock.now() : null,
    defaultTaxAccount: options.default ?? 'specific',
    openedAt: t.clock.now(),
  };
  await t.database.db
    .insert(brokerageAccounts)
    .values({ userId: u.userId, ...account })
    .onConflictDoUpdate({ target: brokerageAccounts.userId, set: account });
  return u;
}

/** Signs in again (after the clock moved past the session's life); answers the new token. */
async function login(u: { phone: string; password: string }): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { account: u.phone, password: u.password, agree: true },
  });
  return body<{ token: string }>(res).data.token;
}

async function post<T>(token: string, url: string, payload: object) {
  const res = await t.app.inject({
    method: 'POST',
    url: `${url}?lang=en`,
    payload,
    headers: { token, 'idempotency-key': randomUUID() },
  });
  return body<T>(res);
}
async function get<T>(token: string | undefined, url: string) {
  return t.app.inject({ url, headers: token === undefined ? {} : { token } }).then((r) => body<T>(r));
}
const buy = (token: string, extra: object = {}) =>
  post<TOrder>(token, '/api/trade/placeOrder', {
    code: '7203',
    direction: 'long',
    price_type: 'market',
    quantity: 100,
    leverage: 1,
    ...extra,
  });
const sell = (token: string, positionId: number | undefined, quantity: number) =>
  post<TOrder>(token, '/api/trade/closePosition', {
    position_id: positionId,
    price_type: 'market',
    quantity,
  });
const holdings = async (token: string) =>
  (await get<TPosition[]>(token, '/api/trade/positions?status=holding')).data;
const cash = async (token: string) =>
  (await get<{ available_balance: number }>(token, '/api/index/getUserInfo')).data.available_balance;
const report = async (token: string, year: number, account: TaxAccount = 'specific') =>
  (await get<TTaxReport>(token, `/api/tax/report?year=${year}&account=${account}`)).data;
const quota = async (token: string) => (await get<TNisaQuota>(token, '/api/tax/nisa')).data;
async function taxMovements(token: string) {
  const page = await get<{ items: TLedgerMovement[] }>(token, '/api/ledger/movements?limit=200');
  return page.data.items
    .filter((m) => m.kind === 'tax_withheld' || m.kind === 'tax_refund')
    .reverse()
    .map((m) => ({
      kind: m.kind,
      cash: m.cash,
      national: m.params?.['national'],
      local: m.params?.['local'],
    }));
}

describe('holdings at a moving-average cost', () => {
  it('adds a second purchase to the holding: the average moves, the sale realizes against the book value', async () => {
    const u = await customer();
    await buy(u.token); // 100 at ¥3,101: ¥310,100 + fee ¥310
    market.set('7203', 3300);
    await buy(u.token); // 100 at ¥3,301: ¥330,100 + fee ¥330
    const [holding, ...others] = await holdings(u.token);
    expect(others).toEqual([]);
    expect(holding).toMatchObject({
      quantity: 200,
      avg_price: Y(3201),
      book_value: Y(640_840),
      account: 'specific',
      margin_type: 'cash',
    });

    market.set('7203', 3400);
    await sell(u.token, holding?.id, 100); // at ¥3,399: ¥339,900 - fee ¥339
    const [left] = await holdings(u.token);
    expect(left).toMatchObject({ id: holding?.id, quantity: 100, book_value: Y(320_420) });
    const r = await report(u.token, 2026);
    // cost: half the book value (¥320,420) plus the selling fee (¥339)
    expect(r.lines).toEqual([
      {
        code: '7203',
        name: expect.any(String) as string,
        date: '2026-11-24',
        margin_type: 'cash',
        quantity: 100,
        proceeds: Y(339_900),
        cost: Y(320_759),
        gain: Y(19_141),
      },
    ]);
    // 20.315% of ¥19,141: ¥2,931 (15.315%, floored) and ¥957 (5%, floored)
    expect(r.withheld).toEqual({ national: Y(2931), local: Y(957) });
    expect(await ledgerHeadMismatches(t.database.db, [u.userId])).toEqual([]);
  });

  it('keeps one holding per account: a NISA purchase of the same stock is a holding of its own', async () => {
    const u = await customer({ nisa: true });
    await buy(u.token);
    await buy(u.token, { account: 'nisa' });
    await buy(u.token);
    const list = await holdings(u.token);
    expect(list.map((p) => [p.account, p.quantity]).sort()).toEqual([
      ['nisa', 100],
      ['specific', 200],
    ]);
  });

  it('adds a waiting order to the holding when it fills', async () => {
    const u = await customer();
    await buy(u.token);
    const pending = await buy(u.token, { price_type: 'limit', price: Y(3000) });
    expect(pending.data.status).toBe('pending');
    market.set('7203', 2990);
    const { Matcher } = await import('../trading/matcher.js');
    expect(await new Matcher(t.app, 1000).pass()).toBe(1);
    const [holding, ...others] = await holdings(u.token);
    expect(others).toEqual([]);
    // 100 at ¥3,101 (fee ¥310) and 100 at ¥2,990.5 (a ¥0.5 tick below ¥3,000; fee ¥299)
    expect(holding).toMatchObject({ quantity: 200, avg_price: 304_575, book_value: Y(310_410 + 299_349) });
  });
});

describe('特定口座 with withholding: a year of gains and losses', () => {
  it('withholds as the net gain grows, refunds as losses offset it, and starts again on January 1', async () => {
    const u = await customer();
    const start = await cash(u.token);
    await buy(u.token, { quantity: 200 }); // ¥620,200 + fee ¥620: book ¥620,820
    const id = (await holdings(u.token))[0]?.id;

    market.set('7203', 3300);
    await sell(u.token, id, 100); // ¥329,900 - ¥329 - half the book ¥310,410: +¥19,161
    market.set('7203', 3100);
    await sell(u.token, id, 100); // ¥309,900 - ¥309 - ¥310,410: -¥819 (net ¥18,342)
    const b3 = await buy(u.token); // ¥310,100 + ¥310
    market.set('7203', 2600);
    await sell(u.token, b3.data.position_id ?? 0, 100); // at ¥2,599.5: ¥259,950 - ¥259 - ¥310,410: -¥50,719 (net -¥32,377)
    market.set('7203', 3100);
    const b4 = await buy(u.token);
    market.set('7203', 3500);
    await sell(u.token, b4.data.position_id ?? 0, 100); // ¥349,900 - ¥349 - ¥310,410: +¥39,141 (net ¥6,764)

    const n = (national: number, local: number) => ({ national: Y(national), local: Y(local) });
    expect(await taxMovements(u.token)).toEqual([
      // ¥19,161: ¥2,934 and ¥958 withheld
      { kind: 'tax_withheld', cash: -Y(3892), ...n(2934, 958) },
      // ¥18,342: ¥2,809 and ¥917 due, so ¥125 and ¥41 come back
      { kind: 'tax_refund', cash: Y(166), ...n(125, 41) },
      // a net loss: everything withheld comes back
      { kind: 'tax_refund', cash: Y(3726), ...n(2809, 917) },
      // ¥6,764: ¥1,035 and ¥338
      { kind: 'tax_withheld', cash: -Y(1373), ...n(1035, 338) },
    ]);
    const year = await report(u.token, 2026);
    expect(year.totals.gain).toBe(Y(6764));
    expect(year.withheld).toEqual(n(1035, 338));
    expect(year.lines.map((l) => l.gain)).toEqual([Y(19_161), Y(-819), Y(-50_719), Y(39_141)]);
    // cash: the trades' net and the tax, exact to the yen
    const trades = -620_820 + 329_571 + 309_591 - 310_410 + 259_691 - 310_410 + 349_551;
    expect(await cash(u.token)).toBe(start + Y(trades - 1035 - 338));

    // January 1 (Tokyo): a new year starts from zero, the last year's losses do not offset it
    t.clock.set(NEXT_YEAR);
    const token = await login(u);
    market.set('7203', 3100);
    const b5 = await buy(token);
    market.set('7203', 3300);
    await sell(token, b5.data.position_id ?? 0, 100); // +¥19,161 in 2027
    expect((await report(token, 2027)).withheld).toEqual(n(2934, 958));
    expect((await report(token, 2026)).withheld).toEqual(n(1035, 338));
    const summary = (await get<TTaxSummary>(token, '/api/tax/summary?year=2027')).data;
    expect(summary.accounts).toEqual([
      {
        account: 'specific',
        withholding: true,
        realized_gain: Y(19_161),
        withheld_national: Y(2934),
        withheld_local: Y(958),
      },
      { account: 'general', withholding: false, realized_gain: 0, withheld_national: 0, withheld_local: 0 },
    ]);
    expect(await ledgerHeadMismatches(t.database.db, [u.userId])).toEqual([]);
  });

  it('withholds nothing in 特定口座 without withholding, in the general account or in NISA', async () => {
    const a = await customer({ specific: 'no_withholding' });
    const b = await customer({ nisa: true });
    for (const [u, account] of [
      [a, 'specific'],
      [b, 'general'],
      [b, 'nisa'],
    ] as const) {
      market.set('7203', 3100);
      const order = await buy(u.token, { account });
      market.set('7203', 3300);
      await sell(u.token, order.data.position_id ?? 0, 100);
      expect((await report(u.token, 2026, account)).totals.gain).toBe(Y(19_161));
    }
    expect(await taxMovements(a.token)).toEqual([]);
    expect(await taxMovements(b.token)).toEqual([]);
  });

  it('realizes margin closes: long against the opening principal and both fees, short the other way', async () => {
    const u = await customer();
    const long = await buy(u.token, { leverage: 3, quantity: 300 }); // ¥930,300 + ¥930
    const short = await buy(u.token, { direction: 'short', leverage: 3, quantity: 300 }); // ¥929,700 + ¥929
    expect(long.data).toMatchObject({ account: 'specific', margin_type: 'standard' });
    market.set('7203', 3300);
    await sell(u.token, long.data.position_id ?? 0, 100); // a third, at ¥3,299: ¥329,900, fee ¥329
    await sell(u.token, long.data.position_id ?? 0, 200); // the rest: ¥659,800, fee ¥659
    await sell(u.token, short.data.position_id ?? 0, 300); // buys back at ¥3,301: ¥990,300, fee ¥990
    const r = await report(u.token, 2026);
    expect(r.lines.map((l) => [l.margin_type, l.proceeds, l.cost, l.gain])).toEqual([
      // the opening fee ¥930 shared: ¥310 for the third, the remaining ¥620 with the rest
      ['standard', Y(329_900), Y(310_100 + 310 + 329), Y(19_161)],
      ['standard', Y(659_800), Y(620_200 + 620 + 659), Y(38_321)],
      ['standard', Y(929_700), Y(990_300 + 929 + 990), Y(-62_519)],
    ]);
    // withheld as the two long closes gained, all refunded when the short's loss made the year a net loss
    expect(r.totals.gain).toBe(Y(-5037));
    expect(r.withheld).toEqual({ national: 0, local: 0 });
    const moves = await taxMovements(u.token);
    expect(moves.map((m) => m.kind)).toEqual(['tax_withheld', 'tax_withheld', 'tax_refund']);
    expect(moves.reduce((sum, m) => sum + m.cash, 0)).toBe(0);
  });
});

describe('which account an order goes to', () => {
  it("uses the customer's default, refuses an account not held, and keeps margin out of NISA", async () => {
    const nisaFirst = await customer({ nisa: true, default: 'nisa' });
    expect((await buy(nisaFirst.token)).data.account).toBe('nisa');
    expect((await buy(nisaFirst.token, { account: 'general' })).data.account).toBe('general');
    const margin = await buy(nisaFirst.token, { leverage: 2, quantity: 200 });
    expect(margin.data).toMatchObject({ account: 'specific', margin_type: 'standard' });

    const noNisa = await customer();
    expect(await buy(noNisa.token, { account: 'nisa' })).toMatchObject({
      code: 1251,
      msg: 'You do not hold a NISA account: choose an account you hold',
      data: { account: 'nisa' },
    });
    const generalOnly = await customer({ specific: 'none', default: 'general' });
    expect((await buy(generalOnly.token, { account: 'specific' })).code).toBe(1251);
    expect((await buy(generalOnly.token, { leverage: 2, quantity: 200 })).data.account).toBe('general');
    expect(await buy(nisaFirst.token, { account: 'nisa', leverage: 2, quantity: 200 })).toMatchObject({
      code: 400,
      data: { issues: [{ field: 'account', rule: 'nisaCashOnly' }] },
    });
  });

  it('gives 制度信用 a repayment deadline six months on, and 一般信用 none', async () => {
    const u = await customer();
    await buy(u.token, { leverage: 2, quantity: 200, margin_type: 'standard' });
    await buy(u.token, { leverage: 2, quantity: 200, margin_type: 'general' });
    const list = await holdings(u.token);
    const standard = list.find((p) => p.margin_type === 'standard');
    const general = list.find((p) => p.margin_type === 'general');
    expect(standard?.repay_deadline).toBe('2027-05-24T01:00:00.000Z');
    expect(general?.repay_deadline).toBeNull();
  });
});

describe('NISA growth quota', () => {
  it('counts filled purchases and pending orders at purchase price, and refuses with what is left', async () => {
    const u = await customer({ nisa: true });
    await buy(u.token, { account: 'nisa', quantity: 600 }); // ¥1,860,600 (fee not counted)
    const pending = await buy(u.token, {
      account: 'nisa',
      price_type: 'limit',
      price: Y(2500),
    }); // ¥250,000 held
    expect(pending.data.status).toBe('pending');
    expect(await quota(u.token)).toMatchObject({
      year: 2026,
      annual_limit: Y(2_400_000),
      annual_used: Y(2_110_600),
      annual_remaining: Y(289_400),
      lifetime_limit: Y(18_000_000),
      growth_lifetime_limit: Y(12_000_000),
      lifetime_remaining: Y(12_000_000 - 1_862_460 - 250_000),
    });
    expect(await buy(u.token, { account: 'nisa' })).toMatchObject({
      code: 1252,
      msg: "This exceeds NISA's annual growth quota of ¥2,400,000: ¥289,400 is left this year",
      data: { limit: Y(2_400_000), remaining: Y(289_400) },
    });
    // the same purchase fits once the pending order is cancelled
    await post(u.token, '/api/trade/cancelOrder', { order_no: pending.data.order_no });
    expect((await buy(u.token, { account: 'nisa' })).data.status).toBe('filled');
    // and in 特定口座 the quota does not apply
    expect((await buy(u.token, { quantity: 1000 })).data.status).toBe('filled');
  });

  it('returns the book value sold to the lifetime limit on January 1, and frees the annual quota', async () => {
    const u = await customer({ nisa: true });
    const order = await buy(u.token, { account: 'nisa', quantity: 700 }); // ¥2,170,700 + fee ¥2,170
    market.set('7203', 3300);
    await sell(u.token, order.data.position_id ?? 0, 300); // sells 3/7 of the book value ¥2,172,870
    const sold = Math.floor((217_287_000 * 3) / 7);
    const q = await quota(u.token);
    expect(q).toMatchObject({
      annual_used: Y(2_170_700),
      annual_remaining: Y(229_300),
      returning_next_year: sold,
      lifetime_used: Y(2_172_870),
    });
    expect((await report(u.token, 2026, 'nisa')).withheld).toEqual({ national: 0, local: 0 });

    t.clock.set(NEXT_YEAR);
    expect(await quota(await login(u))).toMatchObject({
      year: 2027,
      annual_used: 0,
      annual_remaining: Y(2_400_000),
      returning_next_year: 0,
      lifetime_used: Y(2_172_870) - sold,
    });
  });

  it('refuses a purchase past the growth quota’s lifetime limit, naming it and what is left', async () => {
    const u = await customer({ nisa: true });
    await buy(u.token, { account: 'nisa', quantity: 500 }); // book ¥1,550,500 + ¥1,550
    const value = JSON.stringify({ ...DEFAULT_TAX_SETTINGS, nisa_growth_lifetime_limit_yen: 2_000_000 });
    await t.database.db
      .insert(settings)
      .values({ key: 'tax', value, updatedBy: null, updatedAt: t.clock.now() });
    try {
      t.clock.set(NEXT_YEAR);
      const token = await login(u);
      expect(await buy(token, { account: 'nisa', quantity: 200 })).toMatchObject({
        code: 1254,
        data: { limit: Y(2_000_000), remaining: Y(2_000_000 - 1_552_050) },
      });
      expect((await buy(token, { account: 'nisa', quantity: 100 })).data.status).toBe('filled');
    } finally {
      await t.database.db.delete(settings).where(eq(settings.key, 'tax'));
    }
  });
});

describe('the tax endpoints', () => {
  const urls = [
    '/api/tax/nisa',
    '/api/tax/summary?year=2026',
    '/api/tax/report?year=2026&account=specific',
    '/api/tax/report.csv?year=2026&account=specific',
  ];

  it.each(urls)('%s needs a session', async (url) => {
    const res = await t.app.inject({ url });
    expect(res.statusCode).toBe(401);
    expect(body(res).code).toBe(401);
  });

  it("shows only the caller's own realizations", async () => {
    const a = await customer();
    const order = await buy(a.token);
    market.set('7203', 3300);
    await sell(a.token, order.data.position_id ?? 0, 100);
    const b = await customer();
    expect((await report(a.token, 2026)).lines).toHaveLength(1);
    expect(await report(b.token, 2026)).toMatchObject({ lines: [], withheld: { national: 0, local: 0 } });
    const csv = await t.app.inject({
      url: '/api/tax/report.csv?year=2026&lang=en',
      headers: { token: b.token },
    });
    expect(csv.body.split('\r\n')[1]).toBe('Total,,,,,0.00,0.00,0.00');
  });

  it('writes the report as CSV with a byte-order mark, headers in the reader’s language', async () => {
    const u = await customer();
    const order = await buy(u.token);
    market.set('7203', 3300);
    await sell(u.token, order.data.position_id ?? 0, 100);
    const res = await t.app.inject({
      url: '/api/tax/report.csv?year=2026&account=specific&lang=jp',
      headers: { token: u.token },
    });
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.body.startsWith('\uFEFF')).toBe(true);
    const lines = res.body.slice(1).split('\r\n');
    expect(lines[0]).toBe(
      '約定日,銘柄コード,銘柄名,取引区分,数量（株）,譲渡の対価の額（円）,取得費及び譲渡費用の額等（円）,差引金額（譲渡損益）（円）',
    );
    expect(lines[1]).toMatch(/^2026-11-24,7203,トヨタ自動車,現物売却,100,329900\.00,310739\.00,19161\.00$/);
    expect(lines[3]).toBe('源泉徴収税額・所得税及び復興特別所得税（円）,,,,,,,2934.00');
  });

  it('refuses a year that is not one', async () => {
    const u = await customer();
    const res = await get(u.token, '/api/tax/summary?year=abc&lang=en');
    expect(res).toMatchObject({ code: 400 });
  });
});
