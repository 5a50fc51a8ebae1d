import { expect, test, type Page } from '@playwright/test';
import { register } from './support/account.js';
import { freshPhone, localhostBaseURL, readSmsCode, route, useLanguage } from './support/app.js';
import { adminBearer, verifyUser } from './support/operator-api.js';

/**
 * Passkeys (issue 22, ADR 0031) in Chromium with the DevTools virtual authenticator (a platform passkey
 * with user verification): the offer after the first sign-in, registration in settings, passkey sign-in
 * with no phone number typed, a withdrawal stepped up with the passkey, a replayed or wrong-action
 * assertion refused, a passkey removed, and another device signed out from the list of sessions. WebAuthn needs a secure origin with a domain, so this spec
 * runs on http://localhost (the server's default relying party: localhost and http://localhost:PORT).
 */
test.use({ baseURL: localhostBaseURL });

const PASSWORD = 'kbt9pk'; // not on the common-password list (ADR 0030)
const TXN_PASSWORD = '135790';

async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  const credentials = async () =>
    (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;
  return { credentials };
}

interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data: T;
}

/** A transaction password and an approved bank account, through the API (before any passkey exists). */
async function readyToWithdraw(page: Page, phone: string): Promise<number> {
  const request = page.request;
  const login = (await (
    await request.post('/api/auth/login', { data: { account: phone, password: PASSWORD, agree: true } })
  ).json()) as Envelope<{ token: string }>;
  const headers = { token: login.data.token };
  const txn = (await (
    await request.post('/api/user/setTxnPassword', {
      headers,
      data: { login_password: PASSWORD, new_password: TXN_PASSWORD, confirm_password: TXN_PASSWORD },
    })
  ).json()) as Envelope;
  expect(txn.code, txn.msg).toBe(1);
  // no passkey yet: the bank account is stepped up by SMS, as the app does for a user without one
  const named = { bank_code: '0001', branch_code: '100', account_number: '2468024' };
  const sent = (await (
    await request.post('/api/step-up/sms', { headers, data: { action: 'bank_account', ...named } })
  ).json()) as Envelope<{ challenge_id: string }>;
  expect(sent.code, sent.msg).toBe(1);
  const stepUp = (await (
    await request.post('/api/step-up/verify', {
      headers,
      data: { challenge_id: sent.data.challenge_id, code: readSmsCode(phone), txn_password: TXN_PASSWORD },
    })
  ).json()) as Envelope<{ step_up_token: string }>;
  expect(stepUp.code, stepUp.msg).toBe(1);
  const account = (await (
    await request.post('/api/bank-accounts', {
      headers,
      data: {
        holder_name: 'ヤマダ タロウ',
        ...named,
        login_password: PASSWORD,
        step_up_token: stepUp.data.step_up_token,
      },
    })
  ).json()) as Envelope<{ id: number }>;
  expect(account.code, account.msg).toBe(1);
  const approved = (await (
    await request.post(`/api/console/bank-accounts/${account.data.id}/approve`, {
      headers: await adminBearer(request),
      data: {},
    })
  ).json()) as Envelope;
  expect(approved.code, approved.msg).toBe(1);
  return account.data.id;
}

test('register a passkey, sign in with it, step up a withdrawal, refuse a replay, remove it', async ({
  page,
}) => {
  await useLanguage(page, 'en');
  const authenticator = await addVirtualAuthenticator(page);
  const phone = freshPhone();
  await register(page, phone, PASSWORD);
  await verifyUser(page.request, phone, PASSWORD);
  const accountId = await readyToWithdraw(page, phone);

  // ---------------------------------------------------------------- the offer right after the first sign-in
  await page.goto(route('/subPackages/login/login'));
  await page.getByLabel('Mobile number').fill(phone);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('checkbox').check();
  await page.locator('form').getByRole('button', { name: 'Log in', exact: true }).click();
  const offer = page.getByRole('dialog');
  await expect(offer).toContainText('Protect your account with a passkey');
  await expect(offer).toContainText('a fake site cannot steal it');
  await offer.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(page).toHaveURL(/#\/subPackages\/passkeys\/passkeys/);

  // ---------------------------------------------------------------- registration in settings
  const passkeys = page.getByTestId('passkeys-page');
  await expect(passkeys).toContainText('No passkey yet.');
  await passkeys.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(page.getByText('The passkey was added')).toBeVisible();
  const item = passkeys.getByTestId('passkey-item');
  await expect(item).toHaveCount(1);
  await expect(item).toContainText('Passkey 1');
  await expect(item).toContainText('Not used yet');
  await item.getByRole('button', { name: 'Rename' }).click();
  const rename = page.getByRole('form', { name: 'Rename' });
  await rename.getByLabel('Name').fill('My phone');
  await rename.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('The passkey was renamed')).toBeVisible();
  await expect(item).toContainText('My phone');
  const stored = await authenticator.credentials();
  expect(stored).toHaveLength(1);
  expect(stored[0]?.isResidentCredential).toBe(true);

  // ---------------------------------------------------------------- passkey sign-in: no phone number typed
  await page.evaluate(() => {
    localStorage.removeItem('token');
  });
  await page.goto(route('/subPackages/login/login'));
  await expect(page.getByLabel('Mobile number')).toHaveValue('');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page).toHaveURL(/#\/pages\/index\/index/);
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // ---------------------------------------------------------------- a withdrawal, stepped up with the passkey
  await page.goto(route('/subPackages/withdrawal/withdrawal'));
  const form = page.getByRole('form', { name: 'Request a withdrawal' });
  // at least the published minimum, which an earlier flow (console.spec.ts) may have set to up to ¥100,000
  const placeholder = (await form.getByLabel('Amount (yen)').getAttribute('placeholder')) ?? '';
  const amount = Math.max(20_000, Number(placeholder.replace(/\D/g, '')) || 0).toLocaleString('en-US');
  await form.getByLabel('Amount (yen)').fill(amount);
  await expect(form.getByLabel('Bank account')).toHaveValue(/\d+/);
  await form.getByLabel('Transaction password').fill(TXN_PASSWORD);
  await form.getByRole('button', { name: 'Request withdrawal' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Request withdrawal' }).click();
  await expect(page.getByTestId('withdrawal-filed')).toContainText(`Withdrawal of ¥${amount} requested`);

  // ---------------------------------------------------------------- a replayed and a wrong-action assertion
  const refusals = await page.evaluate(
    async ({ accountId, txnPassword }) => {
      const token = localStorage.getItem('token') ?? '';
      const toBytes = (s: string) =>
        Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
      const toText = (b: ArrayBuffer) =>
        btoa(String.fromCharCode(...new Uint8Array(b)))
          .replace(/\+/g, '-')
          .replace(/\//g, '_')
          .replace(/=+$/, '');
      const call = async (path: string, body: unknown, extra: Record<string, string> = {}) =>
        (await (
          await fetch(`/api${path}?lang=en`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', token, ...extra },
            body: JSON.stringify(body),
          })
        ).json()) as { code: number; data: Record<string, unknown> };
      const asked = await call('/step-up/options', { action: 'change_password' });
      const options = asked.data['options'] as {
        challenge: string;
        rpId: string;
        allowCredentials: { id: string }[];
      };
      const credential = (await navigator.credentials.get({
        publicKey: {
          challenge: toBytes(options.challenge),
          rpId: options.rpId,
          allowCredentials: options.allowCredentials.map((c) => ({ type: 'public-key', id: toBytes(c.id) })),
          userVerification: 'required',
        },
      })) as PublicKeyCredential;
      const response = credential.response as AuthenticatorAssertionResponse;
      const answer = {
        id: credential.id,
        rawId: toText(credential.rawId),
        type: 'public-key',
        response: {
          clientDataJSON: toText(response.clientDataJSON),
          authenticatorData: toText(response.authenticatorData),
          signature: toText(response.signature),
        },
        clientExtensionResults: {},
      };
      const first = await call('/step-up/verify', { credential: answer });
      const replayed = await call('/step-up/verify', { credential: answer });
      // the token was given for a password change: a withdrawal refuses it
      const wrongAction = await call(
        '/withdrawals',
        {
          amount: 1_000_000,
          bank_account_id: accountId,
          txn_password: txnPassword,
          step_up_token: first.data['step_up_token'],
        },
        { 'idempotency-key': `e2e-wrong-action-${Date.now()}` },
      );
      return { first: first.code, replayed: replayed.code, wrongAction: wrongAction.code };
    },
    { accountId, txnPassword: TXN_PASSWORD },
  );
  expect(refusals).toEqual({ first: 1, replayed: 1732, wrongAction: 1736 });

  // ---------------------------------------------------------------- removal, confirmed with the passkey
  await page.goto(route('/subPackages/seting/seting'));
  await page.getByRole('link', { name: 'Passkeys' }).click();
  await expect(item).toHaveCount(1);
  await expect(item).toContainText('Last used');
  await item.getByRole('button', { name: 'Remove' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText('The passkey was removed')).toBeVisible();
  await expect(item).toHaveCount(0);
  await expect(passkeys).toContainText('No passkey yet.');

  // ---------------------------------------------------------------- signed-in devices, one signed out
  await page.goto(route('/subPackages/seting/seting'));
  await page.getByRole('link', { name: 'Signed-in devices' }).click();
  const sessions = page.getByTestId('session-item');
  await expect(sessions.filter({ hasText: 'This device' })).toHaveCount(1);
  await expect(sessions.filter({ hasText: 'This device' })).toContainText('Chrome / Android');
  const before = await sessions.count();
  expect(before).toBeGreaterThan(1);
  await sessions.getByRole('button', { name: 'Sign out' }).first().click();
  await page.getByRole('dialog').getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByText('The device was signed out')).toBeVisible();
  await expect(sessions).toHaveCount(before - 1);
});
