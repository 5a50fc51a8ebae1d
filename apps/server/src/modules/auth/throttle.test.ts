import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  body,
  createTestApp,
  ensureCampaignCode,
  nextPhone,
  registerAndLogin,
  type TestApp,
} from '../../test/harness.js';
import { buildApp } from '../../app.js';
import { describeNeeding } from '../../test/needs.js';
import { loginThrottles, operators, smsDailyCounts } from '../../db/schema.js';
import { sweepThrottles, throttleSweepJob } from './throttle.js';
import { hashPassword } from '../../lib/passwords.js';

/** The failed-login throttle, the login SMS code and the SMS caps (issue 22, ADR 0030). */

const inject = (
  t: TestApp,
  url: string,
  payload: object,
  options: { ip?: string; headers?: Record<string, string> } = {},
) =>
  t.app.inject({
    method: 'POST',
    url,
    payload,
    remoteAddress: options.ip ?? '127.0.0.1',
    ...(options.headers ? { headers: options.headers } : {}),
  });

const login = (t: TestApp, account: string, password: string, extra: object = {}, ip?: string) =>
  inject(t, '/api/auth/login?lang=en', { account, password, agree: true, ...extra }, ip ? { ip } : {});

/** What a client sees of an answer: everything but timing. */
const seen = (response: Awaited<ReturnType<typeof login>>) => ({
  status: response.statusCode,
  retryAfter: response.headers['retry-after'],
  ...body(response),
});

describe('the failed-login throttle', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await ensureCampaignCode(t);
  });
  afterAll(() => t.close());

  it('lets five failures through, then makes each next attempt wait a doubling delay, the right password too', async () => {
    const user = await registerAndLogin(t);
    for (let i = 0; i < 5; i++) expect(body(await login(t, user.phone, 'wrong-pw')).code).toBe(1007);
    const held = await login(t, user.phone, user.password);
    expect(held.statusCode).toBe(429);
    expect(held.headers['retry-after']).toBe('30');
    expect(body(held)).toEqual({
      code: 1701,
      msg: 'Too many failed sign-ins. Try again in 30 seconds, or request an SMS code and sign in with it',
      data: { retry_after_seconds: 30 },
    });
    t.clock.advance(30_000);
    expect(body(await login(t, user.phone, 'wrong-pw')).code).toBe(1007);
    // the sixth failure doubles the wait
    t.clock.advance(59_000);
    expect(body(await login(t, user.phone, user.password)).data).toEqual({ retry_after_seconds: 1 });
    t.clock.advance(1_000);
    expect(body(await login(t, user.phone, user.password)).code).toBe(1);
    // a success clears the account's count
    for (let i = 0; i < 5; i++) expect(body(await login(t, user.phone, 'wrong-pw')).code).toBe(1007);
  });

  it('counts concurrent guesses before checking them: twenty at once get five checks', async () => {
    const user = await registerAndLogin(t);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => login(t, user.phone, `guess-${i}`)),
    );
    const codes = answers.map((a) => body(a).code);
    expect(codes.filter((c) => c === 1007)).toHaveLength(5);
    expect(codes.filter((c) => c === 1701)).toHaveLength(15);
  });

  it('is no lock: the wait never passes the maximum, however many attempts are made', async () => {
    const user = await registerAndLogin(t);
    for (let failures = 0; failures < 12;) {
      const answer = body<{ retry_after_seconds?: number }>(await login(t, user.phone, 'wrong-pw'));
      if (answer.code === 1007) failures += 1;
      else t.clock.advance((answer.data.retry_after_seconds ?? 0) * 1000);
    }
    const last = body<{ retry_after_seconds: number }>(await login(t, user.phone, user.password));
    expect(last.code).toBe(1701);
    expect(last.data.retry_after_seconds).toBeLessThanOrEqual(t.config.LOGIN_MAX_DELAY_SECONDS);
    t.clock.advance(t.config.LOGIN_MAX_DELAY_SECONDS * 1000);
    expect(body(await login(t, user.phone, user.password)).code).toBe(1);
  });

  it('answers an unknown account exactly as a registered one, failing and throttled', async () => {
    const known = await registerAndLogin(t);
    const unknown = nextPhone();
    const answers = async (phone: string) => {
      const seenAnswers = [];
      for (let i = 0; i < 6; i++) seenAnswers.push(seen(await login(t, phone, 'wrong-pw')));
      return seenAnswers;
    };
    const [fromKnown, fromUnknown] = [await answers(known.phone), await answers(unknown)];
    expect(fromUnknown).toEqual(fromKnown);
    expect(fromKnown.map((a) => a.code)).toEqual([1007, 1007, 1007, 1007, 1007, 1701]);
  });

  it('lets the owner in past the throttle with the password and a login SMS code', async () => {
    const user = await registerAndLogin(t);
    for (let i = 0; i < 5; i++) await login(t, user.phone, 'wrong-pw');
    expect(body(await login(t, user.phone, user.password)).code).toBe(1701);
    expect(body(await inject(t, '/api/auth/sendSmsCode', { phone: user.phone, purpose: 'login' })).code).toBe(
      1,
    );
    const code = t.sms.lastCodeFor(user.phone);
    const wrongCode = code === '000000' ? '111111' : '000000';
    expect(body(await login(t, user.phone, user.password, { sms_code: wrongCode })).code).toBe(1003);
    // the code alone is not enough: the password is still checked
    expect(body(await login(t, user.phone, 'wrong-pw', { sms_code: code })).code).toBe(1007);
    expect(body(await login(t, user.phone, user.password, { sms_code: code })).code).toBe(1);
    // used once only
    expect(body(await login(t, user.phone, user.password, { sms_code: code })).code).toBe(1003);
    // and the success cleared the throttle
    expect(body(await login(t, user.phone, user.password)).code).toBe(1);
  });

  it('a login code bounds the guesses made with it to five', async () => {
    const user = await registerAndLogin(t);
    await inject(t, '/api/auth/sendSmsCode', { phone: user.phone, purpose: 'login' });
    const code = t.sms.lastCodeFor(user.phone);
    const codes = [];
    for (let i = 0; i < 5; i++)
      codes.push(body(await login(t, user.phone, `wrong-${i}`, { sms_code: code })).code);
    expect(codes).toEqual([1007, 1007, 1007, 1007, 1007]);
    expect(body(await login(t, user.phone, user.password, { sms_code: code })).code).toBe(1006);
  });

  it('sendSmsCode answers the same for a registered and an unknown number, and texts only the registered one', async () => {
    const user = await registerAndLogin(t);
    const unknown = nextPhone();
    const before = t.sms.sent.length;
    const a = await inject(t, '/api/auth/sendSmsCode', { phone: user.phone, purpose: 'login' });
    const b = await inject(t, '/api/auth/sendSmsCode', { phone: unknown, purpose: 'login' });
    expect(seen(b)).toEqual(seen(a));
    expect(t.sms.sent.slice(before).map((m) => m.phone)).toEqual([user.phone]);
    // an unknown number with a guessed code fails as a registered one does
    expect(seen(await login(t, unknown, 'wrong-pw', { sms_code: '123456' }))).toEqual(
      seen(await login(t, user.phone, 'wrong-pw', { sms_code: '123456' })),
    );
    // registration codes: a taken number gets its code as a free one does
    t.clock.advance(60_000);
    const c = await inject(t, '/api/auth/sendSmsCode', { phone: user.phone });
    const d = await inject(t, '/api/auth/sendSmsCode', { phone: unknown });
    expect(seen(c)).toEqual(seen(d));
  });
});

describe('the client throttle and the X-Forwarded-For header', () => {
  it('slows one client guessing many accounts, not another client', async () => {
    const t = await createTestApp({ LOGIN_CLIENT_FREE_FAILURES: '3' });
    try {
      const user = await registerAndLogin(t);
      for (let i = 0; i < 3; i++)
        expect(body(await login(t, nextPhone(), 'wrong-pw', {}, '203.0.113.9')).code).toBe(1007);
      expect(body(await login(t, user.phone, user.password, {}, '203.0.113.9')).code).toBe(1701);
      expect(body(await login(t, user.phone, user.password, {}, '198.51.100.4')).code).toBe(1);
    } finally {
      await t.close();
    }
  });

  it('with TRUST_PROXY=false, a spoofed X-Forwarded-For does not change the client key', async () => {
    const t = await createTestApp({ LOGIN_CLIENT_FREE_FAILURES: '3' });
    try {
      for (let i = 0; i < 3; i++) {
        const spoofed = { 'x-forwarded-for': `10.0.0.${i + 1}` };
        await inject(
          t,
          '/api/auth/login',
          { account: nextPhone(), password: 'wrong-pw', agree: true },
          {
            ip: '203.0.113.9',
            headers: spoofed,
          },
        );
      }
      const again = await inject(
        t,
        '/api/auth/login',
        { account: nextPhone(), password: 'wrong-pw', agree: true },
        { ip: '203.0.113.9', headers: { 'x-forwarded-for': '10.0.0.99' } },
      );
      expect(body(again).code).toBe(1701);
    } finally {
      await t.close();
    }
  });

  it('with TRUST_PROXY=1, the address the proxy saw is the key, whatever the client prepends', async () => {
    const t = await createTestApp({ LOGIN_CLIENT_FREE_FAILURES: '3', TRUST_PROXY: '1' });
    try {
      const attempt = (forwarded: string) =>
        inject(
          t,
          '/api/auth/login',
          { account: nextPhone(), password: 'wrong-pw', agree: true },
          {
            ip: '192.0.2.1', // the proxy
            headers: { 'x-forwarded-for': forwarded },
          },
        );
      for (let i = 0; i < 3; i++) await attempt(`10.9.9.${i}, 203.0.113.9`);
      expect(body(await attempt('10.9.9.77, 203.0.113.9')).code).toBe(1701);
      // another client behind the same proxy is its own key
      expect(body(await attempt('198.51.100.4')).code).toBe(1007);
    } finally {
      await t.close();
    }
  });
});

describe('the SMS caps (pumping)', () => {
  it('caps the codes one client may ask for in a Tokyo day', async () => {
    const t = await createTestApp({ SMS_DAILY_PER_CLIENT: '2' });
    try {
      const send = (phone: string, ip: string) =>
        inject(t, '/api/auth/sendSmsCode?lang=en', { phone }, { ip });
      expect(body(await send('09011110001', '203.0.113.9')).code).toBe(1);
      expect(body(await send('08022220002', '203.0.113.9')).code).toBe(1);
      const third = await send('07033330003', '203.0.113.9');
      expect(third.statusCode).toBe(429);
      expect(body(third)).toMatchObject({
        code: 1702,
        msg: 'Too many codes have been requested today. Please try again tomorrow',
      });
      expect(body(await send('07033330003', '198.51.100.4')).code).toBe(1);
      t.clock.advance(24 * 3_600_000);
      expect(body(await send('07044440004', '203.0.113.9')).code).toBe(1);
    } finally {
      await t.close();
    }
  });

  it('caps the codes sent to one range of 10,000 numbers, from however many clients', async () => {
    const t = await createTestApp({ SMS_DAILY_PER_RANGE: '2' });
    try {
      const send = (phone: string, ip: string) => inject(t, '/api/auth/sendSmsCode', { phone }, { ip });
      expect(body(await send('09055550001', '203.0.113.1')).code).toBe(1);
      expect(body(await send('09055550002', '203.0.113.2')).code).toBe(1);
      expect(body(await send('09055550003', '203.0.113.3')).code).toBe(1702);
      expect(body(await send('09055560003', '203.0.113.3')).code).toBe(1);
      expect(t.sms.sent.map((m) => m.phone)).toEqual(['09055550001', '09055550002', '09055560003']);
    } finally {
      await t.close();
    }
  });
});

describe('rate limits on every route that checks a secret', () => {
  it('answers 429 in the envelope past the per-client limit on each of them', async () => {
    const t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '2' });
    try {
      const user = await registerAndLogin(t);
      await t.database.db.insert(operators).values({
        username: 'ratelimited',
        displayName: 'Rate limited',
        passwordHash: await hashPassword('operator-password-1'),
        role: 'reviewer',
        mustChangePassword: false,
      });
      const signedIn = await inject(t, '/api/console/login', {
        username: 'ratelimited',
        password: 'operator-password-1',
      });
      const operatorToken = body<{ token: string }>(signedIn).data.token;
      const routes = [
        '/api/auth/login',
        '/api/auth/sendSmsCode',
        '/api/auth/register',
        '/api/user/changePassword',
        '/api/user/setTxnPassword',
        '/api/user/changeTxnPassword',
        '/api/withdrawals',
        '/api/bank-accounts',
        '/api/console/login',
        '/api/console/password',
      ];
      for (const url of routes) {
        const codes = [];
        for (let i = 0; i < 3; i++) {
          const headers = {
            token: user.token,
            authorization: `Bearer ${operatorToken}`,
            'idempotency-key': `k-${url}-${i}`,
          };
          const response = await inject(t, url, {}, { ip: '203.0.113.50', headers });
          codes.push(response.statusCode === 429 ? body(response).code : response.statusCode);
        }
        expect(codes.slice(0, 2), url).not.toContain(429);
        expect(codes[2], url).toBe(429); // the envelope's code, not only the status
      }
    } finally {
      await t.close();
    }
  });
});

describeNeeding('redis', 'the rate-limit store shared across processes', (redisUrl) => {
  it('counts one client across two processes on one Redis', async () => {
    const env = { AUTH_RATE_LIMIT_PER_MINUTE: '2', REDIS_URL: redisUrl, REDIS_PREFIX: `t${Date.now()}:` };
    const a = await createTestApp(env);
    // the second process of the same deployment: same database, same prefix (ADR 0052)
    const second = await buildApp({
      config: a.config,
      database: a.database,
      clock: a.clock,
      sms: a.sms,
      logger: false,
      produceTicks: false,
    });
    await second.ready();
    const b: TestApp = { ...a, app: second, close: () => second.close() };
    try {
      const hit = (t: TestApp) =>
        inject(t, '/api/auth/login', { account: '', password: '', agree: true }, { ip: '203.0.113.77' });
      expect((await hit(a)).statusCode).not.toBe(429);
      expect((await hit(b)).statusCode).not.toBe(429);
      const third = await hit(a);
      expect(third.statusCode).toBe(429);
      expect(body(third).code).toBe(429);
    } finally {
      await b.close();
      await a.close();
    }
  });
});

describe('the sweep of spent throttle rows', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('deletes counters quiet for a day and past SMS days, keeps the live ones, once per Tokyo hour', async () => {
    const now = t.clock.now();
    const hoursAgo = (h: number) => new Date(now.getTime() - h * 3_600_000);
    await t.app.ctx.db.insert(loginThrottles).values([
      // a guessed number typed two days ago: nothing left to throttle
      { key: 'account:old', failures: 3, nextAt: null, blocked: false, updatedAt: hoursAgo(48) },
      { key: 'client:old', failures: 9, nextAt: hoursAgo(40), blocked: false, updatedAt: hoursAgo(41) },
      // failures within the day still count toward the next wait
      { key: 'account:recent', failures: 4, nextAt: null, blocked: false, updatedAt: hoursAgo(2) },
      // a wait that has not ended yet is kept whatever its age
      { key: 'client:waiting', failures: 40, nextAt: hoursAgo(-1), blocked: true, updatedAt: hoursAgo(30) },
    ]);
    const day = (h: number) => new Date(hoursAgo(h).getTime() + 9 * 3_600_000).toISOString().slice(0, 10);
    await t.app.ctx.db.insert(smsDailyCounts).values([
      { key: 'client:x', day: day(72), count: 5 },
      { key: 'client:x', day: day(24), count: 5 },
      { key: 'client:x', day: day(0), count: 5 },
    ]);
    expect(await sweepThrottles(t.app.ctx.db, now)).toEqual({ throttles: 2, sms_days: 1 });
    const keys = (await t.app.ctx.db.select({ key: loginThrottles.key }).from(loginThrottles)).map(
      (r) => r.key,
    );
    expect(keys.sort()).toEqual(['account:recent', 'client:waiting']);
    const days = (await t.app.ctx.db.select({ day: smsDailyCounts.day }).from(smsDailyCounts)).map(
      (r) => r.day,
    );
    expect(days.sort()).toEqual([day(24), day(0)].sort());

    // the scheduled job runs it once per Tokyo hour, however many passes reach it
    await t.app.ctx.db
      .insert(loginThrottles)
      .values({ key: 'account:stale', failures: 1, nextAt: null, blocked: false, updatedAt: hoursAgo(30) });
    const { ctx } = t.app;
    const deps = { clock: ctx.clock, market: ctx.market, fees: ctx.fees, locale: 'ja' as const };
    await throttleSweepJob.run(t.app, deps);
    await t.app.ctx.db
      .insert(loginThrottles)
      .values({ key: 'account:stale2', failures: 1, nextAt: null, blocked: false, updatedAt: hoursAgo(30) });
    await throttleSweepJob.run(t.app, deps);
    const after = (await t.app.ctx.db.select({ key: loginThrottles.key }).from(loginThrottles)).map(
      (r) => r.key,
    );
    expect(after.sort()).toEqual(['account:recent', 'account:stale2', 'client:waiting']);
    t.clock.advance(3_600_000);
    await throttleSweepJob.run(t.app, deps);
    const later = (await t.app.ctx.db.select({ key: loginThrottles.key }).from(loginThrottles)).map(
      (r) => r.key,
    );
    expect(later).not.toContain('account:stale2');
  });
});
