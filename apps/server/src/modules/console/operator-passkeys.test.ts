import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, operators } from '../../db/schema.js';
import { hashPassword } from '../../lib/passwords.js';
import { body, createTestApp, registerAndLogin, type TestApp } from '../../test/harness.js';
import { SoftAuthenticator } from '../../test/soft-authenticator.js';
import { STEP_UP_MINUTES } from '../passkeys/passkeys.js';

/**
 * Operators' passkeys (issue 22, ADR 0033) against a software authenticator, with administrators' passkeys
 * required (the production default): the hold until one is registered, passkey sign-in instead of the
 * password, removal, and the audit trail of each.
 */
const ORIGIN = 'https://kabuto.example';
const RP_ID = 'kabuto.example';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    WEBAUTHN_RP_ID: RP_ID,
    WEBAUTHN_ORIGIN: ORIGIN,
    CONSOLE_ADMIN_PASSKEY: 'required',
  });
});
afterAll(() => t.close());

type Headers = Record<string, string>;
const post = (url: string, headers: Headers = {}, payload: unknown = {}) =>
  t.app.inject({ method: 'POST', url: `${url}?lang=en`, headers, payload: payload as object });
const get = (url: string, headers: Headers) =>
  t.app.inject({ method: 'GET', url: `${url}?lang=en`, headers });
const optionsOf = (res: { json(): unknown }) =>
  (res.json() as { data: { options: { challenge: string } } }).data.options;

let counter = 0;
const PASSWORD = 'operator-password-1';
/** A new operator of the role, signed in by password. */
async function operator(role: 'administrator' | 'reviewer' = 'administrator') {
  counter += 1;
  const username = `pk${counter}`;
  const [row] = await t.database.db
    .insert(operators)
    .values({
      username,
      displayName: username,
      passwordHash: await hashPassword(PASSWORD),
      role,
      mustChangePassword: false,
    })
    .returning();
  const res = await post('/api/console/login', {}, { username, password: PASSWORD });
  expect(res.statusCode, res.body).toBe(200);
  const data = body<{ token: string; passkey_required: boolean }>(res).data;
  return {
    id: row?.id ?? 0,
    username,
    passkeyRequired: data.passkey_required,
    headers: { authorization: `Bearer ${data.token}` },
  };
}

type StepUpRequest = { action: 'add_passkey' } | { action: 'remove_passkey'; passkey_id: number };

/**
 * The console's step-up (ADR 0049): with `withKey`, an assertion of that passkey of the operator's; without,
 * the password (an operator with no passkey yet). Answers the step-up token.
 */
async function stepUp(headers: Headers, request: StepUpRequest, withKey?: SoftAuthenticator) {
  let res;
  if (withKey) {
    const options = optionsOf(await post('/api/console/step-up/options', headers, request));
    res = await post('/api/console/step-up/verify', headers, { credential: withKey.assert(options) });
  } else {
    res = await post('/api/console/step-up/password', headers, { request, password: PASSWORD });
  }
  expect(res.statusCode, res.body).toBe(200);
  return body<{ step_up_token: string }>(res).data.step_up_token;
}

/** Adds a passkey after the step-up: the password for the first, an assertion of `withKey` after that. */
async function addPasskey(headers: Headers, name?: string, withKey?: SoftAuthenticator) {
  const token = await stepUp(headers, { action: 'add_passkey' }, withKey);
  const key = new SoftAuthenticator(ORIGIN, RP_ID);
  const options = optionsOf(await post('/api/console/passkeys/options', headers));
  const res = await post('/api/console/passkeys', headers, {
    credential: key.register(options),
    name,
    step_up_token: token,
  });
  expect(res.statusCode, res.body).toBe(200);
  return { key, id: body<{ id: number }>(res).data.id };
}

/** Removes passkey `id` after a step-up asserted with `withKey`. */
async function removePasskey(headers: Headers, id: number, withKey: SoftAuthenticator) {
  const token = await stepUp(headers, { action: 'remove_passkey', passkey_id: id }, withKey);
  return post(`/api/console/passkeys/${id}/remove`, headers, { step_up_token: token });
}

async function passkeyLogin(key: SoftAuthenticator) {
  const options = optionsOf(await post('/api/console/passkey/options'));
  const credential = key.assert(options);
  return { res: await post('/api/console/passkey/login', {}, { credential }), credential };
}

const audited = async (operatorId: number, action: string) =>
  t.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.operatorId, operatorId), eq(auditLog.action, action)));

describe('operator passkeys', () => {
  it('holds an administrator without a passkey until one is registered, then opens the console', async () => {
    const admin = await operator();
    expect(admin.passkeyRequired).toBe(true);
    const held = await get('/api/console/identity', admin.headers);
    expect(held.statusCode).toBe(403);
    expect(body(held)).toMatchObject({
      code: 1820,
      msg: 'An administrator must register a passkey before using the console. Register one on the passkey page',
    });
    // who am I and the passkey list stay open
    expect((await get('/api/console/me', admin.headers)).statusCode).toBe(200);
    expect(body(await get('/api/console/passkeys', admin.headers)).data).toEqual({ items: [] });

    const { id } = await addPasskey(admin.headers, 'YubiKey');
    const list = body<{ items: { id: number; name: string }[] }>(
      await get('/api/console/passkeys', admin.headers),
    );
    expect(list.data.items).toEqual([expect.objectContaining({ id, name: 'YubiKey', last_used_at: null })]);
    expect((await get('/api/console/identity', admin.headers)).statusCode).toBe(200);
    const [entry] = await audited(admin.id, 'operator.passkey_add');
    expect(entry).toMatchObject({ targetType: 'passkey', targetId: String(id) });
  });

  it('refuses the password to an administrator who has a passkey, and signs in with the passkey', async () => {
    const admin = await operator();
    const { key, id } = await addPasskey(admin.headers);
    for (const password of [PASSWORD, 'a-wrong-password']) {
      const res = await post('/api/console/login', {}, { username: admin.username, password });
      expect(res.statusCode).toBe(403);
      expect(body(res)).toMatchObject({ code: 1821, data: null });
    }
    // the refusal counts no failure: the account is not locked by it
    const [row] = await t.database.db.select().from(operators).where(eq(operators.id, admin.id));
    expect(row).toMatchObject({ failedLogins: 0, lockedUntil: null });

    const { res, credential } = await passkeyLogin(key);
    expect(res.statusCode, res.body).toBe(200);
    const data = body<{ token: string; operator: { id: number }; passkey_required: boolean }>(res).data;
    expect(data).toMatchObject({ operator: { id: admin.id }, passkey_required: false });
    const headers = { authorization: `Bearer ${data.token}` };
    expect((await get('/api/console/identity', headers)).statusCode).toBe(200);
    const [signIn] = await audited(admin.id, 'operator.login_passkey');
    expect(signIn).toMatchObject({ targetType: 'operator', targetId: String(admin.id) });
    const listed = body<{ items: { id: number; last_used_at: string | null }[] }>(
      await get('/api/console/passkeys', headers),
    ).data.items;
    expect(listed.find((p) => p.id === id)?.last_used_at).not.toBeNull();

    // the same answer again is a replay
    const replay = await post('/api/console/passkey/login', {}, { credential });
    expect(body(replay).code).toBe(1732);
  });

  it('keeps customers and operators apart: neither passkey signs in to the other side', async () => {
    const admin = await operator();
    const { key: operatorKey } = await addPasskey(admin.headers);
    const user = await registerAndLogin(t);
    const userKey = new SoftAuthenticator(ORIGIN, RP_ID);
    const created = await post(
      '/api/passkeys',
      { token: user.token },
      { credential: userKey.register(optionsOf(await post('/api/passkeys/options', { token: user.token }))) },
    );
    expect(created.statusCode, created.body).toBe(200);

    const intoConsole = await passkeyLogin(userKey);
    expect(body(intoConsole.res)).toMatchObject({ code: 1734, data: null });
    const customerOptions = optionsOf(await post('/api/auth/passkey/options'));
    const intoSite = await post(
      '/api/auth/passkey/login',
      {},
      { credential: operatorKey.assert(customerOptions) },
    );
    expect(body(intoSite)).toMatchObject({ code: 1734, data: null });
    // a customer's sign-in challenge does not serve the console's
    const crossed = await post(
      '/api/console/passkey/login',
      {},
      { credential: operatorKey.assert(customerOptions) },
    );
    expect(body(crossed).code).toBe(1732);
  });

  it('renames and removes, keeps an administrator at one passkey at least, and audits it', async () => {
    const admin = await operator();
    const first = await addPasskey(admin.headers);
    const last = await removePasskey(admin.headers, first.id, first.key);
    expect(last.statusCode).toBe(409);
    expect(body(last)).toMatchObject({
      code: 1822,
      msg: 'An administrator must keep at least one passkey. Register another one before removing this one',
    });
    // refused without a step-up too, and with the same clear reason first
    expect(body(await post(`/api/console/passkeys/${first.id}/remove`, admin.headers)).code).toBe(1822);
    expect(await audited(admin.id, 'operator.passkey_remove')).toHaveLength(0);

    const second = await addPasskey(admin.headers, undefined, first.key);
    const renamed = await t.app.inject({
      method: 'PATCH',
      url: `/api/console/passkeys/${second.id}?lang=en`,
      headers: admin.headers,
      payload: { name: 'Laptop' },
    });
    expect(body(renamed)).toMatchObject({ code: 1, data: { id: second.id, name: 'Laptop' } });
    expect(await audited(admin.id, 'operator.passkey_rename')).toHaveLength(1);

    // another operator can neither rename nor remove it
    const other = await operator('reviewer');
    const foreign = await post(`/api/console/passkeys/${first.id}/remove`, other.headers);
    expect(body(foreign).code).toBe(1733);
    // nor step up for it
    const foreignStepUp = await post('/api/console/step-up/options', other.headers, {
      action: 'remove_passkey',
      passkey_id: first.id,
    });
    expect(body(foreignStepUp).code).toBe(1733);
    const foreignRename = await t.app.inject({
      method: 'PATCH',
      url: `/api/console/passkeys/${first.id}?lang=en`,
      headers: other.headers,
      payload: { name: 'Mine' },
    });
    expect(body(foreignRename).code).toBe(1733);

    expect(body(await removePasskey(admin.headers, first.id, second.key)).code).toBe(1);
    const items = body<{ items: { id: number }[] }>(await get('/api/console/passkeys', admin.headers)).data
      .items;
    expect(items.map((p) => p.id)).toEqual([second.id]);
    const [removal] = await audited(admin.id, 'operator.passkey_remove');
    expect(removal).toMatchObject({ targetId: String(first.id), after: '{"step_up":"passkey"}' });
    // the removed passkey signs in no more
    expect(body((await passkeyLogin(first.key)).res).code).toBe(1734);
  });

  it('lets a reviewer use a passkey without requiring one, and keeps the password for it', async () => {
    const reviewer = await operator('reviewer');
    expect(reviewer.passkeyRequired).toBe(false);
    expect((await get('/api/console/identity', reviewer.headers)).statusCode).toBe(200);
    const { key, id } = await addPasskey(reviewer.headers);
    // a reviewer may remove the last one
    const again = await post('/api/console/login', {}, { username: reviewer.username, password: PASSWORD });
    expect(again.statusCode).toBe(200);
    expect((await passkeyLogin(key)).res.statusCode).toBe(200);
    expect(body(await removePasskey(reviewer.headers, id, key)).code).toBe(1);
  });

  it('does not sign a deactivated operator in with a passkey', async () => {
    const admin = await operator();
    const { key } = await addPasskey(admin.headers);
    await t.database.db.update(operators).set({ active: false }).where(eq(operators.id, admin.id));
    expect(body((await passkeyLogin(key)).res).code).toBe(1734);
  });

  it('answers 401 on the own passkey and step-up routes without an operator session', async () => {
    const user = await registerAndLogin(t);
    const attempts: Headers[] = [{}, { token: user.token }, { authorization: `Bearer ${user.token}` }];
    for (const headers of attempts) {
      expect((await get('/api/console/passkeys', headers)).statusCode).toBe(401);
      expect((await post('/api/console/passkeys/options', headers)).statusCode).toBe(401);
      expect((await post('/api/console/passkeys/1/remove', headers)).statusCode).toBe(401);
      const request = { action: 'add_passkey' };
      expect((await post('/api/console/step-up/options', headers, request)).statusCode).toBe(401);
      expect(
        (await post('/api/console/step-up/password', headers, { request, password: 'x' })).statusCode,
      ).toBe(401);
      const credential = { id: 'x', rawId: 'x', type: 'public-key', response: { clientDataJSON: 'x' } };
      expect((await post('/api/console/step-up/verify', headers, { credential })).statusCode).toBe(401);
    }
  });
});

/**
 * Adding or removing a passkey needs a fresh proof of presence (ADR 0049): the password for the first
 * passkey, an assertion of one of the operator's passkeys after that; a one-time token bound to the action
 * and the passkey, valid for STEP_UP_MINUTES on the test's fixed clock.
 */
describe('the console step-up for passkeys', () => {
  const register = async (headers: Headers, token?: string) => {
    const key = new SoftAuthenticator(ORIGIN, RP_ID);
    const options = optionsOf(await post('/api/console/passkeys/options', headers));
    const res = await post('/api/console/passkeys', headers, {
      credential: key.register(options),
      ...(token === undefined ? {} : { step_up_token: token }),
    });
    return { key, res };
  };

  it('refuses to add a passkey without a step-up, and audits the password step-up of the first', async () => {
    const admin = await operator();
    const { res } = await register(admin.headers);
    expect(res.statusCode).toBe(403);
    expect(body(res)).toMatchObject({
      code: 1823,
      msg: 'Confirm it is you (with a passkey or your password) before changing your passkeys',
    });
    expect(body(await get('/api/console/passkeys', admin.headers)).data).toEqual({ items: [] });
    // a made-up token is no step-up
    const forged = await register(admin.headers, 'x'.repeat(43));
    expect(body(forged.res).code).toBe(1824);

    const { id } = await addPasskey(admin.headers, 'First');
    const [entry] = await audited(admin.id, 'operator.passkey_add');
    expect(entry).toMatchObject({ targetId: String(id) });
    expect(JSON.parse(entry?.after ?? '{}')).toMatchObject({ name: 'First', step_up: 'password' });
  });

  it('takes the password only from an operator without a passkey, and counts a wrong one', async () => {
    const reviewer = await operator('reviewer');
    const wrong = await post('/api/console/step-up/password', reviewer.headers, {
      request: { action: 'add_passkey' },
      password: 'not-the-password',
    });
    expect(wrong.statusCode).toBe(403);
    expect(body(wrong)).toMatchObject({ code: 1826, msg: 'The password is incorrect' });
    const [row] = await t.database.db.select().from(operators).where(eq(operators.id, reviewer.id));
    expect(row?.failedLogins).toBe(1);
    expect(await audited(reviewer.id, 'operator.step_up_failed')).toHaveLength(1);

    const { key } = await addPasskey(reviewer.headers);
    // once the operator has a passkey, the password is refused before it is checked
    const withPassword = await post('/api/console/step-up/password', reviewer.headers, {
      request: { action: 'add_passkey' },
      password: PASSWORD,
    });
    expect(body(withPassword)).toMatchObject({ code: 1825 });
    // and the passkey answers instead
    await addPasskey(reviewer.headers, 'Second', key);
    // an operator without a passkey has none to assert
    const fresh = await operator('reviewer');
    const none = await post('/api/console/step-up/options', fresh.headers, { action: 'add_passkey' });
    expect(body(none).code).toBe(1733);
  });

  it('binds the token to its action and passkey, spends it once, and keeps it unspent when refused', async () => {
    const admin = await operator();
    const first = await addPasskey(admin.headers);
    const second = await addPasskey(admin.headers, undefined, first.key);
    const third = await addPasskey(admin.headers, undefined, first.key);

    // a token for adding does not remove, nor does one for another passkey
    const forAdd = await stepUp(admin.headers, { action: 'add_passkey' }, first.key);
    const removeWithAdd = await post(`/api/console/passkeys/${second.id}/remove`, admin.headers, {
      step_up_token: forAdd,
    });
    expect(body(removeWithAdd)).toMatchObject({
      code: 1824,
      msg: 'Your confirmation has expired or was for another action. Confirm it is you again',
    });
    const forThird = await stepUp(
      admin.headers,
      { action: 'remove_passkey', passkey_id: third.id },
      first.key,
    );
    const crossed = await post(`/api/console/passkeys/${second.id}/remove`, admin.headers, {
      step_up_token: forThird,
    });
    expect(body(crossed).code).toBe(1824);
    // the refusals spent nothing: the token still removes the passkey it names, once
    expect(
      body(await post(`/api/console/passkeys/${third.id}/remove`, admin.headers, { step_up_token: forThird }))
        .code,
    ).toBe(1);
    const forSecond = await stepUp(
      admin.headers,
      { action: 'remove_passkey', passkey_id: second.id },
      first.key,
    );
    expect(
      body(
        await post(`/api/console/passkeys/${second.id}/remove`, admin.headers, { step_up_token: forSecond }),
      ).code,
    ).toBe(1);
    const again = await post(`/api/console/passkeys/${second.id}/remove`, admin.headers, {
      step_up_token: forSecond,
    });
    expect(body(again).code).toBe(1733);
    // the add token is still good for an add
    expect(body((await register(admin.headers, forAdd)).res).code).toBe(1);
    expect(body((await register(admin.headers, forAdd)).res).code).toBe(1824);
    const removals = await audited(admin.id, 'operator.passkey_remove');
    expect(removals.map((r) => r.targetId)).toEqual([String(third.id), String(second.id)]);
  });

  it('accepts a step-up until STEP_UP_MINUTES after it and refuses it from then on', async () => {
    const admin = await operator();
    const first = await addPasskey(admin.headers);
    const justInTime = await stepUp(admin.headers, { action: 'add_passkey' }, first.key);
    const late = await stepUp(admin.headers, { action: 'add_passkey' }, first.key);
    t.clock.advance(STEP_UP_MINUTES * 60_000 - 1);
    expect(body((await register(admin.headers, justInTime)).res).code).toBe(1);
    t.clock.advance(1);
    const refused = (await register(admin.headers, late)).res;
    expect(refused.statusCode).toBe(403);
    expect(body(refused).code).toBe(1824);
  });
});
