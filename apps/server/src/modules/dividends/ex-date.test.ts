import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operators } from '../../db/schema.js';
import { hashPassword } from '../../lib/passwords.js';
import { priceLimits } from '../../market/limits.js';
import { getInstrument } from '../../market/instruments.js';
import { MarketSimulator } from '../../market/simulator.js';
import { body, createTestApp, registerAndLogin, type TestApp } from '../../test/harness.js';

/**
 * The ex-date price drop through the app (issue 17, ADR 0027), with a fixed clock: an administrator announces
 * ¥37.50 a share on Toyota (7203) for the record date Mon 2026-11-30 (cum date Thu 26, ex date Fri 27); the
 * simulator learns it from the announcement, so on Fri 27 its base price is Thursday's close less ¥37.50,
 * and an order is checked against the limits of that base.
 */
let t: TestApp;
let sim: MarketSimulator;
const TOKYO = (date: string, hhmm: string) => new Date(`${date}T${hhmm}:00+09:00`).toISOString();
const DIVIDEND = 3_750;
const T500 = getInstrument('7203')?.is_topix500 ?? false;

beforeAll(async () => {
  t = await createTestApp({ DEMO_MODE: 'true', DEMO_CASH_YEN: '10000000' }, undefined, {
    market: (clock) => (sim = new MarketSimulator({ seed: 7, clock, codes: ['7203'] })),
  });
  await t.database.db.insert(operators).values({
    username: 'exadmin',
    displayName: 'Ex date',
    passwordHash: await hashPassword('operator-password-1'),
    role: 'administrator',
    mustChangePassword: false,
  });
});
afterAll(() => t.close());

async function cumClose(): Promise<number> {
  const bars = await sim.bars('7203', '1d', { limit: 5 });
  const close = bars.find((b) => b.date === '2026-11-26')?.close;
  if (close === undefined) throw new Error('no bar on the cum date');
  return close;
}

describe('a published dividend lowers the price on its ex date', () => {
  it('moves the base price and the limits of the ex date, and orders are checked against them', async () => {
    t.clock.set(TOKYO('2026-11-27', '10:00'));
    const before = sim.quote('7203');
    const close = await cumClose();
    expect(before?.prev_close).toBe(close);

    t.clock.set(TOKYO('2026-11-24', '10:00'));
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/console/login',
      payload: { username: 'exadmin', password: 'operator-password-1' },
    });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/console/dividends',
      headers: { authorization: `Bearer ${body<{ token: string }>(login).data.token}` },
      payload: { code: '7203', per_share: DIVIDEND, record_date: '2026-11-30', payment_date: '2026-12-15' },
    });
    expect(body(res).code, res.body).toBe(1);

    t.clock.set(TOKYO('2026-11-26', '15:30'));
    expect(sim.quote('7203')?.last).toBe(close);
    t.clock.set(TOKYO('2026-11-27', '10:00'));
    const base = close - DIVIDEND;
    const limits = priceLimits(base, T500);
    const quote = sim.quote('7203');
    expect(quote).toMatchObject({ prev_close: base, limit_up: limits.upper, limit_down: limits.lower });
    expect(quote?.last).not.toBe(before?.last);

    const stock = await t.app.inject({ url: '/api/market/stock?code=7203' });
    expect(body<{ quote: { prev_close: number; limit_up: number } }>(stock).data.quote).toMatchObject({
      prev_close: base,
      limit_up: limits.upper,
    });

    // the cum date's limit up is above the ex date's: a buy there is refused with the ex date's limits
    const user = await registerAndLogin(t);
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/trade/placeOrder?lang=en',
      headers: { token: user.token, 'idempotency-key': randomUUID() },
      payload: {
        code: '7203',
        direction: 'long',
        price_type: 'limit',
        price: before?.limit_up,
        quantity: 100,
        leverage: 1,
      },
    });
    expect(body(refused).code, refused.body).toBe(1206);
  });
});
