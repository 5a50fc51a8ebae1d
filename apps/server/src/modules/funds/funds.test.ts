import { signInOperator, type OperatorRole } from '../../test/operators.js';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { negSen, yen } from '@kabuto/contract';
import { bankAccounts, identityVerifications, users } from '../../db/schema.js';
import {
  applicationPayload,
  body,
  createTestApp,
  registerAndLogin,
  VERIFIED_NAME,
  type TestApp,
} from '../../test/harness.js';
import { multipart, pngBytes } from '../../lib/images.js';
import { userBalances } from '../ledger/ledger.js';
import { injectStepped, smsStepUpToken } from '../../test/step-up.js';

/**
 * Named scenarios of issue #5 on a fixed clock (TEST_NOW: Tuesday 2026-11-24 10:00 in Tokyo, inside the
 * morning withdrawal window): identity checks, bank accounts, deposits, withdrawals and their reviews,
 * and the messages each step leaves.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ WITHDRAWAL_SECOND_APPROVAL_YEN: '1000000' });
});
afterAll(() => t.close());

let opCounter = 0;
/** A console operator, signed in; answers its bearer header. */
function operator(role: OperatorRole = 'reviewer') {
  opCounter += 1;
  return signInOperator(t, `op${opCounter}`, role);
}

type Headers = Record<string, string>;
const as = (token: string, extra: Headers = {}) => ({ token, ...extra });
let keyCounter = 0;
const key = () => ({ 'idempotency-key': `test-key-${Date.now()}-${(keyCounter += 1)}` });

async function upload(
  token: string,
  purpose: string,
  bytes = pngBytes(4, 4, 'GPS 35.6812,139.7671'),
  name = 'photo.png',
) {
  const form = multipart({ purpose }, { name, type: 'image/png', bytes });
  return t.app.inject({
    method: 'POST',
    url: '/api/uploads?lang=en',
    headers: { ...form.headers, token },
    payload: form.payload,
  });
}
async function uploadId(token: string, purpose: string): Promise<string> {
  const res = await upload(token, purpose);
  expect(res.statusCode, res.body).toBe(200);
  return body<{ id: string }>(res).data.id;
}
const post = (url: string, headers: Headers, payload: unknown = {}) =>
  injectStepped(t, {
    method: 'POST',
    url: `${url}${url.includes('?') ? '&' : '?'}lang=en`,
    headers,
    payload: payload as object,
  });
const get = (url: string, headers: Headers) =>
  t.app.inject({ method: 'GET', url: `${url}${url.includes('?') ? '&' : '?'}lang=en`, headers });

async function submitIdentity(token: string, fullName = VERIFIED_NAME) {
  return post(
    '/api/identity',
    as(token),
    applicationPayload(
      await uploadId(token, 'identity_front'),
      await uploadId(token, 'identity_back'),
      fullName,
    ),
  );
}

async function messageKinds(token: string): Promise<string[]> {
  const res = await get('/api/messages', as(token));
  return body<{ items: { kind: string }[] }>(res).data.items.map((m) => m.kind);
}

async function setTxnPassword(token: string, loginPassword: string, password = '123456') {
  const res = await post('/api/user/setTxnPassword', as(token), {
    login_password: loginPassword,
    new_password: password,
    confirm_password: password,
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** A verified user with an approved bank account and a transaction password. */
async function readyToWithdraw(reviewer: Headers) {
  const u = await registerAndLogin(t);
  await setTxnPassword(u.token, u.password);
  // The holder is written in katakana, as banks write it, and must match the reading given at account opening
  // (ヤマダ タロウ for 山田 太郎): the kanji name alone does not match it.
  const kanji = await post('/api/bank-accounts', as(u.token), {
    holder_name: '山田太郎',
    account_number: '1234567',
    bank_code: '0001',
    branch_code: '100',
    login_password: u.password,
  });
  expect(body(kanji).code).toBe(1321);
  const ok = await post('/api/bank-accounts', as(u.token), {
    holder_name: 'ヤマダ タロウ',
    account_number: '1234567',
    bank_code: '0001',
    branch_code: '100',
    login_password: u.password,
  });
  const account = body<{ id: number }>(ok).data;
  expect((await post(`/api/console/bank-accounts/${account.id}/approve`, reviewer)).statusCode).toBe(200);
  return { ...u, accountId: account.id };
}

describe('uploads', () => {
  it('keeps a real image without its metadata, readable by its owner and operators only', async () => {
    const owner = await registerAndLogin(t, { verified: false });
    const other = await registerAndLogin(t, { verified: false });
    const res = await upload(owner.token, 'identity_front');
    expect(res.statusCode, res.body).toBe(200);
    const up = body<{ id: string; content_type: string; size: number }>(res).data;
    expect(up).toMatchObject({ content_type: 'image/png' });
    expect(up.id).toMatch(/^[0-9a-f]{64}$/);

    const own = await t.app.inject({ url: `/api/uploads/${up.id}`, headers: { token: owner.token } });
    expect(own.statusCode).toBe(200);
    expect(own.headers['content-type']).toBe('image/png');
    expect(own.headers['cache-control']).toBe('private, no-store');
    expect(own.rawPayload.includes(Buffer.from('GPS 35.6812'))).toBe(false);
    expect(own.rawPayload.subarray(0, 8)).toEqual(pngBytes().subarray(0, 8));

    const foreign = await get(`/api/uploads/${up.id}`, { token: other.token });
    expect(foreign.statusCode).toBe(404);
    expect(body(foreign).code).toBe(1305);

    const reviewer = await operator();
    const seen = await t.app.inject({ url: `/api/console/uploads/${up.id}`, headers: reviewer });
    expect(seen.statusCode).toBe(200);
    // a user's token is not an operator's
    const asUser = await t.app.inject({
      url: `/api/console/uploads/${up.id}`,
      headers: { token: owner.token },
    });
    expect(asUser.statusCode).toBe(401);
    const audited = await t.database.db.execute(
      sql`select action from audit_log where target_type = 'upload' and target_id = ${up.id}`,
    );
    expect((audited as { rows: { action: string }[] }).rows.map((r) => r.action)).toEqual(['upload.view']);
  });

  it.each([
    ['a text file named like a photo', Buffer.from('this is not an image at all'), 'photo.jpg', 415, 1303],
    ['a PDF named like a photo', Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n'), 'scan.png', 415, 1303],
    ['a truncated PNG', pngBytes(8, 8).subarray(0, 60), 'photo.png', 422, 1304],
    ['an empty file', Buffer.alloc(0), 'photo.png', 422, 1301],
    ['a file over 10 MB', Buffer.concat([pngBytes(), Buffer.alloc(10 * 1024 * 1024)]), 'big.png', 413, 1302],
  ])('refuses %s', async (_name, bytes, name, http, code) => {
    const u = await registerAndLogin(t, { verified: false });
    const res = await upload(u.token, 'identity_front', bytes, name);
    expect(res.statusCode, res.body).toBe(http);
    expect(body(res)).toMatchObject({ code, data: null });
  });

  it('refuses a form without a file or with an unknown purpose', async () => {
    const u = await registerAndLogin(t, { verified: false });
    const noFile = multipart({ purpose: 'identity_front' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/uploads?lang=en',
      headers: { ...noFile.headers, token: u.token },
      payload: noFile.payload,
    });
    expect(body(res)).toMatchObject({ code: 1306, msg: 'Please choose a photo to upload' });
    const json = await post('/api/uploads', as(u.token), { purpose: 'identity_front' });
    expect(body(json).code).toBe(1306);
    const bad = await upload(u.token, 'selfie');
    expect(bad.statusCode).toBe(400);
    expect(body(bad).data).toEqual({
      issues: [{ field: 'purpose', rule: 'enum', message: 'Unknown kind of upload' }],
    });
  });
});

describe('real-name verification', () => {
  it('under review → rejected with the reviewer’s reason → resubmitted → passed, then no resubmission', async () => {
    const u = await registerAndLogin(t, { verified: false });
    const reviewer = await operator();
    expect(body(await get('/api/identity', as(u.token))).data).toMatchObject({
      status: 'unverified',
      can_submit: true,
    });

    const first = await submitIdentity(u.token);
    expect(body(first).data).toMatchObject({
      status: 'pending',
      can_submit: false,
      id_number_masked: '••••••••9018',
    });
    expect(body(await submitIdentity(u.token)).code).toBe(1312);
    const queue = body<{ items: { id: number; user_id: number }[] }>(
      await get(`/api/console/identity?status=pending&user_id=${u.userId}`, reviewer),
    ).data.items;
    expect(queue).toHaveLength(1);
    const id = queue[0]?.id ?? -1;

    const noReason = await post(`/api/console/identity/${id}/reject`, reviewer, { reason: ' ' });
    expect(body(noReason)).toMatchObject({ code: 400, msg: 'Please give a reason' });
    const reason = '写真がぼやけています。明るい場所で撮り直してください';
    expect(body(await post(`/api/console/identity/${id}/reject`, reviewer, { reason })).data).toEqual({
      id,
      status: 'rejected',
    });
    expect(body(await get('/api/identity', as(u.token))).data).toMatchObject({
      status: 'rejected',
      reason,
      can_submit: true,
    });
    const [rejected] = await t.database.db.select().from(users).where(eq(users.id, u.userId));
    expect(rejected?.realNameStatus).toBe('rejected');

    // Trading, deposits and bank accounts wait for a passed verification; browsing does not.
    const order = await post('/api/trade/placeOrder', as(u.token, key()), {
      code: '7203',
      direction: 'long',
      price_type: 'market',
      quantity: 100,
      leverage: 1,
    });
    expect(body(order)).toMatchObject({ code: 1311, msg: 'Please complete real-name verification first' });
    expect((await get('/api/market/indices', {})).statusCode).toBe(200);

    const again = await submitIdentity(u.token);
    const secondId =
      body<{ status: string }>(again).data.status === 'pending'
        ? body<{ items: { id: number }[] }>(
            await get(`/api/console/identity?status=pending&user_id=${u.userId}`, reviewer),
          ).data.items[0]?.id
        : -1;
    expect(secondId).toBeGreaterThan(id);
    expect(body(await post(`/api/console/identity/${secondId}/approve`, reviewer)).data).toEqual({
      id: secondId,
      status: 'passed',
    });
    expect(body(await post(`/api/console/identity/${secondId}/approve`, reviewer)).code).toBe(1341);
    expect(body(await get('/api/identity', as(u.token))).data).toMatchObject({
      status: 'passed',
      can_submit: false,
      reason: null,
    });
    expect(body(await submitIdentity(u.token)).code).toBe(1313);
    const info = body<{ real_name_status: string }>(await get('/api/index/getUserInfo', as(u.token))).data;
    expect(info.real_name_status).toBe('verified');
    expect(await messageKinds(u.token)).toEqual([
      'identity.passed',
      'identity.submitted',
      'identity.rejected',
      'identity.submitted',
    ]);
    const log = await t.database.db.execute(
      sql`select action, reason from audit_log where target_type = 'identity' and user_id = ${u.userId} order by id`,
    );
    expect((log as { rows: unknown[] }).rows).toEqual([
      { action: 'identity.reject', reason },
      { action: 'identity.approve', reason: null },
    ]);
  });

  it('refuses photos the user did not upload', async () => {
    const a = await registerAndLogin(t, { verified: false });
    const b = await registerAndLogin(t, { verified: false });
    const res = await post(
      '/api/identity',
      as(b.token),
      applicationPayload(await uploadId(a.token, 'identity_front'), await uploadId(b.token, 'identity_back')),
    );
    expect(body(res).code).toBe(1305);
  });

  it('names each missing field with the specification’s required messages', async () => {
    const u = await registerAndLogin(t, { verified: false });
    const res = await post('/api/identity', as(u.token), {
      ...applicationPayload('', ''),
      full_name: '',
      full_name_kana: '',
      my_number: '',
    });
    expect(res.statusCode).toBe(400);
    const issues = body<{ issues: { field: string; message: string }[] }>(res).data.issues;
    expect(issues.map((i) => [i.field, i.message])).toEqual([
      ['full_name', 'Please enter your full name'],
      ['full_name_kana', 'Please enter the reading of your name in katakana'],
      ['my_number', 'Please enter your My Number (individual number)'],
      ['front_upload_id', 'Please upload the front of your ID'],
    ]);
  });
});

describe('bank accounts', () => {
  const account = (password: string, holder = 'ヤマダ タロウ') => ({
    holder_name: holder,
    account_number: '7654321',
    bank_code: '0009',
    branch_code: '221',
    login_password: password,
  });

  it('need a passed verification, the login password again, and the user’s own name', async () => {
    const unverified = await registerAndLogin(t, { verified: false });
    expect(
      body(await post('/api/bank-accounts', as(unverified.token), account(unverified.password))).code,
    ).toBe(1311);

    const u = await registerAndLogin(t);
    expect(body(await post('/api/bank-accounts', as(u.token), account('wrong-pass'))).code).toBe(1009);
    const other = await post('/api/bank-accounts', as(u.token), account(u.password, 'スズキ イチロウ'));
    expect(body(other)).toMatchObject({
      code: 1321,
      msg: 'The account holder must be you: the name must match your verified name (ヤマダ タロウ)',
    });
    // width and spacing do not matter
    const ok = await post('/api/bank-accounts', as(u.token), account(u.password, 'ﾔﾏﾀﾞ　ﾀﾛｳ'));
    expect(body(ok)).toMatchObject({ code: 1, data: { status: 'pending', account_number: '7654321' } });
    const list = body<{ items: unknown[] }>(await get('/api/bank-accounts', as(u.token))).data.items;
    expect(list).toHaveLength(1);
    expect(await messageKinds(u.token)).toEqual(['bank_account.added']);
  });

  it('keeps a log of every change: added, changed (replacing), approved, rejected', async () => {
    const u = await registerAndLogin(t);
    const reviewer = await operator();
    const first = body<{ id: number }>(
      await post('/api/bank-accounts', as(u.token), account(u.password)),
    ).data;
    expect(
      body<{ status: string }>(await post(`/api/console/bank-accounts/${first.id}/approve`, reviewer)).data
        .status,
    ).toBe('approved');
    const changed = body<{ id: number }>(
      await post('/api/bank-accounts', as(u.token), {
        ...account(u.password),
        account_number: '1111222',
        replaces_id: first.id,
      }),
    ).data;
    expect(
      body<{ status: string }>(
        await post(`/api/console/bank-accounts/${changed.id}/reject`, reviewer, {
          reason: '通帳の写真と口座番号が一致しません',
        }),
      ).data.status,
    ).toBe('rejected');
    const log = body<{ items: { action: string; account_number: string; reason: string | null }[] }>(
      await get('/api/bank-accounts/log', as(u.token)),
    ).data.items;
    expect(log.map((l) => [l.action, l.account_number])).toEqual([
      ['rejected', '••••222'],
      ['changed', '••••222'],
      ['replaced', '••••321'],
      ['approved', '••••321'],
      ['added', '••••321'],
    ]);
    expect(log[0]?.reason).toBe('通帳の写真と口座番号が一致しません');
    const current = body<{ items: { id: number; status: string }[] }>(
      await get('/api/bank-accounts', as(u.token)),
    ).data.items;
    expect(current).toEqual([expect.objectContaining({ id: changed.id, status: 'rejected' })]);
  });

  it('validates each field with its own message', async () => {
    const u = await registerAndLogin(t);
    const res = await post('/api/bank-accounts', as(u.token), {
      holder_name: '',
      account_number: '12345',
      bank_code: '',
      branch_code: '12',
      login_password: u.password,
    });
    const issues = body<{ issues: { field: string; message: string }[] }>(res).data.issues;
    expect(Object.fromEntries(issues.map((i) => [i.field, i.message]))).toEqual({
      holder_name: "Please enter the account holder's name",
      account_number: 'The account number has 7 digits',
      bank_code: 'Please choose the bank',
      branch_code: 'The branch number has 3 digits',
    });
  });
});

describe('deposits', () => {
  it('show the user’s own virtual account; a notice credits the ledger only when approved', async () => {
    const u = await registerAndLogin(t);
    const reviewer = await operator();
    const va = body<{ account_number: string; holder: string }>(
      await get('/api/deposits/account', as(u.token)),
    ).data;
    expect(va.account_number).toBe(`9${String(u.userId).padStart(6, '0')}`);

    const filed = await post('/api/deposits', as(u.token, key()), {
      amount: yen(50_000),
      transfer_date: '2026-11-24',
    });
    expect(body(filed)).toMatchObject({ code: 1, data: { status: 'pending', amount: yen(50_000) } });
    const id = body<{ id: number }>(filed).data.id;
    expect((await userBalances(t.database.db, u.userId)).cash).toBe(0);

    const review = body<{ virtual_account_number: string; phone: string }>(
      await get(`/api/console/deposits/${id}`, reviewer),
    ).data;
    expect(review).toMatchObject({ virtual_account_number: va.account_number, phone: u.phone });
    // No bank transfer matched it (reconciliation.test.ts has those): a reason and two operators (ADR 0023).
    expect(
      body(await post(`/api/console/deposits/${id}/approve`, reviewer, { reason: 'seen' })).data,
    ).toEqual({
      id,
      status: 'awaiting_second_approval',
    });
    expect((await userBalances(t.database.db, u.userId)).cash).toBe(0);
    expect(
      body(await post(`/api/console/deposits/${id}/approve`, await operator(), { reason: 'seen' })).data,
    ).toEqual({
      id,
      status: 'approved',
    });
    expect((await userBalances(t.database.db, u.userId)).cash).toBe(yen(50_000));
    const lines = body<{ items: { kind: string; amount: number; balance: number }[] }>(
      await get('/api/ledger/entries', as(u.token)),
    ).data.items;
    expect(lines[0]).toMatchObject({ kind: 'deposit', amount: yen(50_000), balance: yen(50_000) });
    const records = body<{ items: { status: string }[] }>(
      await get('/api/deposits?status=approved', as(u.token)),
    ).data.items;
    expect(records).toHaveLength(1);
    expect(await messageKinds(u.token)).toEqual(['deposit.approved', 'deposit.filed']);
  });

  it('a rejected notice moves no money and carries the reason', async () => {
    const u = await registerAndLogin(t);
    const reviewer = await operator();
    const id = body<{ id: number }>(
      await post('/api/deposits', as(u.token, key()), { amount: yen(30_000), transfer_date: '2026-11-20' }),
    ).data.id;
    const reason = 'No transfer of this amount has arrived on your account';
    await post(`/api/console/deposits/${id}/reject`, reviewer, { reason });
    expect((await userBalances(t.database.db, u.userId)).cash).toBe(0);
    expect(body<{ items: unknown[] }>(await get('/api/deposits', as(u.token))).data.items).toEqual([
      expect.objectContaining({ status: 'rejected', reason }),
    ]);
  });

  it('refuses a transfer date in the future or more than 30 days back, and whole-yen amounts only', async () => {
    const u = await registerAndLogin(t);
    for (const date of ['2026-11-25', '2026-10-24']) {
      expect(
        body(await post('/api/deposits', as(u.token, key()), { amount: yen(10_000), transfer_date: date }))
          .code,
      ).toBe(1333);
    }
    const fraction = await post('/api/deposits', as(u.token, key()), {
      amount: 1_000_050,
      transfer_date: '2026-11-24',
    });
    expect(body(fraction)).toMatchObject({ code: 400, msg: 'Please enter a whole number of yen' });
  });

  it('two operators approving the same notice at once credit it once', async () => {
    const u = await registerAndLogin(t);
    const [first, a, b] = [await operator(), await operator(), await operator()];
    const id = body<{ id: number }>(
      await post('/api/deposits', as(u.token, key()), { amount: yen(20_000), transfer_date: '2026-11-24' }),
    ).data.id;
    const reason = { reason: 'seen on the bank’s screen' };
    await post(`/api/console/deposits/${id}/approve`, first, reason);
    const answers = await Promise.all([
      post(`/api/console/deposits/${id}/approve`, a, reason),
      post(`/api/console/deposits/${id}/approve`, b, reason),
      post(`/api/console/deposits/${id}/approve`, a, reason),
    ]);
    expect(answers.map((r) => body(r).code).sort()).toEqual([1, 1341, 1341]);
    expect((await userBalances(t.database.db, u.userId)).cash).toBe(yen(20_000));
  });
});

describe('withdrawals', () => {
  async function fund(userId: number, amountYen: number, reviewer: Headers, token: string) {
    const id = body<{ id: number }>(
      await post('/api/deposits', as(token, key()), { amount: yen(amountYen), transfer_date: '2026-11-24' }),
    ).data.id;
    // a notice no bank transfer matched: a reason and a second operator (ADR 0023)
    await post(`/api/console/deposits/${id}/approve`, reviewer, { reason: 'test funding' });
    await post(`/api/console/deposits/${id}/approve`, await operator(), { reason: 'test funding' });
    expect((await userBalances(t.database.db, userId)).cash).toBe(yen(amountYen));
  }

  it('reserve the amount at filing; approval pays it out, no fee; records and ledger agree', async () => {
    const reviewer = await operator();
    const u = await readyToWithdraw(reviewer);
    await fund(u.userId, 100_000, reviewer, u.token);
    const rules = body<Record<string, unknown>>(await get('/api/index/withdrawal', as(u.token))).data;
    expect(rules).toMatchObject({ withdrawable: yen(100_000), open_now: true });
    expect(rules).not.toHaveProperty('fee');

    const filed = await post('/api/withdrawals', as(u.token, key()), {
      amount: yen(40_000),
      bank_account_id: u.accountId,
      txn_password: '123456',
    });
    expect(body(filed)).toMatchObject({
      code: 1,
      data: { status: 'pending', amount: yen(40_000), process_after: '2026-11-24T01:00:00.000Z' },
    });
    expect(body<Record<string, unknown>>(filed).data).not.toHaveProperty('fee');
    expect(await userBalances(t.database.db, u.userId)).toMatchObject({
      cash: yen(60_000),
      withdrawing: yen(40_000),
    });
    const id = body<{ id: number }>(filed).data.id;
    expect(body(await post(`/api/console/withdrawals/${id}/approve`, reviewer)).data).toEqual({
      id,
      status: 'approved',
    });
    expect(await userBalances(t.database.db, u.userId)).toMatchObject({ cash: yen(60_000), withdrawing: 0 });
    const lines = body<{ items: { kind: string; params: unknown }[] }>(
      await get('/api/ledger/entries', as(u.token)),
    ).data.items;
    expect(lines.slice(0, 3).map((l) => l.kind)).toEqual([
      'withdrawal_paid',
      'withdrawal_hold',
      'withdrawal_hold',
    ]);
    // Each line carries its entry's memo params, from which the app writes the memo in the reader's language:
    // the request has no withdrawal id yet (it is written first), its payout does; amounts in sen.
    expect(lines.slice(0, 3).map((l) => l.params)).toEqual([
      { withdrawal_id: id, amount: yen(40_000) },
      { amount: yen(40_000), bank: 'みずほ銀行', account: '••••567' },
      { amount: yen(40_000), bank: 'みずほ銀行', account: '••••567' },
    ]);
    expect(lines.at(-1)).toMatchObject({
      kind: 'deposit',
      params: {
        deposit_id: expect.any(Number) as unknown,
        amount: yen(100_000),
        transfer_date: '2026-11-24',
      },
    });
    expect(body<{ items: unknown[] }>(await get('/api/withdrawals', as(u.token))).data.items).toEqual([
      expect.objectContaining({
        id,
        status: 'approved',
        bank_account: expect.objectContaining({ account_number: '••••567' }) as unknown,
      }),
    ]);
    expect((await messageKinds(u.token)).slice(0, 2)).toEqual(['withdrawal.approved', 'withdrawal.filed']);
  });

  it('a rejection returns the amount to cash with the reason', async () => {
    const reviewer = await operator();
    const u = await readyToWithdraw(reviewer);
    await fund(u.userId, 50_000, reviewer, u.token);
    const id = body<{ id: number }>(
      await post('/api/withdrawals', as(u.token, key()), {
        amount: yen(50_000),
        bank_account_id: u.accountId,
        txn_password: '123456',
      }),
    ).data.id;
    await post(`/api/console/withdrawals/${id}/reject`, reviewer, {
      reason: '口座名義を確認できませんでした',
    });
    expect(await userBalances(t.database.db, u.userId)).toMatchObject({ cash: yen(50_000), withdrawing: 0 });
  });

  it('show in the movements as one line each: requested, then paid or returned', async () => {
    type Movement = {
      key: string;
      kind: string;
      state: string;
      cash: number;
      opening_cash: number;
      memo: string | null;
      params: Record<string, string | number> | null;
      entries: number;
    };
    type MovementPage = { total: number; cash_balance: number; items: Movement[] };
    const movements = async (token: string, query = '') =>
      body<MovementPage>(await get(`/api/ledger/movements${query}`, as(token))).data;
    const reviewer = await operator();
    const u = await readyToWithdraw(reviewer);
    await fund(u.userId, 100_000, reviewer, u.token);
    const file = async (amount: number) =>
      body<{ id: number }>(
        await post('/api/withdrawals', as(u.token, key()), {
          amount: yen(amount),
          bank_account_id: u.accountId,
          txn_password: '123456',
        }),
      ).data.id;

    const paid = await file(30_000);
    const returned = await file(20_000);
    // Requested: each is one line, the amount gone from available cash, nothing reading as money coming in.
    let page = await movements(u.token);
    expect(page.items.slice(0, 3)).toEqual([
      {
        key: `withdrawal:${returned}`,
        kind: 'withdrawal_hold',
        state: 'withdrawal_hold',
        cash: negSen(yen(20_000)),
        opening_cash: negSen(yen(20_000)),
        memo: expect.stringMatching(/^Withdrawal to /) as unknown,
        params: expect.objectContaining({ amount: yen(20_000) }) as unknown,
        entries: 1,
        started_at: expect.any(String) as unknown,
        updated_at: expect.any(String) as unknown,
      },
      {
        key: `withdrawal:${paid}`,
        kind: 'withdrawal_hold',
        state: 'withdrawal_hold',
        cash: negSen(yen(30_000)),
        opening_cash: negSen(yen(30_000)),
        memo: expect.stringMatching(/^Withdrawal to /) as unknown,
        params: expect.objectContaining({ amount: yen(30_000) }) as unknown,
        entries: 1,
        started_at: expect.any(String) as unknown,
        updated_at: expect.any(String) as unknown,
      },
      expect.objectContaining({
        kind: 'deposit',
        state: 'deposit',
        cash: yen(100_000),
        opening_cash: yen(100_000),
        entries: 1,
      }) as unknown,
    ]);
    expect(page.items.every((m) => m.kind !== 'withdrawal_hold' || m.cash < 0)).toBe(true);
    expect(page.cash_balance).toBe(yen(50_000));

    await post(`/api/console/withdrawals/${paid}/approve`, reviewer);
    await post(`/api/console/withdrawals/${returned}/reject`, reviewer, {
      reason: '口座名義を確認できませんでした',
    });
    // Decided: still one line each, its state the decision; paid keeps the amount out, returned nets to zero
    // while its opening cash still says what was asked for, and its memo is still the request's.
    page = await movements(u.token);
    const byKey = new Map(page.items.map((m) => [m.key, m]));
    expect(byKey.get(`withdrawal:${paid}`)).toMatchObject({
      state: 'withdrawal_paid',
      cash: negSen(yen(30_000)),
      opening_cash: negSen(yen(30_000)),
      entries: 2,
    });
    expect(byKey.get(`withdrawal:${returned}`)).toMatchObject({
      state: 'withdrawal_release',
      cash: 0,
      opening_cash: negSen(yen(20_000)),
      memo: expect.stringMatching(/^Withdrawal to /) as unknown,
      entries: 2,
    });
    // The user's movements: demo-less account, so the deposit and the two withdrawals, whose cash adds up.
    expect(page.total).toBe(3);
    const { cash } = await userBalances(t.database.db, u.userId);
    expect(page.items.reduce((sum, m) => sum + m.cash, 0)).toBe(cash);
    expect(page.cash_balance).toBe(cash);

    // A kind keeps the movements with an entry of that kind, whole; the balance ignores the filters.
    const returns = await movements(u.token, '?kind=withdrawal_release');
    expect(returns).toMatchObject({ total: 1, cash_balance: cash });
    expect(returns.items).toEqual([
      expect.objectContaining({ key: `withdrawal:${returned}`, kind: 'withdrawal_hold', entries: 2 }),
    ]);
    // A period keeps the movements with an entry in it (Tokyo dates; the test clock is 2026-11-24 10:00).
    expect((await movements(u.token, '?from=2026-11-24&to=2026-11-24')).total).toBe(3);
    expect((await movements(u.token, '?from=2026-11-25')).total).toBe(0);
    expect(await movements(u.token, '?to=2026-11-23')).toMatchObject({
      total: 0,
      items: [],
      cash_balance: cash,
    });
    // Paging.
    const second = await movements(u.token, '?limit=2&offset=2');
    expect(second.total).toBe(3);
    expect(second.items.map((m) => m.kind)).toEqual(['deposit']);
    // An unknown kind is refused like any bad query.
    expect((await get('/api/ledger/movements?kind=nope', as(u.token))).statusCode).toBe(400);
  });

  it('apply the published minimum (the specification’s message) and the withdrawable cash', async () => {
    const reviewer = await operator();
    const u = await readyToWithdraw(reviewer);
    await fund(u.userId, 30_000, reviewer, u.token);
    const low = await post('/api/withdrawals', as(u.token, key()), {
      amount: yen(9_999),
      bank_account_id: u.accountId,
      txn_password: '123456',
    });
    expect(body(low)).toMatchObject({
      code: 1331,
      msg: 'Withdrawal amount cannot be less than the minimum withdrawal amount: ¥10,000',
    });
    const ja = await t.app.inject({
      method: 'POST',
      url: '/api/withdrawals?lang=jp',
      headers: as(u.token, key()),
      payload: {
        amount: yen(9_999),
        bank_account_id: u.accountId,
        txn_password: '123456',
        step_up_token: await smsStepUpToken(t, u, {
          action: 'withdrawal',
          amount: yen(9_999),
          bank_account_id: u.accountId,
        }),
      },
    });
    expect(body(ja).msg).toBe('出金額は最低出金額を下回ることはできません：￥10,000');
    const high = await post('/api/withdrawals', as(u.token, key()), {
      amount: yen(30_100),
      bank_account_id: u.accountId,
      txn_password: '123456',
    });
    expect(body(high)).toMatchObject({
      code: 1332,
      msg: 'The amount is more than you can withdraw now (¥30,000)',
    });
    const wrong = await post('/api/withdrawals', as(u.token, key()), {
      amount: yen(10_000),
      bank_account_id: u.accountId,
      txn_password: '654321',
    });
    expect(body(wrong).code).toBe(1012);
    expect((await userBalances(t.database.db, u.userId)).cash).toBe(yen(30_000));
  });

  it('go only to an approved account of the user’s own', async () => {
    const reviewer = await operator();
    const u = await readyToWithdraw(reviewer);
    const other = await readyToWithdraw(reviewer);
    await fund(u.userId, 30_000, reviewer, u.token);
    const foreign = await post('/api/withdrawals', as(u.token, key()), {
      amount: yen(10_000),
      bank_account_id: other.accountId,
      txn_password: '123456',
    });
    expect(body(foreign).code).toBe(1322);
    const pending = body<{ id: number }>(
      await post('/api/bank-accounts', as(u.token), {
        holder_name: 'ヤマダ タロウ',
        account_number: '2222333',
        bank_code: '9900',
        branch_code: '018',
        login_password: u.password,
      }),
    ).data;
    const notYet = await post('/api/withdrawals', as(u.token, key()), {
      amount: yen(10_000),
      bank_account_id: pending.id,
      txn_password: '123456',
    });
    expect(body(notYet).code).toBe(1323);
  });

  it('above the threshold need a second, different operator', async () => {
    const [a, b] = [await operator(), await operator()];
    const u = await readyToWithdraw(a);
    await fund(u.userId, 2_000_000, a, u.token);
    const id = body<{ id: number }>(
      await post('/api/withdrawals', as(u.token, key()), {
        amount: yen(1_500_000),
        bank_account_id: u.accountId,
        txn_password: '123456',
      }),
    ).data.id;
    expect(body(await post(`/api/console/withdrawals/${id}/approve`, a)).data).toEqual({
      id,
      status: 'awaiting_second_approval',
    });
    expect(await userBalances(t.database.db, u.userId)).toMatchObject({ withdrawing: yen(1_500_000) });
    expect(body(await post(`/api/console/withdrawals/${id}/approve`, a))).toMatchObject({
      code: 1342,
      msg: 'The second approval must come from a different operator',
    });
    const shown = body<{ needs_second_approval: boolean; first_approved_by: string }>(
      await get(`/api/console/withdrawals/${id}`, b),
    ).data;
    expect(shown).toMatchObject({
      needs_second_approval: true,
      first_approved_by: expect.stringMatching(/^op\d+$/) as unknown,
    });
    expect(body(await post(`/api/console/withdrawals/${id}/approve`, b)).data).toEqual({
      id,
      status: 'approved',
    });
    expect(await userBalances(t.database.db, u.userId)).toMatchObject({ cash: yen(500_000), withdrawing: 0 });
  });

  it('filed outside the hours say when they will be processed', async () => {
    const reviewer = await operator();
    const u = await readyToWithdraw(reviewer);
    await fund(u.userId, 50_000, reviewer, u.token);
    const file = async () => {
      // a fresh session on the moved clock
      const login = await post(
        '/api/auth/login',
        {},
        { account: u.phone, password: u.password, agree: true },
      );
      const token = body<{ token: string }>(login).data.token;
      const res = await post('/api/withdrawals', as(token, key()), {
        amount: yen(10_000),
        bank_account_id: u.accountId,
        txn_password: '123456',
      });
      expect(res.statusCode, res.body).toBe(200);
      return body<{ process_after: string }>(res).data.process_after;
    };
    const start = t.clock.now();
    try {
      t.clock.set('2026-11-24T03:00:00.000Z'); // 12:00, lunch break → 12:30 the same day
      expect(await file()).toBe('2026-11-24T03:30:00.000Z');
      t.clock.set('2026-11-28T01:00:00.000Z'); // Saturday 10:00 → Monday 9:00
      expect(await file()).toBe('2026-11-30T00:00:00.000Z');
      const login = await post(
        '/api/auth/login',
        {},
        { account: u.phone, password: u.password, agree: true },
      );
      const token = body<{ token: string }>(login).data.token;
      const rules = body<{ open_now: boolean; next_window_start: string }>(
        await get('/api/index/withdrawal', as(token)),
      ).data;
      expect(rules).toMatchObject({ open_now: false, next_window_start: '2026-11-30T00:00:00.000Z' });
    } finally {
      t.clock.set(start);
    }
  });

  it('100 concurrent requests on one account never reserve more than the cash', async () => {
    const reviewer = await operator();
    const u = await readyToWithdraw(reviewer);
    await fund(u.userId, 355_000, reviewer, u.token);
    // each request carries its own step-up (a user without a passkey takes them by SMS, one after another)
    const stepUps: string[] = [];
    for (let i = 0; i < 100; i += 1) {
      stepUps.push(
        await smsStepUpToken(t, u, {
          action: 'withdrawal',
          amount: yen(10_000),
          bank_account_id: u.accountId,
        }),
      );
    }
    const answers = await Promise.all(
      stepUps.map((stepUp) =>
        post('/api/withdrawals', as(u.token, key()), {
          amount: yen(10_000),
          bank_account_id: u.accountId,
          txn_password: '123456',
          step_up_token: stepUp,
        }),
      ),
    );
    const codes = answers.map((r) => body(r).code);
    expect(codes.filter((c) => c === 1)).toHaveLength(35);
    expect(codes.filter((c) => c === 1332)).toHaveLength(65);
    expect(await userBalances(t.database.db, u.userId)).toMatchObject({
      cash: yen(5_000),
      withdrawing: yen(350_000),
    });
  });
});

describe('messages', () => {
  it('count unread, mark read (own messages only), and list newest first', async () => {
    const u = await registerAndLogin(t, { verified: false });
    const other = await registerAndLogin(t, { verified: false });
    await submitIdentity(u.token);
    await submitIdentity(other.token);
    expect(body(await get('/api/messages/unread-count', as(u.token))).data).toEqual({ unread: 1 });
    const theirs = body<{ items: { id: number }[] }>(await get('/api/messages', as(other.token))).data
      .items[0]?.id;
    expect(body(await post('/api/messages/read', as(u.token), { ids: [theirs] })).data).toEqual({
      unread: 1,
    });
    expect(body(await get('/api/messages/unread-count', as(other.token))).data).toEqual({ unread: 1 });
    expect(body(await post('/api/messages/read', as(u.token), { all: true })).data).toEqual({ unread: 0 });
    const page = body<{ total: number; unread: number; items: { read: boolean; kind: string }[] }>(
      await get('/api/messages', as(u.token)),
    ).data;
    expect(page).toMatchObject({ total: 1, unread: 0, items: [{ read: true, kind: 'identity.submitted' }] });
  });
});

describe('console review queues', () => {
  it('refuse a user token and an unknown operator token', async () => {
    const u = await registerAndLogin(t);
    for (const path of ['identity', 'bank-accounts', 'deposits', 'withdrawals']) {
      expect((await get(`/api/console/${path}`, as(u.token))).statusCode).toBe(401);
      expect((await get(`/api/console/${path}`, { authorization: `Bearer ${u.token}` })).statusCode).toBe(
        401,
      );
      expect(
        (await post(`/api/console/${path}/1/approve`, { authorization: `Bearer ${u.token}` })).statusCode,
      ).toBe(401);
    }
  });

  it('answer NOT_FOUND for an item that does not exist', async () => {
    const reviewer = await operator();
    expect((await post('/api/console/deposits/999999/approve', reviewer)).statusCode).toBe(404);
    expect((await get('/api/console/withdrawals/999999', reviewer)).statusCode).toBe(404);
  });

  it('read a 50-row bank account page in a constant number of statements, with each verified name', async () => {
    const reviewer = await operator();
    // Test setup: bank accounts inserted straight into the table, ten for each of five users; the last user's
    // newest identity submission was rejected after the passed one, so that user has no verified name.
    const owners = await Promise.all([1, 2, 3, 4, 5].map(() => registerAndLogin(t)));
    const last = owners[4];
    if (last === undefined) throw new Error('five users');
    const [passed] = await t.database.db
      .select()
      .from(identityVerifications)
      .where(eq(identityVerifications.userId, last.userId));
    if (passed === undefined) throw new Error('a passed identity check');
    const { id: _passedId, ...copy } = passed;
    await t.database.db.insert(identityVerifications).values({
      ...copy,
      fullName: '山田 次郎',
      status: 'rejected',
      reason: 'blurred',
    });
    await t.database.db.insert(bankAccounts).values(
      Array.from({ length: 50 }, (_, i) => ({
        userId: owners[i % 5]?.userId ?? last.userId,
        holderName: '山田太郎',
        accountNumber: String(1_000_000 + i),
        bankName: 'みずほ銀行',
        branchName: '本店',
        branchNumber: '001',
      })),
    );

    const sent: string[] = [];
    const session = t.database.db._.session as unknown as { options: { logger?: unknown }; logger: unknown };
    const logger = { logQuery: (query: string) => sent.push(query) };
    const [savedOptions, saved] = [session.options.logger, session.logger];
    session.options.logger = logger;
    session.logger = logger;
    const statementsOf = async (limit: number) => {
      sent.length = 0;
      const res = await get(`/api/console/bank-accounts?status=pending&limit=${limit}`, reviewer);
      expect(res.statusCode, res.body).toBe(200);
      return {
        count: sent.length,
        items: body<{ items: { user_id: number; verified_name: string | null }[] }>(res).data.items,
      };
    };
    try {
      const one = await statementsOf(1);
      const fifty = await statementsOf(50);
      expect(fifty.items).toHaveLength(50);
      // The operator's session, the page (its verified names in the same select) and its total.
      expect(fifty.count).toBe(one.count);
      expect(fifty.count).toBeLessThanOrEqual(3);
      for (const item of fifty.items) {
        expect(item.verified_name).toBe(item.user_id === last.userId ? null : VERIFIED_NAME);
      }
    } finally {
      session.options.logger = savedOptions;
      session.logger = saved;
    }
  });
});
