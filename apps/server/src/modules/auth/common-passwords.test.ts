import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CAMPAIGN,
  body,
  createTestApp,
  ensureCampaignCode,
  nextPhone,
  registerAndLogin,
  type TestApp,
} from '../../test/harness.js';
import { commonPasswords, isCommonPassword } from './common-passwords.js';
import { injectStepped } from '../../test/step-up.js';

/** The shipped list of common and breached passwords (issue 22, ADR 0030). */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await ensureCampaignCode(t);
});
afterAll(() => t.close());

async function registerWith(password: string, lang: string) {
  const phone = nextPhone();
  await t.app.inject({ method: 'POST', url: '/api/auth/sendSmsCode', payload: { phone } });
  return t.app.inject({
    method: 'POST',
    url: `/api/auth/register?lang=${lang}`,
    payload: {
      phone,
      password,
      password_confirm: password,
      invite_code: CAMPAIGN,
      sms_code: t.sms.lastCodeFor(phone),
    },
  });
}

describe('the common-password list', () => {
  it('ships tens of thousands of passwords, all within the 6-10 character rule', () => {
    const list = commonPasswords();
    expect(list.size).toBeGreaterThan(40_000);
    for (const password of list) {
      // the list is ASCII: its length is its count of characters
      expect(password.length).toBeGreaterThanOrEqual(6);
      expect(password.length).toBeLessThanOrEqual(10);
    }
    expect(isCommonPassword('qwerty123')).toBe(true);
    expect(isCommonPassword('PASSWORD1')).toBe(true); // compared lower-cased too
    expect(isCommonPassword('kbt7secret')).toBe(false);
  });

  it.each([
    ['en', 'This password is on a list of common or leaked passwords. Please choose another one'],
    [
      'jp',
      'このパスワードはよく使われている、または流出したパスワードの一覧に含まれています。別のパスワードを設定してください',
    ],
    [
      'fr',
      'Ce mot de passe figure sur une liste de mots de passe courants ou divulgués. Veuillez en choisir un autre',
    ],
  ])('refuses one at registration (%s) with its message', async (lang, message) => {
    const refused = await registerWith('password1', lang);
    expect(refused.statusCode).toBe(422);
    expect(body(refused)).toMatchObject({ code: 1703, msg: message });
    expect(body(await registerWith('kbt7fresh', lang)).code).toBe(1);
  });

  it('keeps the length rule and its message before the list', async () => {
    const short = await registerWith('12345', 'en');
    expect(body(short).msg).toBe('The password must be 6 to 10 characters long');
  });

  it('refuses one on change, before the old password is even checked', async () => {
    const user = await registerAndLogin(t);
    // each change steps up by SMS first (test/step-up.ts), as the app does for a user without a passkey
    const change = (old: string, next: string) =>
      injectStepped(t, {
        method: 'POST',
        url: '/api/user/changePassword?lang=en',
        headers: { token: user.token },
        payload: { old_password: old, new_password: next, confirm_password: next },
      });
    expect(body(await change(user.password, 'iloveyou1')).code).toBe(1703);
    expect(body(await change('not-mine', 'iloveyou1')).code).toBe(1703);
    expect(body(await change(user.password, 'kbt7other')).code).toBe(1);
  });
});
