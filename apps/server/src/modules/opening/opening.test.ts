import { signInOperator } from '../../test/operators.js';
import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_OPENING_SETTINGS,
  type TBrokerageAccount,
  type TIdentityApplication,
} from '@kabuto/contract';
import { loadConfig } from '../../config.js';
import { identityVerifications, uploads, users } from '../../db/schema.js';
import { multipart, pngBytes } from '../../lib/images.js';
import {
  applicationPayload,
  body,
  createTestApp,
  markVerified,
  registerAndLogin,
  SAMPLE_MY_NUMBER,
  SUITABLE_PROFILE,
  TEST_NOW,
  type TestApp,
} from '../../test/harness.js';
import { TestMarket } from '../../test/test-market.js';
import { decryptMyNumber, encryptMyNumber, loadMyNumberKey, myNumberKeyPath } from './my-number.js';

/**
 * Account opening (ADR 0022) on a fixed clock (TEST_NOW: Tuesday 2026-11-24, 10:00 in Tokyo): the
 * application through the real-name endpoint, the review that opens the brokerage account, the order
 * path's refusal before it is open and of margin without suitability, and the audited My Number reveal.
 */
let t: TestApp;
let market: TestMarket;
beforeAll(async () => {
  t = await createTestApp({ DEMO_MODE: 'true', DEMO_CASH_YEN: '10000000' }, undefined, {
    market: (clock) => (market = new TestMarket(clock)),
  });
});
afterAll(() => t.close());
beforeEach(() => {
  t.clock.set(TEST_NOW);
  market.set('7203', 3100, { prevCloseYen: 3100 });
});

let opCounter = 0;
function operator() {
  opCounter += 1;
  return signInOperator(t, `opening${opCounter}`);
}

type Headers = Record<string, string>;
const en = (url: string) => `${url}${url.includes('?') ? '&' : '?'}lang=en`;
const post = (url: string, headers: Headers, payload: object = {}) =>
  t.app.inject({ method: 'POST', url: en(url), headers, payload });
const get = (url: string, headers: Headers) => t.app.inject({ method: 'GET', url: en(url), headers });

async function photo(token: string, purpose: string): Promise<string> {
  const form = multipart({ purpose }, { name: 'id.png', type: 'image/png', bytes: pngBytes(4, 4) });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/uploads',
    headers: { ...form.headers, token },
    payload: form.payload,
  });
  return body<{ id: string }>(res).data.id;
}

async function apply(token: string, extra: object = {}) {
  const payload = {
    ...applicationPayload(await photo(token, 'identity_front'), await photo(token, 'identity_back')),
    ...extra,
  };
  return post('/api/identity', { token }, payload);
}

const brokerage = async (token: string) =>
  body<TBrokerageAccount>(await get('/api/account/brokerage', { token })).data;

const order = (token: string, extra: object = {}) =>
  post(
    '/api/trade/placeOrder',
    { token, 'idempotency-key': randomUUID() },
    { code: '7203', direction: 'long', price_type: 'market', quantity: 100, leverage: 1, ...extra },
  );

async function pendingId(userId: number, reviewer: Headers): Promise<number> {
  const res = await get(`/api/console/identity?status=pending&user_id=${userId}`, reviewer);
  const id = body<{ items?: { id: number }[] }>(res).data.items?.[0]?.id;
  if (id === undefined) throw new Error(`no pending application: ${res.body}`);
  return id;
}

describe('the account application', () => {
  it('is filed with its answers normalised and the My Number encrypted, shown masked', async () => {
    const u = await registerAndLogin(t, { verified: false });
    expect(await brokerage(u.token)).toMatchObject({ status: 'none', accounts: [] });
    const res = await apply(u.token);
    expect(body<TIdentityApplication>(res).data).toMatchObject({
      status: 'pending',
      full_name: '山田 太郎',
      id_number_masked: '••••••••9018',
      application: {
        full_name_kana: 'ヤマダ\u3000タロウ',
        birth_date: '1985-04-01',
        document_type: 'my_number_card',
        my_number_masked: '••••••••9018',
        specific_account: 'withholding',
        open_nisa: true,
        profile: { postal_code: '1000005', prefecture: '13', financial_assets: '3m_5m' },
      },
    });
    const [row] = await t.database.db
      .select()
      .from(identityVerifications)
      .where(eq(identityVerifications.userId, u.userId));
    expect(row?.myNumberLast4).toBe('9018');
    expect(row?.myNumberCipher).not.toContain(SAMPLE_MY_NUMBER);
    expect(row?.myNumberCipher?.split('.')).toHaveLength(3);
    expect(decryptMyNumber(t.app.ctx.myNumberKey, row?.myNumberCipher ?? '')).toBe(SAMPLE_MY_NUMBER);
    expect(JSON.stringify(row?.profile)).not.toContain(SAMPLE_MY_NUMBER);
    expect(await brokerage(u.token)).toMatchObject({ status: 'pending', accounts: [] });
  });

  it('refuses an applicant under 18 at the server’s Tokyo date, and takes one on the 18th birthday', async () => {
    const u = await registerAndLogin(t, { verified: false });
    // TEST_NOW is 2026-11-24 in Tokyo: born 2008-11-25 is 17, born 2008-11-24 is 18 today.
    const young = await apply(u.token, { birth_date: '2008-11-25' });
    expect(young.statusCode).toBe(422);
    expect(body(young)).toMatchObject({ code: 1315, msg: 'An account can be opened from the age of 18' });
    const ja = await post('/api/identity', { token: u.token }, {});
    expect(body(ja).code).toBe(400);
    const adult = await apply(u.token, { birth_date: '2008-11-24' });
    expect(body(adult).code).toBe(1);
  });

  it('names each wrong answer in the reader’s language', async () => {
    const u = await registerAndLogin(t, { verified: false });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/identity?lang=ja',
      headers: { token: u.token },
      payload: {
        ...applicationPayload(await photo(u.token, 'identity_front'), await photo(u.token, 'identity_back')),
        full_name_kana: 'Yamada',
        my_number: '123456789017',
        profile: { ...SUITABLE_PROFILE, postal_code: '12345' },
      },
    });
    const issues = body<{ issues: { field: string; message: string }[] }>(res).data.issues;
    expect(issues.map((i) => [i.field, i.message])).toEqual([
      ['full_name_kana', 'フリガナはカタカナで入力してください（例: ヤマダ タロウ）'],
      ['profile.postal_code', '郵便番号は7桁で入力してください（例: 100-0005）'],
      ['my_number', 'マイナンバーが正しくありません。番号をご確認ください'],
    ]);
  });
});

describe('opening the account', () => {
  it('approval opens it with 特定口座 and NISA as chosen, in the review’s transaction and audit row', async () => {
    const u = await registerAndLogin(t, { verified: false });
    await apply(u.token, { specific_account: 'no_withholding', open_nisa: true });
    // Until the account is open, the order path refuses (here: the verification is still under review).
    expect(body(await order(u.token)).code).toBe(1311);
    const reviewer = await operator();
    const id = await pendingId(u.userId, reviewer);
    const detail = body<{ application: { my_number_masked: string; profile: object } }>(
      await get(`/api/console/identity/${id}`, reviewer),
    ).data;
    expect(detail.application.my_number_masked).toBe('••••••••9018');
    expect(JSON.stringify(detail)).not.toContain(SAMPLE_MY_NUMBER);
    expect(body(await post(`/api/console/identity/${id}/approve`, reviewer)).data).toEqual({
      id,
      status: 'passed',
    });

    expect(await brokerage(u.token)).toEqual({
      status: 'open',
      opened_at: TEST_NOW,
      specific_account: 'no_withholding',
      nisa: true,
      default_account: 'specific',
      accounts: ['specific', 'general', 'nisa'],
      suitability: {
        margin: { allowed: true, unmet: [] },
        short: { allowed: true, unmet: [] },
        loans: { allowed: true, unmet: [] },
      },
      rules: DEFAULT_OPENING_SETTINGS,
    });
    const log = await t.database.db.execute(
      sql`select action, after from audit_log where target_type = 'identity' and target_id = ${String(id)}`,
    );
    expect(
      (log as { rows: { action: string; after: string }[] }).rows.map((r) => [
        r.action,
        JSON.parse(r.after) as unknown,
      ]),
    ).toEqual([
      [
        'identity.approve',
        {
          status: 'passed',
          reason: null,
          brokerage_account: {
            specific_account: 'no_withholding',
            nisa: true,
            default_tax_account: 'specific',
          },
        },
      ],
    ]);
    expect(body(await order(u.token)).code).toBe(1);
  });

  it('a 一般口座-only application without NISA opens a general account by default; a rejection opens none', async () => {
    const a = await registerAndLogin(t, { verified: false });
    const b = await registerAndLogin(t, { verified: false });
    await apply(a.token, { specific_account: 'none', open_nisa: false });
    await apply(b.token);
    const reviewer = await operator();
    await post(`/api/console/identity/${await pendingId(a.userId, reviewer)}/approve`, reviewer);
    await post(`/api/console/identity/${await pendingId(b.userId, reviewer)}/reject`, reviewer, {
      reason: '写真が不鮮明です',
    });
    expect(await brokerage(a.token)).toMatchObject({
      status: 'open',
      specific_account: 'none',
      nisa: false,
      default_account: 'general',
      accounts: ['general'],
    });
    expect(await brokerage(b.token)).toMatchObject({
      status: 'rejected',
      accounts: [],
      default_account: null,
    });
  });

  it('refuses orders with ACCOUNT_NOT_OPEN to a verified user without a brokerage account', async () => {
    const u = await registerAndLogin(t, { verified: false });
    // Test setup: a passed verification without its account, as no review path leaves it (only the check is tested).
    const front = {
      id: 'f'.repeat(63) + String(u.userId % 10),
      userId: u.userId,
      purpose: 'identity_front' as const,
      contentType: 'image/png',
      size: 1,
      sha256: '0'.repeat(64),
    };
    await t.database.db.insert(uploads).values(front);
    await t.database.db.insert(identityVerifications).values({
      userId: u.userId,
      fullName: '山田 太郎',
      idNumber: 'AB1234567',
      frontUploadId: front.id,
      backUploadId: front.id,
      status: 'passed',
    });
    await t.database.db.update(users).set({ realNameStatus: 'verified' }).where(eq(users.id, u.userId));
    const res = await order(u.token);
    expect(res.statusCode).toBe(403);
    expect(body(res)).toMatchObject({
      code: 1314,
      msg: 'Your securities account is not open yet. Please complete the account application first',
    });
  });
});

describe('suitability on the order path', () => {
  it('refuses margin and short orders naming the unmet rules, and takes cash orders', async () => {
    const u = await registerAndLogin(t, { verified: false });
    await markVerified(t, u.userId, undefined, {
      profile: {
        ...SUITABLE_PROFILE,
        financial_assets: 'under_1m',
        experience: { ...SUITABLE_PROFILE.experience, stocks: 'under_1' },
      },
    });
    expect((await brokerage(u.token)).suitability.margin).toEqual({
      allowed: false,
      unmet: ['experience_stocks', 'financial_assets'],
    });
    const margin = await order(u.token, { leverage: 2 });
    expect(margin.statusCode).toBe(403);
    expect(body(margin)).toMatchObject({
      code: 1316,
      msg: 'Margin trading is not available for your account: stock trading experience of at least 1 year, financial assets of ¥1 million or more',
    });
    const short = await t.app.inject({
      method: 'POST',
      url: '/api/trade/placeOrder?lang=ja',
      headers: { token: u.token, 'idempotency-key': randomUUID() },
      payload: { code: '7203', direction: 'short', price_type: 'market', quantity: 100, leverage: 1 },
    });
    expect(body(short)).toMatchObject({
      code: 1316,
      msg: 'お客様の口座では空売り（信用売り）をご利用いただけません（条件: 株式の投資経験1年以上, 金融資産100万円以上）',
    });
    const standard = await order(u.token, { margin_type: 'standard' });
    expect(body(standard).code).toBe(1316);
    expect(body(await order(u.token)).code).toBe(1);
  });

  it('follows the age rule at the day, and a customer of 20 trades on margin', async () => {
    const young = await registerAndLogin(t, { verified: false });
    await markVerified(t, young.userId, undefined, { birthDate: '2006-11-25' }); // 19 on TEST_NOW
    expect(body(await order(young.token, { leverage: 2 }))).toMatchObject({
      code: 1316,
      msg: 'Margin trading is not available for your account: aged 20 or over',
    });
    const twenty = await registerAndLogin(t, { verified: false });
    await markVerified(t, twenty.userId, undefined, { birthDate: '2006-11-24' }); // 20 today
    expect(body(await order(twenty.token, { leverage: 2, quantity: 1000 })).code).toBe(1);
  });
});

describe('the My Number reveal', () => {
  it('takes a reason and writes an audit row every time', async () => {
    const u = await registerAndLogin(t, { verified: false });
    await apply(u.token);
    const reviewer = await operator();
    const id = await pendingId(u.userId, reviewer);
    const noReason = await post(`/api/console/identity/${id}/my-number`, reviewer, { reason: ' ' });
    expect(body(noReason)).toMatchObject({ code: 400, msg: 'Please give a reason' });
    for (const reason of ['本人確認書類との照合', 'second look']) {
      const res = await post(`/api/console/identity/${id}/my-number`, reviewer, { reason });
      expect(body(res).data).toEqual({ my_number: SAMPLE_MY_NUMBER });
    }
    const log = await t.database.db.execute(
      sql`select action, reason, user_id from audit_log where action = 'identity.my_number_viewed' and target_id = ${String(id)} order by id`,
    );
    expect((log as { rows: unknown[] }).rows).toEqual([
      { action: 'identity.my_number_viewed', reason: '本人確認書類との照合', user_id: u.userId },
      { action: 'identity.my_number_viewed', reason: 'second look', user_id: u.userId },
    ]);
    expect((await post('/api/console/identity/999999/my-number', reviewer, { reason: 'x' })).statusCode).toBe(
      404,
    );
  });
});

describe('access', () => {
  it('the brokerage account needs a session; the reveal needs an operator, not a customer', async () => {
    const u = await registerAndLogin(t);
    expect(body(await get('/api/account/brokerage', {})).code).toBe(401);
    expect(body(await get('/api/account/brokerage', { token: 'not-a-session' })).code).toBe(401);
    const [row] = await t.database.db
      .select({ id: identityVerifications.id })
      .from(identityVerifications)
      .where(eq(identityVerifications.userId, u.userId));
    const url = `/api/console/identity/${row?.id ?? 0}/my-number`;
    expect((await post(url, {}, { reason: 'look' })).statusCode).toBe(401);
    expect((await post(url, { token: u.token }, { reason: 'look' })).statusCode).toBe(401);
    expect((await post(url, { authorization: `Bearer ${u.token}` }, { reason: 'look' })).statusCode).toBe(
      401,
    );
    const audited = await t.database.db.execute(
      sql`select count(*)::int as n from audit_log where action = 'identity.my_number_viewed' and user_id = ${u.userId}`,
    );
    expect((audited as { rows: { n: number }[] }).rows[0]?.n).toBe(0);
  });

  it('a customer sees only their own account', async () => {
    const a = await registerAndLogin(t);
    const b = await registerAndLogin(t, { verified: false });
    expect((await brokerage(a.token)).status).toBe('open');
    expect((await brokerage(b.token)).status).toBe('none');
  });
});

describe('the My Number key', () => {
  it('is generated once into DATA_DIR/keys with mode 0600 and reused', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kabuto-key-'));
    const first = loadMyNumberKey({ DATA_DIR: dir, MY_NUMBER_KEY: undefined });
    expect(first).toHaveLength(32);
    expect(statSync(myNumberKeyPath(dir)).mode & 0o777).toBe(0o600);
    expect(loadMyNumberKey({ DATA_DIR: dir, MY_NUMBER_KEY: undefined }).equals(first)).toBe(true);
  });

  it('comes from MY_NUMBER_KEY when set, which must be 32 bytes of base64', () => {
    const key = Buffer.alloc(32, 7).toString('base64');
    const config = loadConfig({ MY_NUMBER_KEY: key, DATA_DIR: mkdtempSync(join(tmpdir(), 'kabuto-key-')) });
    expect(loadMyNumberKey(config).equals(Buffer.alloc(32, 7))).toBe(true);
    expect(() => loadConfig({ MY_NUMBER_KEY: Buffer.alloc(16).toString('base64') })).toThrow(/MY_NUMBER_KEY/);
    expect(() => loadConfig({ MY_NUMBER_KEY: 'not base64!' })).toThrow(/MY_NUMBER_KEY/);
  });

  it('round-trips, with a fresh IV each time, and detects any change or the wrong key', () => {
    const key = Buffer.alloc(32, 1);
    const a = encryptMyNumber(key, SAMPLE_MY_NUMBER);
    const b = encryptMyNumber(key, SAMPLE_MY_NUMBER);
    expect(a).not.toBe(b);
    expect(decryptMyNumber(key, a)).toBe(SAMPLE_MY_NUMBER);
    const [iv, tag, ciphertext] = a.split('.') as [string, string, string];
    const flipped = Buffer.from(ciphertext, 'base64url');
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    expect(() => decryptMyNumber(key, [iv, tag, flipped.toString('base64url')].join('.'))).toThrow();
    expect(() => decryptMyNumber(Buffer.alloc(32, 2), a)).toThrow();
    expect(() => decryptMyNumber(key, 'not.encrypted')).toThrow();
  });
});
