import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TOrder, TPosition } from '@kabuto/contract';
import { body, createTestApp, registerAndLogin, TEST_NOW, type TestApp } from '../../test/harness.js';
import { TestMarket } from '../../test/test-market.js';
import { messages } from '../../db/schema.js';
import { eq } from 'drizzle-orm';
import { enforcePositionRules } from './rules.js';
import { matchPendingOrders } from './pending.js';

/** The rules that close positions by themselves, with a fixed clock (Tuesday 2026-11-24) and set prices. */
let t: TestApp;
let market: TestMarket;
beforeAll(async () => {
  // Sessions outlive the days these scenarios span.
  t = await createTestApp(
    {
      DEMO_MODE: 'true',
      DEMO_CASH_YEN: '10000000',
      SESSION_IDLE_MINUTES: '1440',
      SESSION_ABSOLUTE_HOURS: '720',
    },
    undefined,
    {
      market: (clock) => (market = new TestMarket(clock)),
    },
  );
});
afterAll(() => t.close());
beforeEach(() => {
  t.clock.set(TEST_NOW);
  market.set('7203', 3100, { prevCloseYen: 3100 });
});

const Y = (yen: number) => yen * 100;
const open = (token: string, extra: object) =>
  t.app.inject({
    method: 'POST',
    url: '/api/trade/placeOrder',
    payload: { code: '7203', direction: 'long', price_type: 'market', quantity: 300, leverage: 3, ...extra },
    headers: { token, 'idempotency-key': randomUUID() },
  });
const holding = async (token: string) =>
  body<TPosition[]>(await t.app.inject({ url: '/api/trade/positions?status=holding', headers: { token } }))
    .data;
const closed = async (token: string) =>
  body<TPosition[]>(await t.app.inject({ url: '/api/trade/positions?status=closed', headers: { token } }))
    .data;
const kinds = async (userId: number) =>
  (await t.database.db.select().from(messages).where(eq(messages.userId, userId))).map((m) => m.kind);
/** What one matcher pass does; called directly so that a failure fails the test (the matcher only logs). */
const pass = async () => {
  const deps = { clock: t.clock, market, fees: t.app.ctx.fees, locale: 'ja' };
  await matchPendingOrders(t.database.db, deps);
  await enforcePositionRules(t.database.db, deps);
};

describe('day trades', () => {
  it('are closed at the market from 15:24, with a message', async () => {
    const u = await registerAndLogin(t);
    expect(body<TOrder>(await open(u.token, { day_trade: true })).data.status).toBe('filled');
    t.clock.set('2026-11-24T06:23:00.000Z'); // 15:23 Tokyo
    await pass();
    expect(await holding(u.token)).toHaveLength(1);
    t.clock.set('2026-11-24T06:24:00.000Z'); // 15:24
    market.set('7203', 3150);
    await pass();
    expect(await holding(u.token)).toEqual([]);
    const [c] = await closed(u.token);
    expect(c).toMatchObject({ close_price: Y(3149), realized_pl: Y(48 * 300) });
    expect(await kinds(u.userId)).toContain('position.day_trade_closed');
    const orders = body<TOrder[]>(
      await t.app.inject({ url: '/api/trade/orders', headers: { token: u.token } }),
    ).data;
    expect(orders[0]).toMatchObject({ kind: 'close', reason: 'day_trade_close' });
  });

  it('leave ordinary positions alone', async () => {
    const u = await registerAndLogin(t);
    await open(u.token, {});
    t.clock.set('2026-11-24T06:24:30.000Z');
    await pass();
    expect(await holding(u.token)).toHaveLength(1);
  });
});

describe('margin calls', () => {
  it('call below 20% maintenance, lift when the ratio recovers, and close at the deadline', async () => {
    const u = await registerAndLogin(t);
    await open(u.token, {});
    // Collateral ¥310,100 on 300 shares bought at ¥3,101. At ¥2,550: (310,100 − 551 × 300) / 765,000 = 18.9%.
    market.set('7203', 2550);
    await pass();
    const [called] = await holding(u.token);
    expect(called?.maintenance_bp).toBe(1892);
    // Called on Tuesday: the deadline is 12:00 on Thursday.
    expect(called?.margin_call_deadline).toBe('2026-11-26T03:00:00.000Z');
    expect(await kinds(u.userId)).toContain('margin.call');
    market.set('7203', 2800);
    await pass();
    expect((await holding(u.token))[0]?.margin_call_deadline).toBeNull();
    expect(await kinds(u.userId)).toContain('margin.call_met');

    market.set('7203', 2550);
    await pass();
    t.clock.set('2026-11-26T02:59:00.000Z'); // Thursday 11:59: not yet
    await pass();
    // Two days on, a new session (the old one has been idle too long).
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { account: u.phone, password: u.password, agree: true },
    });
    u.token = body<{ token: string }>(login).data.token;
    expect(await holding(u.token)).toHaveLength(1);
    t.clock.set('2026-11-26T03:00:00.000Z'); // Thursday 12:00, lunch: the market cannot take the order
    await pass();
    expect(await holding(u.token)).toHaveLength(1);
    t.clock.set('2026-11-26T03:30:00.000Z'); // 12:30: the afternoon session opens
    await pass();
    expect(await holding(u.token)).toEqual([]);
    const [c] = await closed(u.token);
    // Below ¥3,000 Toyota's tick is ¥0.5: the bid is ¥2,549.5.
    expect(c).toMatchObject({ close_price: 254_950, realized_pl: (254_950 - 310_100) * 300 });
    expect(await kinds(u.userId)).toContain('position.forced_close');
  });
});
