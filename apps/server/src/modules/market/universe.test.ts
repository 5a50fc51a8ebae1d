import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  isValidTick,
  type TInstrument,
  type TMarketList,
  type TOrder,
  type TStockDetail,
} from '@kabuto/contract';
import { referenceData } from '../../market/instruments.js';
import { body, createTestApp, registerAndLogin, type TestApp } from '../../test/harness.js';

/**
 * MARKET_UNIVERSE through the API, with the real simulator at the fixed clock (Tuesday 2026-11-24, 10:00
 * Tokyo: in session). 1301 Kyokuyo (TOPIX Small 1, Prime) is outside the Nikkei 225 and has no
 * calibration row: with `all` its prices come from the derivation rule (ADR 0012); by default it has none.
 */
const get = (t: TestApp, url: string, token?: string) =>
  t.app.inject({ url, headers: token ? { token } : {} });

function placeOrder(t: TestApp, token: string, code: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/trade/placeOrder?lang=en',
    payload: { code, direction: 'long', price_type: 'market', quantity: 100, leverage: 1 },
    headers: { token, 'idempotency-key': randomUUID() },
  });
}

describe('MARKET_UNIVERSE=all', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ MARKET_UNIVERSE: 'all', DEMO_MODE: 'true', DEMO_CASH_YEN: '10000000' });
  });
  afterAll(() => t.close());

  it('quotes a stock outside the Nikkei 225, simulated, on a valid tick', async () => {
    const detail = body<TStockDetail>(await get(t, '/api/market/stock?code=1301')).data;
    expect(detail).toMatchObject({
      code: '1301',
      tradable: true,
      nikkei225: false,
      topix500: false,
      price_basis: 'derived',
    });
    // a Nikkei 225 member keeps its calibration in the wider universe
    expect(body<TStockDetail>(await get(t, '/api/market/stock?code=7203')).data.price_basis).toBe(
      'calibrated',
    );
    const q = detail.quote;
    if (!q) throw new Error('no quote');
    expect(q.simulated).toBe(true);
    expect(q.trading_date).toBe('2026-11-24');
    expect(isValidTick(q.last, false)).toBe(true);
    expect(q.last).toBeGreaterThanOrEqual(q.limit_down);
    expect(q.last).toBeLessThanOrEqual(q.limit_up);
    const search = body<TInstrument[]>(
      await get(t, `/api/market/search?q=${encodeURIComponent('極洋')}`),
    ).data;
    expect(search.find((i) => i.code === '1301')?.tradable).toBe(true);
    const bars = await get(t, '/api/market/bars?code=1301&period=1d&limit=30');
    expect(bars.statusCode).toBe(200);
    expect(body<{ bars: unknown[] }>(bars).data.bars).toHaveLength(30);
  });

  it('lists every listing, sorted over the whole universe, and counts them by sector', async () => {
    const list = async (query: string) => body<TMarketList>(await get(t, `/api/market/list?${query}`)).data;
    const byCode = await list('sort=code&limit=5');
    expect(byCode.total).toBe(3791);
    expect(byCode.items.map((r) => r.code)).toEqual(
      referenceData()
        .instruments.slice(0, 5)
        .map((i) => i.code),
    );
    const gainers = await list('sort=gainers&limit=225');
    const changes = gainers.items.map((r) => r.quote.change_bp);
    expect(changes).toEqual([...changes].sort((a, b) => b - a));
    const last = await list('sort=gainers&limit=225&offset=3700');
    expect(last.items).toHaveLength(91);
    expect(last.items.every((r) => r.quote.change_bp <= (changes.at(-1) ?? 0))).toBe(true);
    const active = (await list('sort=active&limit=225')).items.map((r) => r.quote.volume);
    expect(active).toEqual([...active].sort((a, b) => b - a));
    expect(active.every((v) => v >= 0 && v % 100 === 0)).toBe(true);

    const sectors = body<{ sector: string; count: number }[]>(await get(t, '/api/market/sectors')).data;
    expect(sectors).toHaveLength(33);
    expect(sectors.reduce((n, s) => n + s.count, 0)).toBe(3791);
    // warehousing has no Nikkei 225 member: it appears only in the wider universe
    const warehousing = sectors.find((s) => s.sector === '倉庫・運輸関連業');
    expect(warehousing?.count).toBe(32);
    const inSector = await list(`sector=${encodeURIComponent('倉庫・運輸関連業')}&limit=50`);
    expect(inSector.total).toBe(32);
  });

  it('lets a verified user buy it and watch it', async () => {
    const user = await registerAndLogin(t);
    const order = body<TOrder>(await placeOrder(t, user.token, '1301'));
    expect(order.code).toBe(1);
    expect(order.data).toMatchObject({ code: '1301', status: 'filled', quantity: 100 });
    const ask = body<TStockDetail>(await get(t, '/api/market/stock?code=1301')).data.quote?.ask;
    expect(order.data.fill_price).toBe(ask);
    const watch = await t.app.inject({
      method: 'POST',
      url: '/api/watchlist/add',
      payload: { code: '1301' },
      headers: { token: user.token },
    });
    expect(body(watch).code).toBe(1);
  });

  it('still refuses an unknown code without a server error', async () => {
    const res = await get(t, '/api/market/stock?code=0000&lang=en');
    expect(res.statusCode).toBe(404);
    expect(body(res).code).toBe(1101);
  });
});

describe('MARKET_UNIVERSE by default', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ DEMO_MODE: 'true', DEMO_CASH_YEN: '10000000' });
  });
  afterAll(() => t.close());

  it('answers as before: the Nikkei 225 only, 1301 searchable without prices and not tradable', async () => {
    expect(t.config.MARKET_UNIVERSE).toBe('nikkei225');
    expect(body<TMarketList>(await get(t, '/api/market/list?sort=code&limit=1')).data.total).toBe(225);
    const detail = body<TStockDetail>(await get(t, '/api/market/stock?code=1301')).data;
    expect(detail).toMatchObject({ tradable: false, quote: null, price_basis: null });
    expect(body<TStockDetail>(await get(t, '/api/market/stock?code=7203')).data.price_basis).toBe(
      'calibrated',
    );
    const user = await registerAndLogin(t);
    const res = await placeOrder(t, user.token, '1301');
    expect(res.statusCode).toBe(404);
    expect(body(res).code).toBe(1102);
  });
});
