import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { yen } from '@kabuto/contract';
import { bankAccounts } from '../../db/schema.js';
import { body, createTestApp, registerAndLogin, type TestApp } from '../../test/harness.js';
import { SoftAuthenticator } from '../../test/soft-authenticator.js';
import { postStepped } from '../../test/step-up.js';
import { fundDemoCash } from '../ledger/ledger.js';

/**
 * Passkeys and step-up (issue 22, ADR 0031) against a software authenticator: registration, discoverable
 * sign-in, and a fresh assertion bound to one action (its amount, account or passkey), used once.
 */
const ORIGIN = 'https://kabuto.example';
const RP_ID = 'kabuto.example';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ WEBAUTHN_RP_ID: RP_ID, WEBAUTHN_ORIGIN: ORIGIN });
});
afterAll(() => t.close());

type Headers = Record<string, string>;
const post = (url: string, headers: Headers, payload: unknown = {}) =>
  t.app.inject({ method: 'POST', url: `${url}?lang=en`, headers, payload: payload as object });
const get = (url: string, headers: Headers) =>
  t.app.inject({ method: 'GET', url: `${url}?lang=en`, headers });
let keyCounter = 0;
const idem = () => ({ 'idempotency-key': `passkey-test-${(keyCounter += 1)}` });

interface Options {
  challenge: string;
  allowCredentials?: { id: string }[];
}
const optionsOf = (res: { json(): unknown }) => (res.json() as { data: { options: Options } }).data.options;

/** Registers a software passkey for the user; answers it and its id. */
async function addPasskey(token: string, name?: string) {
  const key = new SoftAuthenticator(ORIGIN, RP_ID);
  const options = optionsOf(await post('/api/passkeys/options', { token }));
  const res = await post('/api/passkeys', { token }, { credential: key.register(options), name });
  expect(res.statusCode, res.body).toBe(200);
  return { key, id: body<{ id: number }>(res).data.id };
}

/** A step-up token for one action, answered by `key`. */
async function stepUp(token: string, key: SoftAuthenticator, action: Record<string, unknown>) {
  const options = optionsOf(await post('/api/step-up/options', { token }, action));
  const res = await post('/api/step-up/verify', { token }, { credential: key.assert(options) });
  expect(res.statusCode, res.body).toBe(200);
  return body<{ step_up_token: string }>(res).data.step_up_token;
}

/** A user with a passkey, an approved bank account, a transaction password and ¥100,000 of cash. */
async function readyToWithdraw() {
  const u = await registerAndLogin(t);
  expect(
    (
      await post(
        '/api/user/setTxnPassword',
        { token: u.token },
        { login_password: u.password, new_password: '123456', confirm_password: '123456' },
      )
    ).statusCode,
  ).toBe(200);
  const added = await postStepped(t, u, '/api/bank-accounts', {
    holder_name: 'ヤマダ タロウ',
    account_number: '1234567',
    bank_code: '0001',
    branch_code: '100',
    login_password: u.password,
  });
  expect(added.statusCode, added.body).toBe(200);
  const accountId = body<{ id: number }>(added).data.id;
  await t.database.db.update(bankAccounts).set({ status: 'approved' }).where(eq(bankAccounts.id, accountId));
  await fundDemoCash(t.database.db, u.userId, yen(100_000), t.clock.now());
  const passkey = await addPasskey(u.token);
  return { ...u, accountId, ...passkey };
}

describe('unauthorized access', () => {
  it.each([
    ['GET', '/api/passkeys'],
    ['POST', '/api/passkeys/options'],
    ['POST', '/api/passkeys'],
    ['PATCH', '/api/passkeys/1'],
    ['POST', '/api/passkeys/1/remove'],
    ['POST', '/api/step-up/options'],
    ['POST', '/api/step-up/verify'],
  ] as const)('%s %s needs a session', async (method, url) => {
    const res = await t.app.inject({ method, url, payload: {} });
    expect(res.statusCode).toBe(401);
    expect(body(res).code).toBe(401);
  });

  it('another user’s passkey can be neither renamed, removed nor used to step up', async () => {
    const owner = await registerAndLogin(t);
    const { id } = await addPasskey(owner.token);
    const other = await registerAndLogin(t);
    const { key: otherKey } = await addPasskey(other.token);
    const rename = await t.app.inject({
      method: 'PATCH',
      url: `/api/passkeys/${id}`,
      headers: { token: other.token },
      payload: { name: 'mine now' },
    });
    expect(body(rename).code).toBe(1733);
    const token = await stepUp(other.token, otherKey, { action: 'change_password' });
    expect(
      body(await post(`/api/passkeys/${id}/remove`, { token: other.token }, { step_up_token: token })).code,
    ).toBe(1736);
    expect(
      body(
        await post(
          '/api/step-up/options',
          { token: other.token },
          { action: 'remove_passkey', passkey_id: id },
        ),
      ).code,
    ).toBe(1733);
    expect(
      body<{ items: unknown[] }>(await get('/api/passkeys', { token: owner.token })).data.items,
    ).toHaveLength(1);
  });
});

describe('registration', () => {
  it('lists the passkey (name, created, last used), and tells the user by message and SMS', async () => {
    const u = await registerAndLogin(t);
    await addPasskey(u.token, 'iPhone');
    const list = body<{ items: unknown[] }>(await get('/api/passkeys', { token: u.token })).data.items;
    expect(list).toEqual([
      {
        id: expect.any(Number) as unknown,
        name: 'iPhone',
        created_at: t.clock.now().toISOString(),
        last_used_at: null,
      },
    ]);
    const kinds = body<{ items: { kind: string }[] }>(await get('/api/messages', { token: u.token })).data
      .items;
    expect(kinds.map((m) => m.kind)).toContain('security.passkey_added');
    expect(t.sms.sent.findLast((m) => m.phone === u.phone)).toMatchObject({
      purpose: 'security.passkey_added',
      text: expect.stringContaining('iPhone') as unknown,
    });
  });

  it('refuses an answer from another origin, without user verification, or to a used challenge', async () => {
    const u = await registerAndLogin(t);
    const phishing = new SoftAuthenticator('https://kabuto.example.evil', RP_ID);
    let options = optionsOf(await post('/api/passkeys/options', { token: u.token }));
    expect(
      body(await post('/api/passkeys', { token: u.token }, { credential: phishing.register(options) })).code,
    ).toBe(1731);
    const lazy = new SoftAuthenticator(ORIGIN, RP_ID);
    lazy.userVerified = false;
    options = optionsOf(await post('/api/passkeys/options', { token: u.token }));
    expect(
      body(await post('/api/passkeys', { token: u.token }, { credential: lazy.register(options) })).code,
    ).toBe(1731);
    const good = new SoftAuthenticator(ORIGIN, RP_ID);
    options = optionsOf(await post('/api/passkeys/options', { token: u.token }));
    const answer = good.register(options);
    expect(body(await post('/api/passkeys', { token: u.token }, { credential: answer })).code).toBe(1);
    expect(body(await post('/api/passkeys', { token: u.token }, { credential: answer })).code).toBe(1732);
    expect(
      body<{ items: unknown[] }>(await get('/api/passkeys', { token: u.token })).data.items,
    ).toHaveLength(1);
  });

  it('answers a malformed answer with a 4xx in the envelope, never a 500', async () => {
    const u = await registerAndLogin(t);
    const clientData = (challenge: string) =>
      Buffer.from(JSON.stringify({ type: 'webauthn.create', challenge, origin: ORIGIN })).toString(
        'base64url',
      );
    for (const clientDataJSON of ['%%%', clientData('a\u0000b'.repeat(8)), clientData('x'.repeat(5000))]) {
      const credential = { id: 'abc', rawId: 'abc', type: 'public-key', response: { clientDataJSON } };
      for (const url of ['/api/passkeys', '/api/step-up/verify']) {
        const res = await post(url, { token: u.token }, { credential });
        expect(res.statusCode).toBeLessThan(500);
        expect(body(res).code).toBe(1731);
      }
      const login = await post('/api/auth/passkey/login', {}, { credential });
      expect(body(login).code).toBe(1731);
    }
  });

  it('refuses a challenge older than five minutes', async () => {
    const u = await registerAndLogin(t);
    const options = optionsOf(await post('/api/passkeys/options', { token: u.token }));
    t.clock.advance(5 * 60_000 + 1);
    try {
      const key = new SoftAuthenticator(ORIGIN, RP_ID);
      expect(
        body(await post('/api/passkeys', { token: u.token }, { credential: key.register(options) })).code,
      ).toBe(1732);
    } finally {
      t.clock.advance(-(5 * 60_000 + 1));
    }
  });
});

describe('sign-in with a passkey', () => {
  it('does not keep challenges long past their expiry', async () => {
    const { webauthnChallenges } = await import('../../db/schema.js');
    const { lt } = await import('drizzle-orm');
    await post('/api/auth/passkey/options', {});
    const hour = 60 * 60_000;
    t.clock.advance(2 * hour);
    const stale = async () =>
      (
        await t.database.db
          .select()
          .from(webauthnChallenges)
          .where(lt(webauthnChallenges.expiresAt, new Date(t.clock.now().getTime() - hour)))
      ).length;
    try {
      const before = await stale();
      expect(before).toBeGreaterThan(0);
      // each new challenge sweeps a bounded batch (50) of those an hour past their expiry
      await post('/api/auth/passkey/options', {});
      expect(await stale()).toBe(Math.max(0, before - 50));
    } finally {
      t.clock.advance(-2 * hour);
    }
  });

  it('opens the same session as password sign-in, once per challenge, and records the use', async () => {
    const u = await registerAndLogin(t);
    const { key } = await addPasskey(u.token);
    const options = optionsOf(await post('/api/auth/passkey/options', {}));
    expect(options.allowCredentials ?? []).toEqual([]);
    const answer = key.assert(options);
    const res = await post('/api/auth/passkey/login', {}, { credential: answer });
    expect(res.statusCode, res.body).toBe(200);
    const session = body<{ token: string; user_id: number; user_info: { phone?: string } }>(res).data;
    expect(session.user_id).toBe(u.userId);
    expect((await get('/api/index/getUserInfo', { token: session.token })).statusCode).toBe(200);
    expect(body(await post('/api/auth/passkey/login', {}, { credential: answer })).code).toBe(1732);
    const list = body<{ items: { last_used_at: string | null }[] }>(
      await get('/api/passkeys', { token: u.token }),
    );
    expect(list.data.items[0]?.last_used_at).toBe(t.clock.now().toISOString());
  });

  it('refuses an assertion whose signature does not verify', async () => {
    const u = await registerAndLogin(t);
    const { key } = await addPasskey(u.token);
    const options = optionsOf(await post('/api/auth/passkey/options', {}));
    const answer = key.assert(options);
    const forged = {
      ...answer,
      response: { ...answer.response, signature: key.assert(options).response.signature },
    };
    expect(body(await post('/api/auth/passkey/login', {}, { credential: forged })).code).toBe(1731);
  });

  it('refuses a passkey this service does not know, and one signed for another site', async () => {
    const stranger = new SoftAuthenticator(ORIGIN, RP_ID);
    let options = optionsOf(await post('/api/auth/passkey/options', {}));
    expect(
      body(await post('/api/auth/passkey/login', {}, { credential: stranger.assert(options) })).code,
    ).toBe(1734);
    const u = await registerAndLogin(t);
    const { key } = await addPasskey(u.token);
    key.rpId = 'evil.example';
    options = optionsOf(await post('/api/auth/passkey/options', {}));
    expect(body(await post('/api/auth/passkey/login', {}, { credential: key.assert(options) })).code).toBe(
      1731,
    );
  });
});

describe('step-up', () => {
  const withdraw = (token: string, accountId: number, amount: number, stepUpToken?: string) =>
    post(
      '/api/withdrawals',
      { token, ...idem() },
      { amount, bank_account_id: accountId, txn_password: '123456', step_up_token: stepUpToken },
    );

  it('a passkey holder’s withdrawal needs a fresh assertion for that amount and account, used once', async () => {
    const u = await readyToWithdraw();
    expect(body(await withdraw(u.token, u.accountId, yen(10_000))).code).toBe(1735);

    const action = { action: 'withdrawal', amount: yen(10_000), bank_account_id: u.accountId };
    const token = await stepUp(u.token, u.key, action);
    // bound to the amount: another amount is refused, and the token is not spent by the refusal
    expect(body(await withdraw(u.token, u.accountId, yen(90_000), token)).code).toBe(1736);
    const filed = await withdraw(u.token, u.accountId, yen(10_000), token);
    expect(body(filed)).toMatchObject({ code: 1, data: { amount: yen(10_000), status: 'pending' } });
    expect(t.sms.sent.findLast((m) => m.phone === u.phone)).toMatchObject({
      purpose: 'withdrawal.filed',
      text: expect.stringContaining('10,000') as unknown,
    });
    // single use
    expect(body(await withdraw(u.token, u.accountId, yen(10_000), token)).code).toBe(1736);
  });

  it('refuses a replayed assertion, a wrong-action token and an expired one', async () => {
    const u = await readyToWithdraw();
    const options = optionsOf(
      await post(
        '/api/step-up/options',
        { token: u.token },
        { action: 'withdrawal', amount: yen(1_000), bank_account_id: u.accountId },
      ),
    );
    const answer = u.key.assert(options);
    expect(body(await post('/api/step-up/verify', { token: u.token }, { credential: answer })).code).toBe(1);
    expect(body(await post('/api/step-up/verify', { token: u.token }, { credential: answer })).code).toBe(
      1732,
    );

    const forPassword = await stepUp(u.token, u.key, { action: 'change_password' });
    expect(body(await withdraw(u.token, u.accountId, yen(1_000), forPassword)).code).toBe(1736);

    const late = await stepUp(u.token, u.key, {
      action: 'withdrawal',
      amount: yen(1_000),
      bank_account_id: u.accountId,
    });
    t.clock.advance(5 * 60_000 + 1);
    try {
      expect(body(await withdraw(u.token, u.accountId, yen(1_000), late)).code).toBe(1736);
    } finally {
      t.clock.advance(-(5 * 60_000 + 1));
    }
  });

  it('an assertion by another user’s passkey does not step this user up', async () => {
    const u = await readyToWithdraw();
    const other = await registerAndLogin(t);
    const { key: otherKey } = await addPasskey(other.token);
    const options = optionsOf(
      await post('/api/step-up/options', { token: u.token }, { action: 'change_password' }),
    );
    expect(
      body(await post('/api/step-up/verify', { token: u.token }, { credential: otherKey.assert(options) }))
        .code,
    ).toBe(1731);
  });

  it('guards bank accounts and both passwords; users without a passkey step up by SMS instead', async () => {
    const u = await readyToWithdraw();
    const account = {
      holder_name: 'ヤマダ タロウ',
      account_number: '7654321',
      bank_code: '0001',
      branch_code: '100',
      login_password: u.password,
      replaces_id: u.accountId,
    };
    expect(body(await post('/api/bank-accounts', { token: u.token }, account)).code).toBe(1735);
    const forOther = await stepUp(u.token, u.key, {
      action: 'bank_account',
      bank_code: '0001',
      branch_code: '100',
      account_number: '1111111',
      replaces_id: u.accountId,
    });
    expect(
      body(await post('/api/bank-accounts', { token: u.token }, { ...account, step_up_token: forOther }))
        .code,
    ).toBe(1736);
    const right = await stepUp(u.token, u.key, {
      action: 'bank_account',
      bank_code: '0001',
      branch_code: '100',
      account_number: '7654321',
      replaces_id: u.accountId,
    });
    expect(
      body(await post('/api/bank-accounts', { token: u.token }, { ...account, step_up_token: right })).code,
    ).toBe(1);
    expect(t.sms.sent.findLast((m) => m.phone === u.phone)).toMatchObject({
      purpose: 'bank_account.added',
      text: expect.stringContaining('321') as unknown,
    });

    const change = { old_password: u.password, new_password: 'secret34', confirm_password: 'secret34' };
    expect(body(await post('/api/user/changePassword', { token: u.token }, change)).code).toBe(1735);
    const pw = await stepUp(u.token, u.key, { action: 'change_password' });
    expect(
      body(await post('/api/user/changePassword', { token: u.token }, { ...change, step_up_token: pw })).code,
    ).toBe(1);

    const txn = { old_password: '123456', new_password: '654321', confirm_password: '654321' };
    expect(body(await post('/api/user/changeTxnPassword', { token: u.token }, txn)).code).toBe(1735);
    const tp = await stepUp(u.token, u.key, { action: 'change_txn_password' });
    expect(
      body(await post('/api/user/changeTxnPassword', { token: u.token }, { ...txn, step_up_token: tp })).code,
    ).toBe(1);

    const plain = await registerAndLogin(t);
    expect(
      body(await post('/api/step-up/options', { token: plain.token }, { action: 'change_password' })).code,
    ).toBe(1733);
    const plainChange = {
      old_password: plain.password,
      new_password: 'secret34',
      confirm_password: 'secret34',
    };
    // a user without a passkey is refused without a step-up too, and steps up by SMS (sms-step-up.ts)
    expect(body(await post('/api/user/changePassword', { token: plain.token }, plainChange))).toMatchObject({
      code: 1805,
      msg: 'Please confirm this with the code we send you by SMS',
    });
    expect(body(await postStepped(t, plain, '/api/user/changePassword', plainChange)).code).toBe(1);
  });

  it('removing a passkey needs an assertion naming it; the user is told', async () => {
    const u = await registerAndLogin(t);
    const first = await addPasskey(u.token, 'laptop');
    const second = await addPasskey(u.token, 'phone');
    expect(body(await post(`/api/passkeys/${first.id}/remove`, { token: u.token })).code).toBe(1735);
    const forSecond = await stepUp(u.token, first.key, { action: 'remove_passkey', passkey_id: second.id });
    expect(
      body(await post(`/api/passkeys/${first.id}/remove`, { token: u.token }, { step_up_token: forSecond }))
        .code,
    ).toBe(1736);
    const forFirst = await stepUp(u.token, second.key, { action: 'remove_passkey', passkey_id: first.id });
    expect(
      body(await post(`/api/passkeys/${first.id}/remove`, { token: u.token }, { step_up_token: forFirst }))
        .code,
    ).toBe(1);
    const names = body<{ items: { name: string }[] }>(await get('/api/passkeys', { token: u.token })).data
      .items;
    expect(names.map((p) => p.name)).toEqual(['phone']);
    expect(t.sms.sent.findLast((m) => m.phone === u.phone)).toMatchObject({
      purpose: 'security.passkey_removed',
      text: expect.stringContaining('laptop') as unknown,
    });
  });
});
