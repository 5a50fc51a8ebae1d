import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TOrder, TPosition } from '@kabuto/contract';
import { body, createTestApp, registerAndLogin, TEST_NOW, type TestApp } from '../../test/harness.js';
import { TestMarket } from '../../test/test-market.js';
import { Matcher } from './matcher.js';

/**
 * Money scenarios with a fixed clock (Tuesday 2026-11-24, 10:00 Tokyo: in session) and hand-set prices.
 * Toyota (7203, a TOPIX500 stock) at ¥3,100 has a ¥1 tick: bid ¥3,099, ask ¥3,101. Each new user has
 * ¥10,000,000 of demo cash. Amounts on the wire are sen (1/100 yen).
 */
let t: TestApp;
let market: TestMarket;
beforeAll(async () => {
  t = await createTestApp({ DEMO_MODE: 'true', DEMO_CASH_YEN: '10000000', FEE_BP: '0' }, undefined, {
    market: (clock) => (market = new TestMarket(clock)),
  });
});
afterAll(() => t.close());
beforeEach(() => {
  t.clock.set(TEST_NOW);
  market.set('7203', 3100, { prevCloseYen: 3100 });
});

const Y = (yen: number) => yen * 100;

async function user() {
  return registerAndLogin(t);
}
async function call<T>(token: string, url: string, payload: object, key: string = randomUUID()) {
  const res = await t.app.inject({
    method: 'POST',
    url: `${url}?lang=en`,
    payload,
    headers: { token, 'idempotency-key': key },
  });
  return body<T>(res);
}
const buy = (token: string, extra: object = {}) =>
  call<TOrder>(token, '/api/trade/placeOrder', {
    code: '7203',
    direction: 'long',
    price_type: 'market',
    quantity: 200,
    leverage: 1,
    ...extra,
  });
async function info(token: string) {
  return body<{ available_balance: number; used_funds: number; total_assets: number; floating_pl: number }>(
    await t.app.inject({ url: '/api/index/getUserInfo', headers: { token } }),
  ).data;
}
async function positions(token: string, status: 'holding' | 'closed') {
  return body<TPosition[]>(
    await t.app.inject({ url: `/api/trade/positions?status=${status}`, headers: { token } }),
  ).data;
}
async function matchOnce() {
  return new Matcher(t.app, 1000).pass();
}

describe('cash trading', () => {
  it('buys at the ask and sells at the bid, cash exact to the yen', async () => {
    const u = await user();
    const order = await buy(u.token);
    expect(order.data).toMatchObject({
      status: 'filled',
      fill_price: Y(3101),
      principal: Y(620_200),
      fee: 0,
    });
    expect((await info(u.token)).available_balance).toBe(Y(10_000_000 - 620_200));
    const [holding] = await positions(u.token, 'holding');
    expect(holding).toMatchObject({ quantity: 200, avg_price: Y(3101), direction: 'long', leverage: 1 });

    market.set('7203', 3200);
    const [p] = await positions(u.token, 'holding');
    expect(p).toMatchObject({ market_value: Y(640_000), floating_pl: Y((3200 - 3101) * 200) });
    // the user tab: a cash holding counts at its market value
    expect(await info(u.token)).toMatchObject({
      available_balance: Y(10_000_000 - 620_200),
      used_funds: 0,
      floating_pl: Y((3200 - 3101) * 200),
      total_assets: Y(10_000_000 - 620_200 + 640_000),
    });
    const sell = await call<TOrder>(u.token, '/api/trade/closePosition', {
      position_id: p?.id,
      price_type: 'market',
      quantity: 200,
    });
    expect(sell.data).toMatchObject({ status: 'filled', side: 'sell', fill_price: Y(3199) });
    // 特定口座 源泉徴収あり (ADR 0021) withholds 20.315% of the ¥19,600 gain: ¥3,001 income tax + ¥980 local tax
    expect((await info(u.token)).available_balance).toBe(Y(10_000_000 - 620_200 + 639_800 - 3_981));
    const [closed] = await positions(u.token, 'closed');
    expect(closed).toMatchObject({ quantity: 200, close_price: Y(3199), realized_pl: Y(19_600) });
    expect(await positions(u.token, 'holding')).toEqual([]);
  });

  it('sells part of a holding: a closed part and a smaller holding', async () => {
    const u = await user();
    await buy(u.token, { quantity: 300 });
    const [p] = await positions(u.token, 'holding');
    await call(u.token, '/api/trade/closePosition', {
      position_id: p?.id,
      price_type: 'market',
      quantity: 100,
    });
    const [still] = await positions(u.token, 'holding');
    const [closed] = await positions(u.token, 'closed');
    expect(still).toMatchObject({ id: p?.id, quantity: 200 });
    expect(closed).toMatchObject({ quantity: 100, close_price: Y(3099), realized_pl: Y(-200) });
    const tooMany = await call(u.token, '/api/trade/closePosition', {
      position_id: p?.id,
      price_type: 'market',
      quantity: 300,
    });
    expect(tooMany).toMatchObject({
      code: 1211,
      msg: 'You can sell or close at most 200 shares of this position',
    });
  });

  it('holds cash for a limit order, then fills it when the market reaches the price', async () => {
    const u = await user();
    const order = await buy(u.token, { price_type: 'limit', price: Y(3050), quantity: 100 });
    expect(order.data).toMatchObject({ status: 'pending', reserved: Y(305_000) });
    expect(await info(u.token)).toMatchObject({
      available_balance: Y(10_000_000 - 305_000),
      used_funds: Y(305_000),
      total_assets: Y(10_000_000),
    });
    expect(await matchOnce()).toBe(0);
    market.set('7203', 3040);
    expect(await matchOnce()).toBe(1);
    const filled = body<TOrder>(
      await t.app.inject({
        url: `/api/trade/order?order_no=${order.data.order_no}`,
        headers: { token: u.token },
      }),
    ).data;
    expect(filled).toMatchObject({ status: 'filled', fill_price: Y(3041), reserved: 0 });
    expect(await info(u.token)).toMatchObject({ available_balance: Y(10_000_000 - 304_100), used_funds: 0 });
    expect(await matchOnce()).toBe(0);
  });

  it('lets an order placed outside the session wait, says when it can fill, and fills it at the open', async () => {
    t.clock.set('2026-11-28T03:00:00.000Z'); // Saturday noon in Tokyo
    const u = await user();
    const order = await buy(u.token, { quantity: 100 });
    // A waiting market buy holds cash at the day's upper price limit (¥3,100 + ¥700).
    expect(order.data).toMatchObject({
      status: 'pending',
      reserved: Y(380_000),
      fills_from: '2026-11-30T00:00:00.000Z',
    });
    expect(await matchOnce()).toBe(0);
    t.clock.set('2026-11-30T00:00:00.000Z'); // Monday 9:00
    expect(await matchOnce()).toBe(1);
    const { userBalances } = await import('../ledger/ledger.js');
    expect(await userBalances(t.database.db, u.userId)).toEqual({
      cash: Y(10_000_000 - 310_100),
      reserved: 0,
      margin: 0,
      withdrawing: 0,
    });
  });

  it('cancels a pending order and gives the held cash back', async () => {
    const u = await user();
    const order = await buy(u.token, { price_type: 'limit', price: Y(3000), quantity: 100 });
    const cancelled = await call<TOrder>(u.token, '/api/trade/cancelOrder', {
      order_no: order.data.order_no,
    });
    expect(cancelled.data).toMatchObject({ status: 'cancelled', reserved: 0 });
    expect(await info(u.token)).toMatchObject({ available_balance: Y(10_000_000), used_funds: 0 });
    const again = await call(u.token, '/api/trade/cancelOrder', { order_no: order.data.order_no });
    expect(again.code).toBe(1209);
    const other = await user();
    const foreign = await call(other.token, '/api/trade/cancelOrder', { order_no: order.data.order_no });
    expect(foreign.code).toBe(1208);
  });

  it('refuses what the rules forbid: off-tick or out-of-limit prices, odd lots, too little cash', async () => {
    const u = await user();
    expect((await buy(u.token, { price_type: 'limit', price: Y(3050) + 50 })).code).toBe(1205);
    expect((await buy(u.token, { price_type: 'limit', price: Y(3900) })).code).toBe(1206);
    expect((await buy(u.token, { quantity: 150 })).code).toBe(400);
    const tooBig = await buy(u.token, { quantity: 4000 });
    expect(tooBig.code).toBe(1203);
    expect(tooBig.msg).toBe(
      'Your available balance is not enough: ¥12,404,000 is needed and ¥10,000,000 is available',
    );
  });

  it('refuses a market order on a stale quote, but takes a limit order', async () => {
    const u = await user();
    market.set('7203', 3100, { time: new Date(Date.parse(TEST_NOW) - 10_000).toISOString() });
    expect((await buy(u.token)).code).toBe(1204);
    expect((await buy(u.token, { price_type: 'limit', price: Y(3000) })).data.status).toBe('pending');
  });
});

describe('fees', () => {
  it('charges the published schedule: basis points rounded down to the yen, with a minimum', async () => {
    const feeApp = await createTestApp(
      { DEMO_MODE: 'true', DEMO_CASH_YEN: '10000000', FEE_BP: '10', FEE_MIN_YEN: '100' },
      undefined,
      {
        market: (clock) => {
          const m = new TestMarket(clock);
          m.set('7203', 3100);
          return m;
        },
      },
    );
    try {
      const u = await registerAndLogin(feeApp);
      const place = async (quantity: number) =>
        body<TOrder>(
          await feeApp.app.inject({
            method: 'POST',
            url: '/api/trade/placeOrder',
            payload: { code: '7203', direction: 'long', price_type: 'market', quantity, leverage: 1 },
            headers: { token: u.token, 'idempotency-key': randomUUID() },
          }),
        ).data;
      // ¥310,100 × 0.1% = ¥310.10 → ¥310
      expect(await place(100)).toMatchObject({ principal: Y(310_100), fee: Y(310), total: Y(310_410) });
      const rules = body<{ fee_bp: number; fee_min: number }>(
        await feeApp.app.inject({ url: '/api/trade/rules' }),
      ).data;
      expect(rules).toMatchObject({ fee_bp: 10, fee_min: Y(100) });
    } finally {
      await feeApp.close();
    }
  });
});

describe('margin', () => {
  it('opens a 3x long with a third of the value as collateral and settles the profit on close', async () => {
    const u = await user();
    const order = await buy(u.token, { quantity: 300, leverage: 3 });
    expect(order.data).toMatchObject({ status: 'filled', principal: Y(930_300) });
    expect(await info(u.token)).toMatchObject({
      available_balance: Y(10_000_000 - 310_100),
      used_funds: Y(310_100),
    });
    market.set('7203', 3300);
    const [p] = await positions(u.token, 'holding');
    expect(p).toMatchObject({ collateral: Y(310_100), floating_pl: Y(59_700) });
    // the user tab: a margin position counts by its floating profit and loss, its collateral as used funds
    expect(await info(u.token)).toMatchObject({
      used_funds: Y(310_100),
      floating_pl: Y(59_700),
      total_assets: Y(10_000_000 + 59_700),
    });
    expect(p?.maintenance_bp).toBe(Math.floor(((310_100 + 59_700) * 10_000) / 990_000));
    await call(u.token, '/api/trade/closePosition', {
      position_id: p?.id,
      price_type: 'market',
      quantity: 300,
    });
    // less the tax withheld on the ¥59,400 gain in 特定口座: ¥9,097 income tax + ¥2,970 local tax
    expect(await info(u.token)).toMatchObject({
      available_balance: Y(10_000_000 + 59_400 - 12_067),
      used_funds: 0,
    });
  });

  it('opens a short at the bid and pays the profit when the price falls', async () => {
    const u = await user();
    const order = await buy(u.token, { direction: 'short', quantity: 200, leverage: 2 });
    expect(order.data).toMatchObject({ side: 'sell', fill_price: Y(3099) });
    market.set('7203', 3010);
    const [p] = await positions(u.token, 'holding');
    expect(p).toMatchObject({ direction: 'short', collateral: Y(309_900), floating_pl: Y(17_800) });
    await call(u.token, '/api/trade/closePosition', {
      position_id: p?.id,
      price_type: 'market',
      quantity: 200,
    });
    const [closed] = await positions(u.token, 'closed');
    expect(closed).toMatchObject({ close_price: Y(3011), realized_pl: Y(17_600) });
    // less the tax withheld on the ¥17,600 gain in 特定口座: ¥2,695 income tax + ¥880 local tax
    expect((await info(u.token)).available_balance).toBe(Y(10_000_000 + 17_600 - 3_575));
  });

  it('opens a 信用新規買 at a 100% collateral rate (leverage 1, 制度信用) as margin, and repays it as margin', async () => {
    const u = await user();
    const order = await buy(u.token, { quantity: 100, leverage: 1, margin_type: 'standard' });
    expect(order.data).toMatchObject({ status: 'filled', margin_type: 'standard', principal: Y(310_100) });
    // the whole principal is collateral (委託保証金), held in the margin account, not spent on shares
    expect(await info(u.token)).toMatchObject({
      available_balance: Y(10_000_000 - 310_100),
      used_funds: Y(310_100),
    });
    market.set('7203', 3200);
    const [p] = await positions(u.token, 'holding');
    expect(p).toMatchObject({ margin_type: 'standard', collateral: Y(310_100), floating_pl: Y(9_900) });
    expect(p?.maintenance_bp).toBe(Math.floor(((310_100 + 9_900) * 10_000) / 320_000));
    const closing = await call<TOrder>(u.token, '/api/trade/closePosition', {
      position_id: p?.id,
      price_type: 'market',
      quantity: 100,
    });
    expect(closing.data).toMatchObject({ kind: 'close', side: 'sell', margin_type: 'standard' });
    // 返済売: the collateral comes back and the margin account is empty; the gain is ¥98 a share (bid ¥3,199 −
    // ask ¥3,101), settled as a margin close (withholding, if the account has it, is ADR 0021's)
    expect(await info(u.token)).toMatchObject({ used_funds: 0 });
    const [closed] = await positions(u.token, 'closed');
    expect(closed).toMatchObject({ margin_type: 'standard', realized_pl: Y(9_800), close_price: Y(3199) });
  });

  it('needs ¥300,000 of collateral in total', async () => {
    const u = await user();
    const small = await buy(u.token, { quantity: 100, leverage: 3 });
    expect(small).toMatchObject({
      code: 1207,
      msg: 'A margin position needs at least ¥300,000 of collateral in total',
    });
  });
});

describe('idempotency', () => {
  it('replays the first answer for the same key and body, refuses another body, and requires a key', async () => {
    const u = await user();
    const key = randomUUID();
    const payload = { code: '7203', direction: 'long', price_type: 'market', quantity: 100, leverage: 1 };
    const first = await call<TOrder>(u.token, '/api/trade/placeOrder', payload, key);
    const second = await call<TOrder>(u.token, '/api/trade/placeOrder', payload, key);
    expect(second).toEqual(first);
    const other = await call(u.token, '/api/trade/placeOrder', { ...payload, quantity: 200 }, key);
    expect(other.code).toBe(1202);
    const none = await t.app.inject({
      method: 'POST',
      url: '/api/trade/placeOrder',
      payload,
      headers: { token: u.token },
    });
    expect(body(none).code).toBe(1201);
    const orders = body<TOrder[]>(
      await t.app.inject({ url: '/api/trade/orders?lang=en', headers: { token: u.token } }),
    ).data;
    expect(orders).toHaveLength(1);
    // The answer was rendered from the order before it was written: it is the order as stored.
    expect(orders[0]).toEqual(first.data);
  });

  it('replays a waiting limit order as first answered, which is the order as stored', async () => {
    const u = await user();
    const key = randomUUID();
    const payload = {
      code: '7203',
      direction: 'long',
      price_type: 'limit',
      price: 300_000,
      quantity: 200,
      leverage: 1,
    };
    const first = await call<TOrder>(u.token, '/api/trade/placeOrder', payload, key);
    expect(first.data).toMatchObject({ status: 'pending', reserved: Y(600_000), position_id: null });
    expect(await call<TOrder>(u.token, '/api/trade/placeOrder', payload, key)).toEqual(first);
    const [stored] = body<TOrder[]>(
      await t.app.inject({ url: '/api/trade/orders?status=pending&lang=en', headers: { token: u.token } }),
    ).data;
    expect(stored).toEqual(first.data);
  });

  it('makes 50 concurrent requests with one key into one order', async () => {
    const u = await user();
    const key = randomUUID();
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        call<TOrder>(
          u.token,
          '/api/trade/placeOrder',
          {
            code: '7203',
            direction: 'long',
            price_type: 'market',
            quantity: 100,
            leverage: 1,
          },
          key,
        ),
      ),
    );
    expect(new Set(results.map((r) => r.data.order_no)).size).toBe(1);
    const orders = body<TOrder[]>(
      await t.app.inject({ url: '/api/trade/orders', headers: { token: u.token } }),
    ).data;
    expect(orders).toHaveLength(1);
    expect((await info(u.token)).available_balance).toBe(Y(10_000_000 - 310_100));
  });
});

describe('the ledger', () => {
  it('balances every entry, and every balance is the sum of its postings', async () => {
    const entries = await t.database.db.execute(
      sql`select entry_id from postings group by entry_id having sum(amount) <> 0`,
    );
    expect((entries as { rows: unknown[] }).rows).toEqual([]);
  });

  it('shows each order as one movement: its hold, fill or release together, cash net of them', async () => {
    const u = await user();
    const filled = await buy(u.token, { quantity: 100 });
    const waiting = await buy(u.token, { price_type: 'limit', price: Y(3050), quantity: 100 });
    const cancelled = await buy(u.token, { price_type: 'limit', price: Y(3000), quantity: 100 });
    await call(u.token, '/api/trade/cancelOrder', { order_no: cancelled.data.order_no });
    market.set('7203', 3040);
    await matchOnce();
    const page = body<{ total: number; cash_balance: number; items: object[] }>(
      await t.app.inject({ url: '/api/ledger/movements', headers: { token: u.token } }),
    ).data;
    expect(page.items).toEqual([
      expect.objectContaining({
        key: cancelled.data.order_no,
        kind: 'order_reserve',
        state: 'order_release',
        cash: 0,
        opening_cash: Y(-300_000),
        entries: 2,
      }),
      expect.objectContaining({
        key: waiting.data.order_no,
        kind: 'order_reserve',
        state: 'trade_buy',
        cash: Y(-304_100),
        opening_cash: Y(-305_000),
        entries: 2,
      }),
      expect.objectContaining({
        key: filled.data.order_no,
        kind: 'trade_buy',
        state: 'trade_buy',
        entries: 1,
      }),
      expect.objectContaining({ kind: 'demo_funding', cash: Y(10_000_000), entries: 1 }),
    ]);
    expect(page.total).toBe(4);
    expect(page.cash_balance).toBe((await info(u.token)).available_balance);
  });

  it("keeps each trade entry's memo params, from which the app writes the memo in the reader's language", async () => {
    const u = await user();
    const filled = await buy(u.token, { quantity: 100 });
    const waiting = await buy(u.token, { price_type: 'limit', price: Y(3050), quantity: 100 });
    const cancelled = await buy(u.token, { price_type: 'limit', price: Y(3000), quantity: 100 });
    await call(u.token, '/api/trade/cancelOrder', { order_no: cancelled.data.order_no });
    market.set('7203', 3040);
    await matchOnce();
    const order = (no: string) => ({ order_no: no, code: '7203', quantity: 100 });
    // A movement carries its first entry's params: the order path's one statement wrote the immediate fill's
    // and the holds; the demo cash's is its amount (sen).
    const page = body<{ items: { key: string; params: unknown }[] }>(
      await t.app.inject({ url: '/api/ledger/movements', headers: { token: u.token } }),
    ).data;
    expect(page.items.map((m) => m.params)).toEqual([
      { ...order(cancelled.data.order_no), amount: Y(300_000) },
      { ...order(waiting.data.order_no), amount: Y(305_000) },
      { ...order(filled.data.order_no), price: expect.any(Number) as unknown },
      { amount: Y(10_000_000) },
    ]);
    // The later entries carry theirs: the limit order's fill at its price, the cancelled order's release.
    const lines = async (kind: string) =>
      body<{ items: { kind: string; params: unknown }[] }>(
        await t.app.inject({ url: `/api/ledger/entries?kind=${kind}`, headers: { token: u.token } }),
      ).data.items.map((l) => l.params);
    expect(await lines('order_release')).toEqual([
      { ...order(cancelled.data.order_no), amount: Y(300_000) },
      { ...order(cancelled.data.order_no), amount: Y(300_000) },
    ]);
    expect((await lines('trade_buy')).slice(0, 1)).toEqual([
      { ...order(waiting.data.order_no), price: Y(3041) },
    ]);
  });

  it('pushes the user an event when an order fills', async () => {
    const u = await user();
    const events: string[] = [];
    const original = t.app.ctx.realtime.publishUserEvent.bind(t.app.ctx.realtime);
    t.app.ctx.realtime.publishUserEvent = async (userId, event) => {
      if (userId === u.userId) events.push(event.kind);
      await original(userId, event);
    };
    try {
      await buy(u.token, { quantity: 100 });
    } finally {
      t.app.ctx.realtime.publishUserEvent = original;
    }
    expect(events).toEqual(['order.filled']);
  });
});

describe('the account figures', () => {
  it('value cash positions at the market and count margin positions by their profit or loss', async () => {
    const u = await user();
    await buy(u.token, { quantity: 100 }); // cash: ¥310,100
    await buy(u.token, { quantity: 300, leverage: 3 }); // margin: collateral ¥310,100 on ¥930,300
    market.set('7203', 3200);
    const figures = await info(u.token);
    const floatingCash = (3200 - 3101) * 100;
    const floatingMargin = (3200 - 3101) * 300;
    expect(figures).toMatchObject({
      available_balance: Y(10_000_000 - 310_100 - 310_100),
      used_funds: Y(310_100),
      floating_pl: Y(floatingCash + floatingMargin),
      total_assets: Y(10_000_000 + floatingCash + floatingMargin),
    });
  });
});
