import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { body, createTestApp, registerAndLogin, type TestApp } from '../../test/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ DEPOSIT_URL: 'https://pay.example.jp/deposit' });
});
afterAll(() => t.close());

const get = (url: string, token?: string) =>
  t.app.inject({ method: 'GET', url, headers: token ? { token } : {} });

describe('GET /api/index/getUserInfo', () => {
  it('answers the caller’s own figures, zero while they have no money', async () => {
    const user = await registerAndLogin(t, { verified: false });
    const res = await get(`/api/index/getUserInfo?user_id=${user.userId}`, user.token);
    expect(res.statusCode).toBe(200);
    expect(body(res)).toMatchObject({
      code: 1,
      msg: 'リクエストに成功しました',
      data: {
        user_id: user.userId,
        phone: `${user.phone.slice(0, 3)}-****-${user.phone.slice(-4)}`,
        real_name_status: 'unverified',
        has_txn_password: false,
        credit_score: 100,
        total_assets: 0,
        available_balance: 0,
        used_funds: 0,
        floating_pl: 0,
      },
    });
  });

  it('refuses another user’s id', async () => {
    const a = await registerAndLogin(t);
    const b = await registerAndLogin(t);
    const res = await get(`/api/index/getUserInfo?user_id=${b.userId}&lang=en`, a.token);
    expect(res.statusCode).toBe(403);
    expect(body(res)).toEqual({ code: 1014, msg: 'You can only view your own account', data: null });
    expect(res.body).not.toContain(b.phone.slice(-4));
  });

  it('rejects a malformed user_id with a named field', async () => {
    const a = await registerAndLogin(t);
    const res = await get('/api/index/getUserInfo?user_id=abc&lang=en', a.token);
    expect(res.statusCode).toBe(400);
    expect(body<{ issues: { field: string }[] }>(res).data.issues[0]?.field).toBe('user_id');
  });
});

describe('demo cash', () => {
  it('comes from the demo-funding account as one balanced journal entry', async () => {
    const demo = await createTestApp({ DEMO_MODE: 'true', DEMO_CASH_YEN: '1000000' });
    try {
      const user = await registerAndLogin(demo);
      const info = body<{ available_balance: number; total_assets: number }>(
        await demo.app.inject({ url: '/api/index/getUserInfo', headers: { token: user.token } }),
      ).data;
      expect(info.available_balance).toBe(100_000_000);
      expect(info.total_assets).toBe(100_000_000);
      const { sql } = await import('drizzle-orm');
      const { postings } = await import('../../db/schema.js');
      const sums = await demo.database.db
        .select({
          entryId: postings.entryId,
          total: sql<string>`sum(${postings.amount})::text`,
          n: sql<number>`count(*)::int`,
        })
        .from(postings)
        .groupBy(postings.entryId);
      expect(sums).toEqual([{ entryId: expect.any(Number) as number, total: '0', n: 2 }]);
    } finally {
      await demo.close();
    }
  });
});

describe('GET /api/index/getCzhiurl', () => {
  it('answers the configured deposit URL', async () => {
    const user = await registerAndLogin(t);
    expect(body(await get('/api/index/getCzhiurl', user.token)).data).toEqual({
      url: 'https://pay.example.jp/deposit',
    });
  });
});

describe('GET /api/index/withdrawal', () => {
  const at = async (iso: string) => {
    t.clock.set(iso);
    const user = await registerAndLogin(t);
    return body<Record<string, unknown>>(
      await get(`/api/index/withdrawal?user_id=${user.userId}`, user.token),
    ).data;
  };

  it('publishes the minimum and the hours, open inside a window; no fee field (never a fee)', async () => {
    const rules = await at('2026-11-24T01:00:00.000Z'); // Tue 10:00 Tokyo
    expect(rules).toMatchObject({
      min_amount: 1_000_000,
      currency: 'JPY',
      time_zone: 'Asia/Tokyo',
      windows: [
        { start: '09:00', end: '11:30' },
        { start: '12:30', end: '15:30' },
      ],
      business_days_only: true,
      open_now: true,
      credited_within_hours: 24,
    });
    expect(rules).not.toHaveProperty('fee');
  });

  it.each([
    ['lunch break → 12:30 the same day', '2026-11-24T02:45:00.000Z', '2026-11-24T03:30:00.000Z'],
    ['after the close → next business day 9:00', '2026-11-24T07:00:00.000Z', '2026-11-25T00:00:00.000Z'],
    ['Saturday → Monday 9:00', '2026-11-28T01:00:00.000Z', '2026-11-30T00:00:00.000Z'],
    ['New Year closure → 4 January (Monday)', '2026-12-31T01:00:00.000Z', '2027-01-04T00:00:00.000Z'],
  ])('is closed at %s', async (_label, now, next) => {
    const rules = await at(now);
    expect(rules['open_now']).toBe(false);
    expect(rules['next_window_start']).toBe(next);
  });
});
