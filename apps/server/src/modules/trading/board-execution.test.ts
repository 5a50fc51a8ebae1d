import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TBoard, TOrder, TPosition } from '@kabuto/contract';
import { body, createTestApp, registerAndLogin, TEST_NOW, type TestApp } from '../../test/harness.js';
import { TestMarket } from '../../test/test-market.js';
import { Matcher } from './matcher.js';

/**
 * Orders against the order book (板, ADR 0024), with a fixed clock (Tuesday 2026-11-24, 10:00 Tokyo: in
 * session). Toyota (7203) at ¥3,100, tick ¥1: asks from ¥3,101 up, bids from ¥3,099 down, with the sizes each
 * test sets. Each new user has ¥10,000,000 of demo cash; no fees, so cash moves by the principal alone.
 */
let t: TestApp;
let market: TestMarket;
beforeAll(async () => {
  t = await createTestApp({ DEMO_MODE: 'true', DEMO_CASH_YEN: '10000000', FEE_BP: '0' }, undefined, {
    market: (clock) => (market = new TestMarket(clock)),
  });
});
afterAll(() => t.close());

const THIN = {
  asks: [300, 500, 1_000, 1_000, 2_000, 2_000, 3_000, 3_000, 5_000, 5_000],
  bids: [200, 400, 1_000, 1_000, 2_000, 2_000, 3_000, 3_000, 5_000, 5_000],
};
beforeEach(() => {
  t.clock.set(TEST_NOW);
  market.set('7203', 3100, { prevCloseYen: 3100 });
  market.setBoard('7203', THIN);
});

const Y = (yen: number) => yen * 100;

async function call<T>(token: string, url: string, payload: object) {
  const res = await t.app.inject({
    method: 'POST',
    url: `${url}?lang=en`,
    payload,
    headers: { token, 'idempotency-key': randomUUID() },
  });
  return body<T>(res);
}
const buy = (token: string, extra: object = {}) =>
  call<TOrder>(token, '/api/trade/placeOrder', {
    code: '7203',
    direction: 'long',
    price_type: 'market',
    quantity: 100,
    leverage: 1,
    ...extra,
  });
async function cash(token: string) {
  return body<{ available_balance: number }>(
    await t.app.inject({ url: '/api/index/getUserInfo', headers: { token } }),
  ).data.available_balance;
}
async function positions(token: string, status: 'holding' | 'closed') {
  return body<TPosition[]>(
    await t.app.inject({ url: `/api/trade/positions?status=${status}`, headers: { token } }),
  ).data;
}

describe('market orders walk the book', () => {
  it('fills a market buy of 1,000 shares across three asks: principal exact, the average price to the sen', async () => {
    const u = await registerAndLogin(t);
    const order = await buy(u.token, { quantity: 1_000 });
    // ¥3,101 × 300 + ¥3,102 × 500 + ¥3,103 × 200 = ¥3,101,900; average ¥3,101.90
    expect(order.data).toMatchObject({ status: 'filled', principal: Y(3_101_900), fill_price: 310_190 });
    expect(await cash(u.token)).toBe(Y(10_000_000 - 3_101_900));
    const [holding] = await positions(u.token, 'holding');
    expect(holding).toMatchObject({ quantity: 1_000, avg_price: 310_190 });
  });

  it('sells across the bids; the gain is the proceeds less the cost, and an uneven average rounds to the sen', async () => {
    const u = await registerAndLogin(t);
    market.setBoard('7203', { asks: THIN.asks, bids: Array.from({ length: 10 }, () => 100_000) });
    await buy(u.token, { quantity: 300 }); // 300 @ ¥3,101 = ¥930,300
    market.setBoard('7203', THIN);
    const [p] = await positions(u.token, 'holding');
    const sell = await call<TOrder>(u.token, '/api/trade/closePosition', {
      position_id: p?.id,
      price_type: 'market',
      quantity: 300,
    });
    // 200 @ ¥3,099 + 100 @ ¥3,098 = ¥929,600; average ¥3,098.666… → ¥3,098.67
    expect(sell.data).toMatchObject({ status: 'filled', principal: Y(929_600), fill_price: 309_867 });
    const [closed] = await positions(u.token, 'closed');
    expect(closed).toMatchObject({ quantity: 300, realized_pl: Y(929_600 - 930_300) });
    expect(await cash(u.token)).toBe(Y(10_000_000 - 700));
  });

  it('refuses a market order larger than the ten levels hold, saying how many shares they hold', async () => {
    const u = await registerAndLogin(t);
    const refused = await buy(u.token, { quantity: 22_900 });
    expect(refused).toMatchObject({
      code: 1214,
      msg: 'This market order is larger than the order book holds (22,800 shares on the shown levels). Please reduce the quantity or use a limit order',
    });
    expect(await cash(u.token)).toBe(Y(10_000_000));
  });
});

describe('limit orders against the book', () => {
  it('fills a marketable limit buy at the levels within its price, each below the limit', async () => {
    const u = await registerAndLogin(t);
    const order = await buy(u.token, { price_type: 'limit', price: Y(3102), quantity: 800 });
    // ¥3,101 × 300 + ¥3,102 × 500 = ¥2,481,300 over 800 = ¥3,101.625 → ¥3,101.63
    expect(order.data).toMatchObject({ status: 'filled', principal: Y(2_481_300), fill_price: 310_163 });
  });

  it('rests a limit order the book within its price cannot fill whole, then fills it when the book reaches it', async () => {
    const u = await registerAndLogin(t);
    const order = await buy(u.token, { price_type: 'limit', price: Y(3102), quantity: 900 });
    expect(order.data).toMatchObject({ status: 'pending', reserved: Y(3102 * 900) });
    expect(await new Matcher(t.app, 1000).pass()).toBe(0);
    market.setBoard('7203', { asks: [600, 600], bids: THIN.bids });
    expect(await new Matcher(t.app, 1000).pass()).toBe(1);
    const filled = body<TOrder>(
      await t.app.inject({
        url: `/api/trade/order?order_no=${order.data.order_no}`,
        headers: { token: u.token },
      }),
    ).data;
    // ¥3,101 × 600 + ¥3,102 × 300 = ¥2,791,200; average ¥3,101.333… → ¥3,101.33; the rest of the hold back
    expect(filled).toMatchObject({ status: 'filled', principal: Y(2_791_200), fill_price: 310_133 });
    expect(await cash(u.token)).toBe(Y(10_000_000 - 2_791_200));
  });
});

describe('GET /api/market/board', () => {
  it('is public like the quote: ten levels a side around the bid and ask, labelled simulated', async () => {
    market.setBoard('7203', THIN);
    const res = body<TBoard>(await t.app.inject({ url: '/api/market/board?code=7203' }));
    expect(res.code).toBe(1);
    expect(res.data).toMatchObject({ code: '7203', last: Y(3100), simulated: true });
    expect(res.data.asks[0]).toEqual({ price: Y(3101), quantity: 300 });
    expect(res.data.bids[0]).toEqual({ price: Y(3099), quantity: 200 });
    expect(res.data.asks).toHaveLength(10);
  });

  it('refuses an unknown stock and a malformed code with a clear error, never a 500', async () => {
    const unknown = await t.app.inject({ url: '/api/market/board?code=0000&lang=en' });
    expect(body(unknown)).toMatchObject({ code: 1101 });
    const bad = await t.app.inject({ url: '/api/market/board?code=x&lang=en' });
    expect(bad.statusCode).toBe(400);
    expect(body(bad).code).toBe(400);
  });
});
