import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TIndexQuote, TMarketList, TMarketStatus, TStockDetail, TInstrument } from '@kabuto/contract';
import { body, createTestApp, registerAndLogin, type TestApp } from '../../test/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const get = (url: string, token?: string) => t.app.inject({ url, headers: token ? { token } : {} });
const post = (url: string, payload: object, token?: string) =>
  t.app.inject({ method: 'POST', url, payload, headers: token ? { token } : {} });

describe('market status and indices', () => {
  it('reports the session at the fixed clock (Tue 10:00 Tokyo: morning session) and says prices are simulated', async () => {
    const status = body<TMarketStatus>(await get('/api/market/status')).data;
    expect(status).toMatchObject({
      phase: 'morning',
      continuous: true,
      always_open: false,
      simulated: true,
      trading_date: '2026-11-24',
      stale_after_ms: 5000,
    });
    t.clock.set('2026-11-28T01:00:00.000Z'); // Saturday
    const weekend = body<TMarketStatus>(await get('/api/market/status')).data;
    expect(weekend).toMatchObject({
      phase: 'closed',
      continuous: false,
      next_open: '2026-11-30T00:00:00.000Z',
    });
    t.clock.set('2026-11-24T01:00:00.000Z');
  });

  it('answers the Nikkei 225 and TOPIX with names in the request language', async () => {
    const ja = body<TIndexQuote[]>(await get('/api/market/indices?lang=jp')).data;
    expect(ja.map((i) => i.id).sort()).toEqual(['nikkei225', 'topix']);
    expect(ja.find((i) => i.id === 'nikkei225')?.name).toBe('日経平均株価');
    const en = body<TIndexQuote[]>(await get('/api/market/indices?lang=en')).data;
    expect(en.find((i) => i.id === 'nikkei225')?.name).toBe('Nikkei 225');
    expect(en.every((i) => i.simulated && i.level > 0)).toBe(true);
  });
});

describe('lists', () => {
  it('sorts the demo universe by gainers, losers, volume and turnover', async () => {
    const list = async (sort: string) =>
      body<TMarketList>(await get(`/api/market/list?sort=${sort}&limit=225`)).data;
    const gainers = await list('gainers');
    expect(gainers.total).toBe(225);
    const changes = gainers.items.map((r) => r.quote.change_bp);
    expect(changes).toEqual([...changes].sort((a, b) => b - a));
    const losers = (await list('losers')).items.map((r) => r.quote.change_bp);
    expect(losers).toEqual([...losers].sort((a, b) => a - b));
    const volumes = (await list('active')).items.map((r) => r.quote.volume);
    expect(volumes).toEqual([...volumes].sort((a, b) => b - a));
    const turnovers = (await list('turnover')).items.map((r) => r.quote.turnover);
    expect(turnovers).toEqual([...turnovers].sort((a, b) => b - a));
  });

  it('pages, filters by sector in either language, and names stocks in the request language', async () => {
    const page = body<TMarketList>(await get('/api/market/list?sort=code&limit=10&offset=10')).data;
    expect(page.items).toHaveLength(10);
    const sectors = body<{ sector: string; name: string; count: number }[]>(
      await get('/api/market/sectors?lang=en'),
    ).data;
    expect(sectors.reduce((n, s) => n + s.count, 0)).toBe(225);
    const banks = sectors.find((s) => s.sector === '銀行業');
    expect(banks?.name).toBe('Banks');
    const inBanks = body<TMarketList>(
      await get(`/api/market/list?sector=${encodeURIComponent('銀行業')}&lang=en`),
    ).data;
    expect(inBanks.total).toBe(banks?.count);
    expect(inBanks.items.every((r) => r.sector === 'Banks')).toBe(true);
    const toyotaJa = body<TStockDetail>(await get('/api/market/stock?code=7203&lang=cn')).data;
    expect(toyotaJa.name).toBe('トヨタ自動車');
    const toyotaEn = body<TStockDetail>(await get('/api/market/stock?code=7203&lang=sp')).data;
    expect(toyotaEn.name).toMatch(/TOYOTA/i);
  });

  it('refuses a bad sort, limit or code with a named field', async () => {
    for (const [url, field] of [
      ['/api/market/list?sort=best', 'sort'],
      ['/api/market/list?limit=0', 'limit'],
      ['/api/market/list?limit=abc', 'limit'],
      ['/api/market/stock?code=72', 'code'],
      ['/api/market/bars?code=7203&period=2h', 'period'],
      ['/api/market/search', 'q'],
    ] as const) {
      const res = await get(`${url}&lang=en`.replace('search&', 'search?'));
      expect(res.statusCode, url).toBe(400);
      expect(body<{ issues: { field: string }[] }>(res).data.issues[0]?.field, url).toBe(field);
    }
  });
});

describe('stock detail and bars', () => {
  it('answers a consistent quote on valid ticks', async () => {
    const d = body<TStockDetail>(await get('/api/market/stock?code=7203')).data;
    expect(d.tradable).toBe(true);
    const q = d.quote;
    expect(q).not.toBeNull();
    if (!q) return;
    expect(q.low).toBeLessThanOrEqual(q.last);
    expect(q.high).toBeGreaterThanOrEqual(q.last);
    expect(q.ask).toBeGreaterThan(q.bid);
    expect(q.last).toBeLessThanOrEqual(q.limit_up);
    expect(q.last).toBeGreaterThanOrEqual(q.limit_down);
    expect(q.change).toBe(q.last - q.prev_close);
    expect(q.simulated).toBe(true);
  });

  it('knows listed stocks outside the demo universe but has no prices for them', async () => {
    const search = body<TInstrument[]>(await get(`/api/market/search?q=${encodeURIComponent('極洋')}`)).data;
    const kyokuyo = search.find((i) => i.code === '1301');
    expect(kyokuyo?.tradable).toBe(false);
    const detail = body<TStockDetail>(await get('/api/market/stock?code=1301')).data;
    expect(detail.quote).toBeNull();
    const bars = await get('/api/market/bars?code=1301&period=1d&lang=en');
    expect(body(bars)).toMatchObject({ code: 1102 });
    expect(body(await get('/api/market/stock?code=0000')).code).toBe(1101);
  });

  it.each(['intraday', '1m', '5m', '7m', '15m', '30m', '45m', '1d', '1w', '1mo'])(
    'serves %s bars, oldest first, OHLC-consistent',
    async (period) => {
      const res = await get(`/api/market/bars?code=6758&period=${period}&limit=300`);
      expect(res.statusCode).toBe(200);
      const bars = body<{ bars: { time: string; open: number; high: number; low: number; close: number }[] }>(
        res,
      ).data.bars;
      expect(bars.length).toBeGreaterThan(0);
      for (const b of bars) {
        expect(b.low).toBeLessThanOrEqual(Math.min(b.open, b.close));
        expect(b.high).toBeGreaterThanOrEqual(Math.max(b.open, b.close));
      }
      const times = bars.map((b) => b.time);
      expect(times).toEqual([...times].sort());
    },
  );

  it('has two years of daily history', async () => {
    const bars = body<{ bars: { date: string }[] }>(
      await get('/api/market/bars?code=7203&period=1d&limit=5000'),
    ).data.bars;
    expect(bars[0]?.date.localeCompare('2024-11-24')).toBeLessThanOrEqual(0);
  });
});

describe('search', () => {
  it.each([
    ['7203', '7203'],
    ['とよた', '7203'],
    ['ﾄﾖﾀ', '7203'],
    ['TOYOTA', '7203'],
    ['ｿﾆｰ', '6758'],
    ['6758', '6758'],
  ])('finds %s', async (q, code) => {
    const results = body<TInstrument[]>(await get(`/api/market/search?q=${encodeURIComponent(q)}`)).data;
    expect(results[0]?.code).toBe(code);
  });

  it('searches all 3,791 listings', async () => {
    const results = body<TInstrument[]>(await get(`/api/market/search?q=130A`)).data;
    expect(results[0]?.code).toBe('130A');
  });
});

describe('watchlist and search history (the user’s own)', () => {
  it('adds, lists and removes, and the list shows the stars', async () => {
    const user = await registerAndLogin(t);
    expect(body(await post('/api/watchlist/add', { code: '7203' }, user.token)).data).toEqual({
      code: '7203',
      watched: true,
    });
    await post('/api/watchlist/add', { code: '6758' }, user.token);
    await post('/api/watchlist/add', { code: '6758' }, user.token);
    const list = body<{ code: string; watched: boolean }[]>(
      await get('/api/watchlist/list', user.token),
    ).data;
    expect(list.map((r) => r.code).sort()).toEqual(['6758', '7203']);
    const rows = body<TMarketList>(await get('/api/market/list?sort=code&limit=225', user.token)).data.items;
    expect(
      rows
        .filter((r) => r.watched)
        .map((r) => r.code)
        .sort(),
    ).toEqual(['6758', '7203']);
    const anonymous = body<TMarketList>(await get('/api/market/list?sort=code&limit=225')).data.items;
    expect(anonymous.some((r) => r.watched)).toBe(false);
    await post('/api/watchlist/remove', { code: '7203' }, user.token);
    expect(
      body<{ code: string }[]>(await get('/api/watchlist/list', user.token)).data.map((r) => r.code),
    ).toEqual(['6758']);
    const other = await registerAndLogin(t);
    expect(body<unknown[]>(await get('/api/watchlist/list', other.token)).data).toEqual([]);
    expect(body(await post('/api/watchlist/add', { code: '1301' }, user.token)).code).toBe(1102);
  });

  it('keeps the newest 20 distinct searches per user and clears them', async () => {
    const user = await registerAndLogin(t);
    for (let i = 0; i < 22; i++) {
      t.clock.advance(1000);
      await post('/api/search/addHistory', { query: `q${i}` }, user.token);
    }
    t.clock.advance(1000);
    await post('/api/search/addHistory', { query: 'q5' }, user.token);
    const history = body<{ query: string }[]>(await get('/api/search/history', user.token)).data;
    expect(history).toHaveLength(20);
    expect(history[0]?.query).toBe('q5');
    expect(history.map((h) => h.query)).not.toContain('q0');
    const other = await registerAndLogin(t);
    expect(body<unknown[]>(await get('/api/search/history', other.token)).data).toEqual([]);
    await post('/api/search/clearHistory', {}, user.token);
    expect(body<unknown[]>(await get('/api/search/history', user.token)).data).toEqual([]);
  });
});
