import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TOrder } from '@kabuto/contract';
import { body, createTestApp, registerAndLogin, type TestApp } from '../../test/harness.js';
import { TestMarket } from '../../test/test-market.js';
import { userBalances } from '../ledger/ledger.js';
import { expirePtsApplications } from './rules.js';
import { matchPendingOrders } from './pending.js';

/** PTS applications (the specification's pre-market trade), with a fixed clock and set prices. */
let t: TestApp;
let market: TestMarket;
const PRE_MARKET = '2026-11-23T23:30:00.000Z'; // Tuesday 2026-11-24 8:30 Tokyo: PTS open, exchange not yet
beforeAll(async () => {
  t = await createTestApp(
    {
      DEMO_MODE: 'true',
      DEMO_CASH_YEN: '10000000',
      SESSION_IDLE_MINUTES: '1440',
      SESSION_ABSOLUTE_HOURS: '720',
    },
    undefined,
    { market: (clock) => (market = new TestMarket(clock)) },
  );
});
afterAll(() => t.close());
beforeEach(() => {
  t.clock.set(PRE_MARKET);
  market.set('7203', 3100, { prevCloseYen: 3100 });
});

const Y = (yen: number) => yen * 100;
const apply = async (token: string, extra: object = {}) =>
  body<TOrder>(
    await t.app.inject({
      method: 'POST',
      url: '/api/trade/placeOrder?lang=en',
      payload: {
        code: '7203',
        direction: 'long',
        price_type: 'market',
        quantity: 100,
        leverage: 1,
        venue: 'pts',
        ...extra,
      },
      headers: { token, 'idempotency-key': randomUUID() },
    }),
  );
const pass = async () => {
  const deps = { clock: t.clock, market, fees: t.app.ctx.fees, locale: 'ja' };
  await matchPendingOrders(t.database.db, deps);
  await expirePtsApplications(t.database.db, deps);
};
const order = async (token: string, orderNo: string) =>
  body<TOrder>(await t.app.inject({ url: `/api/trade/order?order_no=${orderNo}`, headers: { token } })).data;

describe('PTS applications', () => {
  it('succeed at once from 8:20, before the exchange opens', async () => {
    const u = await registerAndLogin(t);
    const result = await apply(u.token);
    expect(result.data).toMatchObject({ venue: 'pts', status: 'filled', fill_price: Y(3101) });
    const exchange = await apply(u.token, { venue: 'exchange' });
    expect(exchange.data).toMatchObject({
      venue: 'exchange',
      status: 'pending',
      fills_from: '2026-11-24T00:00:00.000Z',
    });
  });

  it('wait for their price during the PTS session and succeed when the market reaches it', async () => {
    const u = await registerAndLogin(t);
    const applied = await apply(u.token, { price_type: 'limit', price: Y(3050) });
    expect(applied.data).toMatchObject({ status: 'pending', reserved: Y(305_000) });
    market.set('7203', 3040);
    await pass();
    expect(await order(u.token, applied.data.order_no)).toMatchObject({
      status: 'filled',
      fill_price: Y(3041),
    });
  });

  it('fail at 16:00 when the price was not reached, with the reason, and give the cash back', async () => {
    const u = await registerAndLogin(t);
    const applied = await apply(u.token, { price_type: 'limit', price: Y(3000) });
    t.clock.set('2026-11-24T06:59:00.000Z'); // 15:59
    await pass();
    expect((await order(u.token, applied.data.order_no)).status).toBe('pending');
    t.clock.set('2026-11-24T07:00:00.000Z'); // 16:00
    await pass();
    expect(await order(u.token, applied.data.order_no)).toMatchObject({
      status: 'rejected',
      reason: 'pts_session_ended',
      reserved: 0,
    });
    expect(await userBalances(t.database.db, u.userId)).toEqual({
      cash: Y(10_000_000),
      reserved: 0,
      margin: 0,
      withdrawing: 0,
    });
  });

  it('placed in the evening wait for the next PTS session', async () => {
    t.clock.set('2026-11-24T08:30:00.000Z'); // 17:30
    const u = await registerAndLogin(t);
    const applied = await apply(u.token);
    expect(applied.data).toMatchObject({ status: 'pending', fills_from: '2026-11-24T23:20:00.000Z' });
    t.clock.set('2026-11-24T23:20:00.000Z'); // Wednesday 8:20
    await pass();
    expect((await order(u.token, applied.data.order_no)).status).toBe('filled');
  });

  it('are cash purchases only', async () => {
    const u = await registerAndLogin(t);
    expect((await apply(u.token, { leverage: 2 })).code).toBe(1213);
    expect((await apply(u.token, { direction: 'short' })).msg).toBe(
      'PTS orders are cash purchases only: margin and short selling are not offered on PTS',
    );
    const list = body<TOrder[]>(
      await t.app.inject({ url: '/api/trade/orders?venue=pts', headers: { token: u.token } }),
    ).data;
    expect(list).toEqual([]);
  });
});
