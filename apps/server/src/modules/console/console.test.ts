import { randomUUID } from 'node:crypto';
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LOGIN_MAX_FAILURES, type TAbout, type TAuditEntry, type TSettings } from '@kabuto/contract';
import { auditLog, operatorSessions, operators } from '../../db/schema.js';
import { hashPassword } from '../../lib/passwords.js';
import {
  body,
  createTestApp,
  nextPhone,
  registerAndLogin,
  TEST_NOW,
  VERIFIED_NAME,
  type TestApp,
} from '../../test/harness.js';
import { TestMarket } from '../../test/test-market.js';
import { deactivateOperator } from './admin.js';

/**
 * The console's administration (settings, invitation codes, operators), its audit log and its read-only
 * user lookup, on a fixed clock (TEST_NOW: Tuesday 2026-11-24 10:00 Tokyo, in session) with demo cash and
 * hand-set prices.
 */
let t: TestApp;
let market: TestMarket;
beforeAll(async () => {
  t = await createTestApp({ DEMO_MODE: 'true', DEMO_CASH_YEN: '1000000', FEE_BP: '0' }, undefined, {
    market: (clock) => (market = new TestMarket(clock)),
  });
});
afterAll(() => t.close());
beforeEach(() => {
  t.clock.set(TEST_NOW);
  market.set('7203', 3100, { prevCloseYen: 3100 });
});

type Headers = Record<string, string>;
const withLang = (url: string) => `${url}${url.includes('?') ? '&' : '?'}lang=en`;
const get = (url: string, headers: Headers) => t.app.inject({ method: 'GET', url: withLang(url), headers });
const post = (url: string, headers: Headers, payload: unknown = {}) =>
  t.app.inject({ method: 'POST', url: withLang(url), headers, payload: payload as object });
const put = (url: string, headers: Headers, payload: unknown) =>
  t.app.inject({ method: 'PUT', url: withLang(url), headers, payload: payload as object });

const PASSWORD = 'operator-password-1';
let opCounter = 0;

/** An operator inserted for the test (password already changed unless told), signed in. */
async function operator(role: 'reviewer' | 'administrator' = 'administrator') {
  opCounter += 1;
  const username = `con${opCounter}`;
  const [row] = await t.database.db
    .insert(operators)
    .values({
      username,
      displayName: `Console ${opCounter}`,
      passwordHash: await hashPassword(PASSWORD),
      role,
      mustChangePassword: false,
    })
    .returning();
  if (!row) throw new Error('no operator');
  const headers = await login(username, PASSWORD);
  return { id: row.id, username, headers };
}

async function login(username: string, password: string): Promise<Headers> {
  const res = await post('/api/console/login', {}, { username, password });
  expect(body(res).code, res.body).toBe(1);
  return { authorization: `Bearer ${body<{ token: string }>(res).data.token}` };
}

async function auditOf(admin: Headers, query: string): Promise<{ total: number; items: TAuditEntry[] }> {
  const res = await get(`/api/console/audit?${query}`, admin);
  expect(res.statusCode, res.body).toBe(200);
  return body<{ total: number; items: TAuditEntry[] }>(res).data;
}

describe('settings', () => {
  it('any operator reads them; an administrator replaces one part, answered whole and audited', async () => {
    const admin = await operator();
    const reviewer = await operator('reviewer');
    const before = body<TSettings>(await get('/api/console/settings', reviewer.headers)).data;
    expect(before.withdrawal.min_yen).toBe(10_000);

    const withdrawal = {
      min_yen: 20_000,
      windows: [{ start: '09:00', end: '15:00' }],
      // the threshold needs a second administrator (four-eyes.test.ts); the rest takes effect at once
      second_approval_over_yen: before.withdrawal.second_approval_over_yen,
    };
    const res = await put('/api/console/settings/withdrawal', admin.headers, withdrawal);
    expect(res.statusCode, res.body).toBe(200);
    const after = body<TSettings>(res).data;
    expect(after).toEqual({ ...before, withdrawal });
    expect(body(await get('/api/console/settings', reviewer.headers)).data).toEqual(after);

    const { items } = await auditOf(admin.headers, 'action=settings.update&target_id=withdrawal');
    expect(items[0]).toMatchObject({
      operator_id: admin.id,
      operator: admin.username,
      target_type: 'settings',
      target_id: 'withdrawal',
      before: before.withdrawal,
      after: withdrawal,
    });

    // the same value again changes nothing and writes nothing
    expect(body(await put('/api/console/settings/withdrawal', admin.headers, withdrawal)).data).toEqual(
      after,
    );
    expect((await auditOf(admin.headers, 'action=settings.update&target_id=withdrawal')).total).toBe(1);

    const channels = [{ name: 'LINE', url: 'https://line.me/R/ti/p/@kabuto', hours: '9:00-17:00' }];
    const cs = await put('/api/console/settings/customer_service', admin.headers, channels);
    expect(body<TSettings>(cs).data.customer_service).toEqual(channels);
  });

  it('publishes the firm’s registration to the app’s about section, which says a demo is not registered', async () => {
    const admin = await operator();
    const demo = body<TAbout>(await t.app.inject({ url: '/api/about' })).data;
    expect(demo).toEqual({
      version: '1.0.0',
      version_code: 100,
      firm: { name: 'Kabuto (demo)', registration: null, associations: [] },
    });
    const firm = {
      name: 'カブト証券株式会社',
      registration: '関東財務局長（金商）第9999号',
      associations: ['日本証券業協会'],
    };
    expect((await put('/api/console/settings/firm', admin.headers, firm)).statusCode).toBe(200);
    expect(body<TAbout>(await t.app.inject({ url: '/api/about' })).data.firm).toEqual(firm);
    const blank = await put('/api/console/settings/firm', admin.headers, { ...firm, name: ' ' });
    expect(blank.statusCode).toBe(400);
    expect((await auditOf(admin.headers, 'action=settings.update&target_id=firm')).total).toBe(1);
  });

  it('refuses bad values with a localized validation error naming the field, and unknown parts', async () => {
    const admin = await operator();
    const backwards = await put('/api/console/settings/withdrawal', admin.headers, {
      min_yen: 10_000,
      windows: [{ start: '15:00', end: '09:00' }],
      second_approval_over_yen: 0,
    });
    expect(backwards.statusCode).toBe(400);
    const issues = body<{ issues: { field: string }[] }>(backwards).data.issues;
    expect(body(backwards).code).toBe(400);
    expect(issues.map((i) => i.field)).toContain('windows.0.end');

    const ja = await t.app.inject({
      method: 'PUT',
      url: '/api/console/settings/deposit?lang=jp',
      headers: admin.headers,
      payload: { url: 'http://insecure.example', bank_name: 'x' },
    });
    expect(ja.statusCode).toBe(400);
    expect(body(ja).msg).not.toMatch(/^[\x20-\x7e]+$/); // Japanese, not an English fallback

    const notAnObject = await t.app.inject({
      method: 'PUT',
      url: '/api/console/settings/withdrawal?lang=en',
      headers: { ...admin.headers, 'content-type': 'application/json' },
      payload: '"nonsense"',
    });
    expect(notAnObject.statusCode).toBe(400);
    const broken = await t.app.inject({
      method: 'PUT',
      url: '/api/console/settings/withdrawal?lang=en',
      headers: { ...admin.headers, 'content-type': 'application/json' },
      payload: '{"min_yen":',
    });
    expect(broken.statusCode).toBe(400);
    const unknown = await put('/api/console/settings/fees', admin.headers, {});
    expect(unknown.statusCode).toBe(404);
    expect(body(unknown)).toMatchObject({ code: 404 });
  });
});

async function register(code: string) {
  const phone = nextPhone();
  await post('/api/auth/sendSmsCode', {}, { phone });
  return post(
    '/api/auth/register',
    {},
    {
      phone,
      password: 'kbt7secret',
      password_confirm: 'kbt7secret',
      invite_code: code,
      sms_code: t.sms.lastCodeFor(phone),
    },
  );
}

describe('invitation codes', () => {
  it('an administrator creates a campaign code, registration accepts it until it is deactivated', async () => {
    const admin = await operator();
    const reviewer = await operator('reviewer');
    const created = await post('/api/console/invitation-codes', admin.headers, {
      code: 'spring2026',
      note: 'Spring campaign',
    });
    expect(created.statusCode, created.body).toBe(200);
    expect(body(created).data).toMatchObject({
      code: 'SPRING2026',
      kind: 'campaign',
      owner_user_id: null,
      active: true,
      note: 'Spring campaign',
    });
    const again = await post('/api/console/invitation-codes', admin.headers, { code: 'SPRING2026' });
    expect(again.statusCode).toBe(409);
    expect(body(again)).toMatchObject({ code: 1405, msg: 'This invitation code already exists' });
    const bad = await post('/api/console/invitation-codes', admin.headers, { code: 'no spaces!' });
    expect(body(bad)).toMatchObject({ code: 400, msg: 'An invitation code has only letters and digits' });

    const page = body<{ total: number; items: { code: string }[] }>(
      await get('/api/console/invitation-codes?limit=200', reviewer.headers),
    ).data;
    expect(page.items.map((c) => c.code)).toContain('SPRING2026');
    expect(page.total).toBeGreaterThanOrEqual(page.items.length);

    expect(body(await register('spring2026')).code).toBe(1);

    const off = await post('/api/console/invitation-codes/spring2026/deactivate', admin.headers);
    expect(body(off).data).toMatchObject({ code: 'SPRING2026', active: false });
    expect(body(await register('SPRING2026'))).toMatchObject({ code: 1002 });

    // deactivating again changes nothing and writes nothing
    expect(body(await post('/api/console/invitation-codes/SPRING2026/deactivate', admin.headers)).code).toBe(
      1,
    );
    const trail = await auditOf(admin.headers, 'target_type=invitation_code&target_id=SPRING2026');
    expect(trail.items.map((e) => e.action)).toEqual([
      'invitation_code.deactivate',
      'invitation_code.create',
    ]);
    expect(trail.items[0]).toMatchObject({ before: { active: true }, after: { active: false } });

    const missing = await post('/api/console/invitation-codes/NOSUCH/deactivate', admin.headers);
    expect(missing.statusCode).toBe(404);
  });

  it('deactivates a user’s own code, on that user’s audit trail', async () => {
    const admin = await operator();
    const owner = await registerAndLogin(t);
    const info = body<{ invitation_code: string }>(
      await t.app.inject({ url: '/api/index/getUserInfo', headers: { token: owner.token } }),
    ).data;
    expect(body(await register(info.invitation_code)).code).toBe(1);
    await post(`/api/console/invitation-codes/${info.invitation_code}/deactivate`, admin.headers);
    expect(body(await register(info.invitation_code)).code).toBe(1002);
    const trail = await auditOf(admin.headers, `user_id=${owner.userId}&action=invitation_code`);
    expect(trail.items).toHaveLength(1);
  });
});

describe('operators', () => {
  it('creates an operator whose one-time password must be changed before anything else', async () => {
    const admin = await operator();
    const res = await post('/api/console/operators', admin.headers, {
      username: 'alice.k',
      display_name: 'Alice',
      role: 'reviewer',
    });
    expect(res.statusCode, res.body).toBe(200);
    const created = body<{
      operator: { id: number; must_change_password: boolean };
      one_time_password: string;
    }>(res).data;
    expect(created.operator).toMatchObject({ must_change_password: true, active: true });
    expect(created.one_time_password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    const dup = await post('/api/console/operators', admin.headers, {
      username: 'alice.k',
      display_name: 'Another',
      role: 'administrator',
    });
    expect(body(dup)).toMatchObject({ code: 1404 });
    const badName = await post('/api/console/operators', admin.headers, {
      username: 'Alice K',
      display_name: 'A',
      role: 'reviewer',
    });
    expect(body(badName).code).toBe(400);
    const badRole = await post('/api/console/operators', admin.headers, {
      username: 'carol',
      display_name: 'C',
      role: 'root',
    });
    expect(body(badRole).code).toBe(400);

    const alice = await login('alice.k', created.one_time_password);
    expect(body(await get('/api/console/me', alice)).data).toMatchObject({ must_change_password: true });
    const blocked = await get('/api/console/users', alice);
    expect(blocked.statusCode).toBe(403);
    expect(body(blocked)).toMatchObject({ code: 1403 });
    const changed = await post('/api/console/password', alice, {
      old_password: created.one_time_password,
      new_password: 'alice-new-password',
    });
    expect(body(changed).data).toMatchObject({ must_change_password: false });
    expect((await get('/api/console/users', alice)).statusCode).toBe(200);

    const list = body<{ items: { username: string }[] }>(
      await get('/api/console/operators', admin.headers),
    ).data;
    expect(list.items.map((o) => o.username)).toEqual(expect.arrayContaining(['alice.k', admin.username]));

    const [entry] = (await auditOf(admin.headers, `action=operator.create&target_id=${created.operator.id}`))
      .items;
    expect(entry).toMatchObject({
      operator_id: admin.id,
      after: { username: 'alice.k', display_name: 'Alice', role: 'reviewer' },
    });
    expect(JSON.stringify(entry)).not.toContain(created.one_time_password);
  });

  it('a deactivated operator’s sessions stop working and it cannot sign in again', async () => {
    const admin = await operator();
    const bob = await operator('reviewer');
    const second = await login(bob.username, PASSWORD);
    expect((await get('/api/console/users', bob.headers)).statusCode).toBe(200);

    const res = await post(`/api/console/operators/${bob.id}/deactivate`, admin.headers);
    expect(body(res).data).toMatchObject({ id: bob.id, active: false });
    for (const headers of [bob.headers, second]) {
      const after = await get('/api/console/users', headers);
      expect(after.statusCode).toBe(401);
      expect(body(after).code).toBe(401);
    }
    const again = await post('/api/console/login', {}, { username: bob.username, password: PASSWORD });
    expect(body(again).code).toBe(1401);
    const live = await t.database.db
      .select()
      .from(operatorSessions)
      .where(eq(operatorSessions.operatorId, bob.id));
    expect(live.every((s) => s.revokedAt !== null)).toBe(true);

    const [entry] = (await auditOf(admin.headers, `action=operator.deactivate&target_id=${bob.id}`)).items;
    expect(entry).toMatchObject({ before: { active: true }, after: { active: false, sessions_revoked: 2 } });
    // again: nothing changes, nothing is written
    await post(`/api/console/operators/${bob.id}/deactivate`, admin.headers);
    expect((await auditOf(admin.headers, `action=operator.deactivate&target_id=${bob.id}`)).total).toBe(1);
    expect((await post('/api/console/operators/999999/deactivate', admin.headers)).statusCode).toBe(404);
    expect(body(await post('/api/console/operators/abc/deactivate', admin.headers)).code).toBe(400);
  });

  it('an administrator cannot deactivate themselves, and the last active administrator stays', async () => {
    const a = await operator();
    const b = await operator();
    const self = await post(`/api/console/operators/${a.id}/deactivate`, a.headers);
    expect(self.statusCode).toBe(409);
    expect(body(self)).toMatchObject({ code: 1406, msg: 'You cannot deactivate your own account' });

    // Every other administrator first (b among them), then b — already deactivated — tries a.
    const others = await t.database.db.select().from(operators).where(eq(operators.role, 'administrator'));
    for (const o of others.filter((o) => o.id !== a.id && o.active)) {
      expect(body(await post(`/api/console/operators/${o.id}/deactivate`, a.headers)).code).toBe(1);
    }
    const principal = {
      ...b,
      displayName: 'b',
      role: 'administrator' as const,
      mustChangePassword: false,
      hasPasskey: false,
    };
    await expect(
      t.database.db.transaction((tx) =>
        deactivateOperator(tx, { clock: t.clock, operator: { ...principal, sessionId: 0 } }, a.id),
      ),
    ).rejects.toMatchObject({ errorName: 'OPERATOR_LAST_ADMIN' });
    const [row] = await t.database.db.select().from(operators).where(eq(operators.id, a.id));
    expect(row?.active).toBe(true);
  });

  it('two administrators deactivating each other at once leave one of them active', async () => {
    // test setup: these two are the only active administrators
    await t.database.db.update(operators).set({ active: false }).where(eq(operators.role, 'administrator'));
    const a = await operator();
    const b = await operator();
    const [ra, rb] = await Promise.all([
      post(`/api/console/operators/${b.id}/deactivate`, a.headers),
      post(`/api/console/operators/${a.id}/deactivate`, b.headers),
    ]);
    const codes = [body(ra).code, body(rb).code];
    expect(codes.filter((c) => c === 1)).toHaveLength(1);
    const rows = await t.database.db
      .select()
      .from(operators)
      .where(sql`${operators.id} in (${a.id}, ${b.id})`);
    expect(rows.filter((r) => r.active)).toHaveLength(1);
  });

  it('locks after repeated failed sign-ins; an administrator unlocks, or the lock ends by itself', async () => {
    const admin = await operator();
    const carol = await operator('reviewer');
    for (let i = 0; i < LOGIN_MAX_FAILURES; i += 1) {
      const res = await post(
        '/api/console/login',
        {},
        { username: carol.username, password: 'wrong-password' },
      );
      expect(body(res).code).toBe(1401);
    }
    const locked = await post('/api/console/login', {}, { username: carol.username, password: PASSWORD });
    expect(locked.statusCode).toBe(423);
    expect(body(locked).code).toBe(1402);
    const listed = body<{ items: { id: number; locked_until: string | null }[] }>(
      await get('/api/console/operators', admin.headers),
    ).data.items.find((o) => o.id === carol.id);
    expect(listed?.locked_until).not.toBeNull();

    const unlocked = await post(`/api/console/operators/${carol.id}/unlock`, admin.headers);
    expect(body(unlocked).data).toMatchObject({ id: carol.id, locked_until: null });
    await login(carol.username, PASSWORD);
    const [entry] = (await auditOf(admin.headers, `action=operator.unlock&target_id=${carol.id}`)).items;
    expect(entry).toMatchObject({ after: { locked_until: null, failed_logins: 0 } });
    expect((entry?.before as { locked_until: string | null }).locked_until).not.toBeNull();

    for (let i = 0; i < LOGIN_MAX_FAILURES; i += 1) {
      await post('/api/console/login', {}, { username: carol.username, password: 'wrong-password' });
    }
    expect(
      body(await post('/api/console/login', {}, { username: carol.username, password: PASSWORD })).code,
    ).toBe(1402);
    t.clock.advance(t.config.LOGIN_LOCK_MINUTES * 60_000 + 1000);
    await login(carol.username, PASSWORD);
  });
});

describe('the audit log', () => {
  it('filters by operator, action (or its prefix), target, user and Tokyo dates, newest first', async () => {
    const admin = await operator();
    await post('/api/console/invitation-codes', admin.headers, { code: 'AUDIT01' });
    await post('/api/console/invitation-codes', admin.headers, { code: 'AUDIT02' });
    const mine = await auditOf(admin.headers, `operator_id=${admin.id}`);
    expect(mine.items.map((e) => e.action)).toEqual([
      'invitation_code.create',
      'invitation_code.create',
      'operator.login',
    ]);
    expect(mine.items[0]?.target_id).toBe('AUDIT02');
    expect((await auditOf(admin.headers, `operator_id=${admin.id}&action=invitation_code`)).total).toBe(2);
    expect((await auditOf(admin.headers, `operator_id=${admin.id}&action=invitation_`)).total).toBe(0);
    expect((await auditOf(admin.headers, `operator_id=${admin.id}&action=operator.login`)).total).toBe(1);
    expect((await auditOf(admin.headers, 'target_type=invitation_code&target_id=AUDIT01')).total).toBe(1);
    expect(
      (await auditOf(admin.headers, `operator_id=${admin.id}&from=2026-11-24&to=2026-11-24`)).total,
    ).toBe(3);
    expect((await auditOf(admin.headers, `operator_id=${admin.id}&from=2026-11-25`)).total).toBe(0);
    expect((await auditOf(admin.headers, `operator_id=${admin.id}&to=2026-11-23`)).total).toBe(0);
    const paged = await auditOf(admin.headers, `operator_id=${admin.id}&limit=1&offset=1`);
    expect(paged).toMatchObject({ total: 3, items: [{ target_id: 'AUDIT01' }] });

    const bad = await get('/api/console/audit?from=yesterday&limit=0', admin.headers);
    expect(bad.statusCode).toBe(400);
    expect(body<{ issues: { field: string }[] }>(bad).data.issues.map((i) => i.field)).toEqual(
      expect.arrayContaining(['from']),
    );
  });

  it('is append-only: the database refuses UPDATE and DELETE', async () => {
    await operator();
    const { db } = t.database;
    /** The database's own refusal (drizzle wraps it as the cause of a "Failed query" error). */
    const refusal = async (statement: Promise<unknown>) => {
      try {
        await statement;
        return 'accepted';
      } catch (error) {
        const cause = (error as { cause?: unknown }).cause;
        return `${String(error)} ${cause instanceof Error ? cause.message : ''}`;
      }
    };
    expect(await refusal(db.execute(sql`update audit_log set reason = 'edited'`))).toMatch(/append-only/);
    expect(await refusal(db.execute(sql`delete from audit_log`))).toMatch(/append-only/);
    const [row] = await db.select({ n: count() }).from(auditLog).where(eq(auditLog.reason, 'edited'));
    expect(row?.n).toBe(0);
    expect((await db.select({ n: count() }).from(auditLog))[0]?.n).toBeGreaterThan(0);
  });
});

describe('user lookup (read only)', () => {
  async function tradingUser() {
    const u = await registerAndLogin(t);
    const order = await post(
      '/api/trade/placeOrder',
      { token: u.token, 'idempotency-key': randomUUID() },
      { code: '7203', direction: 'long', price_type: 'market', quantity: 100, leverage: 1 },
    );
    expect(body(order).data).toMatchObject({ status: 'filled' });
    return u;
  }

  it('finds users by phone, part of it, user id or verified name', async () => {
    const reviewer = await operator('reviewer');
    const u = await registerAndLogin(t);
    const ids = async (q: string) =>
      body<{ items: { user_id: number }[] }>(
        await get(`/api/console/users?q=${encodeURIComponent(q)}&limit=100`, reviewer.headers),
      ).data.items.map((r) => r.user_id);
    expect(await ids(u.phone)).toEqual([u.userId]);
    expect(await ids(`+81 ${u.phone.slice(1, 3)}-${u.phone.slice(3, 7)}-${u.phone.slice(7)}`)).toContain(
      u.userId,
    );
    expect(await ids(u.phone.slice(-6))).toContain(u.userId);
    expect(await ids(String(u.userId))).toContain(u.userId);
    expect(await ids(VERIFIED_NAME.replace(' ', ''))).toContain(u.userId);
    expect(await ids('山田')).toContain(u.userId);
    expect(await ids('nobody-by-this-name')).toEqual([]);
    expect(await ids('100%_')).toEqual([]);
    const row = body<{ items: unknown[] }>(await get(`/api/console/users?q=${u.phone}`, reviewer.headers))
      .data.items[0];
    expect(row).toMatchObject({
      user_id: u.userId,
      phone: u.phone,
      real_name_status: 'passed',
      full_name: VERIFIED_NAME,
    });
    const all = body<{ total: number; items: unknown[] }>(
      await get('/api/console/users?limit=2', reviewer.headers),
    ).data;
    expect(all.items).toHaveLength(2);
    expect(all.total).toBeGreaterThan(2);
    expect(body(await get('/api/console/users?limit=1000', reviewer.headers)).code).toBe(400);
  });

  it('shows one user whole, and audits the look', async () => {
    const reviewer = await operator('reviewer');
    const u = await tradingUser();
    const res = await get(`/api/console/users/${u.userId}`, reviewer.headers);
    expect(res.statusCode, res.body).toBe(200);
    const user = body<{
      balances: { cash: number };
      identity: { status: string } | null;
      messages: unknown[];
      invitation_code: string;
    }>(res).data;
    expect(user).toMatchObject({
      user_id: u.userId,
      phone: u.phone,
      real_name_status: 'passed',
      full_name: VERIFIED_NAME,
      identity: { status: 'passed', full_name: VERIFIED_NAME },
      bank_accounts: [],
      deposits: [],
      withdrawals: [],
    });
    expect(user.balances.cash).toBe((1_000_000 - 310_100) * 100);
    const trail = await auditOf(reviewer.headers, `user_id=${u.userId}&action=user.view`);
    expect(trail.items[0]).toMatchObject({
      operator_id: reviewer.id,
      target_type: 'user',
      target_id: String(u.userId),
    });
  });

  it('answers the user’s ledger, statement, orders and positions exactly as the user sees them', async () => {
    const reviewer = await operator('reviewer');
    const u = await tradingUser();
    const own = (url: string) => t.app.inject({ url: withLang(url), headers: { token: u.token } });

    for (const query of ['', '?kind=buy', '?limit=1&offset=1', '?from=2026-11-24&to=2026-11-24']) {
      const mine = body(await own(`/api/ledger/entries${query}`)).data;
      const seen = body(await get(`/api/console/users/${u.userId}/ledger${query}`, reviewer.headers)).data;
      expect(seen, query).toEqual(mine);
    }
    expect(
      body<{ total: number }>(await get(`/api/console/users/${u.userId}/ledger`, reviewer.headers)).data
        .total,
    ).toBeGreaterThan(1);

    const statement = await get(`/api/console/users/${u.userId}/statement`, reviewer.headers);
    expect(statement.statusCode).toBe(200);
    expect(statement.headers['content-type']).toContain('text/csv');
    expect(statement.headers['content-disposition']).toContain(`kabuto-statement-${u.userId}-`);
    expect(statement.body).toBe((await own('/api/ledger/statement')).body);
    const [entry] = (await auditOf(reviewer.headers, `user_id=${u.userId}&action=user.statement`)).items;
    expect(entry).toMatchObject({ operator_id: reviewer.id, after: { from: null, to: null } });

    const orders = body<unknown[]>(
      await get(`/api/console/users/${u.userId}/orders?status=all`, reviewer.headers),
    );
    expect(orders.data).toHaveLength(1);
    expect(orders.data).toEqual(body(await own('/api/trade/orders?status=all')).data);
    for (const status of ['holding', 'closed']) {
      const seen = body<unknown[]>(
        await get(`/api/console/users/${u.userId}/positions?status=${status}`, reviewer.headers),
      ).data;
      expect(seen).toEqual(body(await own(`/api/trade/positions?status=${status}`)).data);
      expect(seen).toHaveLength(status === 'holding' ? 1 : 0);
    }
    expect(
      body(await get(`/api/console/users/${u.userId}/positions?status=open`, reviewer.headers)).code,
    ).toBe(400);
  });

  it('answers 404 in the envelope for an unknown user, and 400 for a malformed id', async () => {
    const reviewer = await operator('reviewer');
    for (const tail of ['', '/ledger', '/statement', '/orders', '/positions']) {
      const res = await get(`/api/console/users/99999999${tail}`, reviewer.headers);
      expect(res.statusCode, tail).toBe(404);
      expect(body(res), tail).toMatchObject({ code: 1408, msg: 'No such user', data: null });
      const bad = await get(`/api/console/users/abc${tail}`, reviewer.headers);
      expect(bad.statusCode, tail).toBe(400);
      expect(body(bad).code).toBe(400);
    }
    expect(body(await get('/api/console/users/99999999999', reviewer.headers)).code).toBe(400);
  });
});
