import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TSettings } from '@kabuto/contract';
import { messages, operators } from '../../db/schema.js';
import { hashPassword } from '../../lib/passwords.js';
import { body, createTestApp, registerAndLogin, type TestApp } from '../../test/harness.js';
import { DEPOSIT_ACCOUNT_CHANGED } from './admin.js';

/**
 * Four-eyes, issue 22 (ADR 0030): a change of the firm's deposit account is told to every customer, in a
 * message in their language, since a changed account is what a fraudster or a rogue administrator would set.
 */
let t: TestApp;
let admin: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp();
  await t.database.db.insert(operators).values({
    username: 'depositadmin',
    displayName: 'Deposit admin',
    passwordHash: await hashPassword('operator-password-1'),
    role: 'administrator',
    mustChangePassword: false,
  });
  const signedIn = await t.app.inject({
    method: 'POST',
    url: '/api/console/login',
    payload: { username: 'depositadmin', password: 'operator-password-1' },
  });
  admin = { authorization: `Bearer ${body<{ token: string }>(signedIn).data.token}` };
});
afterAll(() => t.close());

async function deposit(): Promise<TSettings['deposit']> {
  const settings = await t.app.inject({ url: '/api/console/settings', headers: admin });
  return body<TSettings>(settings).data.deposit;
}
const putDeposit = (value: TSettings['deposit']) =>
  t.app.inject({ method: 'PUT', url: '/api/console/settings/deposit', headers: admin, payload: value });
const noticesOf = (userId: number) =>
  t.database.db.select().from(messages).where(eq(messages.userId, userId));

describe('a deposit account change', () => {
  it('is told to every customer, with the new bank and branch', async () => {
    const [a, b] = [await registerAndLogin(t), await registerAndLogin(t)];
    const current = await deposit();
    const changed = await putDeposit({ ...current, bank_name: 'みずほ銀行', branch_name: '兜町支店' });
    expect(body(changed).code).toBe(1);
    for (const user of [a, b]) {
      const notices = (await noticesOf(user.userId)).filter((m) => m.kind === DEPOSIT_ACCOUNT_CHANGED);
      expect(notices).toHaveLength(1);
      expect(JSON.parse(notices[0]?.params ?? '{}')).toEqual({
        bank_name: 'みずほ銀行',
        branch_name: '兜町支店',
      });
    }
    const listed = await t.app.inject({ url: '/api/messages?lang=en', headers: { token: a.token } });
    expect(listed.body).toContain(DEPOSIT_ACCOUNT_CHANGED);
  });

  it('is not told when only the deposit URL or nothing changes', async () => {
    const user = await registerAndLogin(t);
    const current = await deposit();
    expect(body(await putDeposit({ ...current, url: 'https://pay.example.jp/deposit' })).code).toBe(1);
    expect(body(await putDeposit({ ...current, url: 'https://pay.example.jp/deposit' })).code).toBe(1);
    const notices = (await noticesOf(user.userId)).filter((m) => m.kind === DEPOSIT_ACCOUNT_CHANGED);
    expect(notices).toHaveLength(0);
  });
});
