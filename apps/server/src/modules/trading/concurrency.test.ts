import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TOrder, TPosition } from '@kabuto/contract';
import { body, createTestApp, registerAndLogin, type TestApp } from '../../test/harness.js';
import { TestMarket } from '../../test/test-market.js';
import { ledgerHeadMismatches, userBalances } from '../ledger/ledger.js';

/**
 * Many requests at once on one account (on PostgreSQL these really run in parallel: TEST_DATABASE_URL).
 * Toyota at ¥3,100: a 100-share market buy costs ¥310,100; ¥10,000,000 pays for 32 of them.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ DEMO_MODE: 'true', DEMO_CASH_YEN: '10000000' }, undefined, {
    market: (clock) => {
      const m = new TestMarket(clock);
      m.set('7203', 3100);
      return m;
    },
  });
});
afterAll(() => t.close());

const post = (token: string, url: string, payload: object) =>
  t.app.inject({ method: 'POST', url, payload, headers: { token, 'idempotency-key': randomUUID() } });

describe('concurrent orders and closes on one account', () => {
  it('never overspend and never fill or close anything twice', async () => {
    const u = await registerAndLogin(t);
    const buys = await Promise.all(
      Array.from({ length: 100 }, () =>
        post(u.token, '/api/trade/placeOrder', {
          code: '7203',
          direction: 'long',
          price_type: 'market',
          quantity: 100,
          leverage: 1,
        }),
      ),
    );
    const codes = buys.map((r) => body(r).code);
    expect(codes.filter((c) => c === 1)).toHaveLength(32);
    expect(codes.filter((c) => c === 1203)).toHaveLength(68);
    expect(await userBalances(t.database.db, u.userId)).toEqual({
      cash: (10_000_000 - 32 * 310_100) * 100,
      reserved: 0,
      margin: 0,
      withdrawing: 0,
    });

    // The 32 purchases are one holding (ADR 0021: one per stock and account, at a moving-average cost).
    const holding = body<TPosition[]>(
      await t.app.inject({ url: '/api/trade/positions?status=holding', headers: { token: u.token } }),
    ).data;
    expect(holding).toHaveLength(1);
    expect(holding[0]).toMatchObject({ quantity: 3200, book_value: 32 * 310_100 * 100 });
    // Its 32 lots are each asked to close three times at once: exactly 32 closes succeed, never more shares
    // than it holds.
    const closes = await Promise.all(
      Array.from({ length: 96 }, () =>
        post(u.token, '/api/trade/closePosition', {
          position_id: holding[0]?.id,
          price_type: 'market',
          quantity: 100,
        }),
      ),
    );
    const closeCodes = closes.map((r) => body(r).code);
    expect(closeCodes.filter((c) => c === 1)).toHaveLength(32);
    expect(closeCodes.filter((c) => c !== 1).every((c) => c === 1210 || c === 1211)).toBe(true);
    const orders = body<TOrder[]>(
      await t.app.inject({ url: '/api/trade/orders', headers: { token: u.token } }),
    ).data;
    expect(orders.filter((o) => o.kind === 'close' && o.status === 'filled')).toHaveLength(32);
    expect(await userBalances(t.database.db, u.userId)).toEqual({
      cash: (10_000_000 - 32 * 310_100 + 32 * 309_900) * 100,
      reserved: 0,
      margin: 0,
      withdrawing: 0,
    });
    // The balances above are the ledger heads (ADR 0016): they agree with the postings.
    expect(await ledgerHeadMismatches(t.database.db)).toEqual([]);
  });
});
