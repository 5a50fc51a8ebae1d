import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, operators } from '../../db/schema.js';
import { hashPassword } from '../../lib/passwords.js';
import { body, createTestApp, registerAndLogin, type TestApp } from '../../test/harness.js';
import { SoftAuthenticator } from '../../test/soft-authenticator.js';

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

async function addPasskey(headers: Headers, name?: string) {
  const key = new SoftAuthenticator(ORIGIN, RP_ID);
  const options = optionsOf(await post('/api/console/passkeys/options', headers));
  const res = await post('/api/console/passkeys', headers, { credential: key.register(options), name });
  expect(res.statusCode, res.body).toBe(200);
  return { key, id: body<{ id: number }>(res).data.id };
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
    const last = await post(`/api/console/passkeys/${first.id}/remove`, admin.headers);
    expect(last.statusCode).toBe(409);
    expect(body(last)).toMatchObject({ code: 1822 });

    const second = await addPasskey(admin.headers);
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
    const foreignRename = await t.app.inject({
      method: 'PATCH',
      url: `/api/console/passkeys/${first.id}?lang=en`,
      headers: other.headers,
      payload: { name: 'Mine' },
    });
    expect(body(foreignRename).code).toBe(1733);

    expect(body(await post(`/api/console/passkeys/${first.id}/remove`, admin.headers)).code).toBe(1);
    const items = body<{ items: { id: number }[] }>(await get('/api/console/passkeys', admin.headers)).data
      .items;
    expect(items.map((p) => p.id)).toEqual([second.id]);
    const [removal] = await audited(admin.id, 'operator.passkey_remove');
    expect(removal).toMatchObject({ targetId: String(first.id) });
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
    expect(body(await post(`/api/console/passkeys/${id}/remove`, reviewer.headers)).code).toBe(1);
  });

  it('does not sign a deactivated operator in with a passkey', async () => {
    const admin = await operator();
    const { key } = await addPasskey(admin.headers);
    await t.database.db.update(operators).set({ active: false }).where(eq(operators.id, admin.id));
    expect(body((await passkeyLogin(key)).res).code).toBe(1734);
  });

  it('answers 401 on the own passkey routes without an operator session', async () => {
    const user = await registerAndLogin(t);
    const attempts: Headers[] = [{}, { token: user.token }, { authorization: `Bearer ${user.token}` }];
    for (const headers of attempts) {
      expect((await get('/api/console/passkeys', headers)).statusCode).toBe(401);
      expect((await post('/api/console/passkeys/options', headers)).statusCode).toBe(401);
      expect((await post('/api/console/passkeys/1/remove', headers)).statusCode).toBe(401);
    }
  });
});
