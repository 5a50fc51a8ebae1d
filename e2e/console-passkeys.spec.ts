import { expect, test, type Page } from '@playwright/test';
import { localhostBaseURL } from './support/app.js';
import { changeOneTimePassword, consoleLogin, consoleRoute } from './support/console.js';
import { adminBearer } from './support/operator-api.js';

/**
 * Operators' passkeys (issue 22, ADR 0033) in Chromium with the DevTools virtual authenticator: a new
 * administrator adds a passkey from the console after the password sign-in, is then refused the password
 * alone, and signs in with the passkey. WebAuthn needs a secure origin with a domain: the spec runs on
 * http://localhost, the server's default relying party.
 */
test.use({ baseURL: localhostBaseURL });

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
  return async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;
}

test('an administrator adds a passkey in the console, then must sign in with it', async ({ page }) => {
  const username = `pk-admin-${Date.now().toString(36)}`;
  const created = (await (
    await page.request.post('/api/console/operators', {
      headers: await adminBearer(page.request),
      data: { username, display_name: 'Passkey admin', role: 'administrator' },
    })
  ).json()) as { code: number; msg: string; data: { one_time_password: string } };
  expect(created.code, created.msg).toBe(1);
  const password = 'passkey-admin-password-2026';
  expect(await consoleLogin(page, username, created.data.one_time_password)).toBe('password');
  await changeOneTimePassword(page, created.data.one_time_password, password);

  const credentials = await addVirtualAuthenticator(page);
  // the menu's last entry, below the fold of the test's window: opened by its address
  await expect(page.getByRole('link', { name: 'My passkeys' })).toBeAttached();
  await page.goto(consoleRoute('/passkeys'));
  await expect(page.getByRole('heading', { level: 1, name: 'Your passkeys' })).toBeVisible();
  await expect(page.getByText('No passkey yet')).toBeVisible();
  // the first passkey is added after the password is typed again (ADR 0049): a wrong one is refused
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  const confirm = page.getByRole('dialog', { name: 'Confirm it is you' });
  await confirm.getByLabel('Password').fill('not-the-password');
  await confirm.getByRole('button', { name: 'Continue' }).click();
  await expect(confirm.getByText('The password is incorrect')).toBeVisible();
  expect(await credentials()).toHaveLength(0);
  await confirm.getByLabel('Password').fill(password);
  await confirm.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Passkey 1')).toBeVisible();
  await expect(confirm).toBeHidden();
  expect(await credentials()).toHaveLength(1);

  // the password alone no longer opens the console for this administrator
  await expect(consoleLogin(page, username, password)).rejects.toThrow(
    'This account signs in with its passkey. Choose “Sign in with a passkey”',
  );
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await page.goto(consoleRoute('/passkeys'));
  await expect(page.getByText(/last used (?!never)/)).toBeVisible();
  // an administrator keeps at least one passkey: refused after the passkey step-up, and nothing removed
  await page.getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByRole('alert')).toContainText('An administrator must keep at least one passkey');
  await expect(page.getByText('Passkey 1')).toBeVisible();
});

test('a reviewer removes a passkey after confirming with it', async ({ page }) => {
  const username = `pk-reviewer-${Date.now().toString(36)}`;
  const created = (await (
    await page.request.post('/api/console/operators', {
      headers: await adminBearer(page.request),
      data: { username, display_name: 'Passkey reviewer', role: 'reviewer' },
    })
  ).json()) as { code: number; msg: string; data: { one_time_password: string } };
  expect(created.code, created.msg).toBe(1);
  const password = 'passkey-reviewer-password-2026';
  expect(await consoleLogin(page, username, created.data.one_time_password)).toBe('password');
  await changeOneTimePassword(page, created.data.one_time_password, password);

  const credentials = await addVirtualAuthenticator(page);
  await page.goto(consoleRoute('/passkeys'));
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  const confirm = page.getByRole('dialog', { name: 'Confirm it is you' });
  await confirm.getByLabel('Password').fill(password);
  await confirm.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Passkey 1')).toBeVisible();
  expect(await credentials()).toHaveLength(1);

  // the removal asks the passkey itself first (the virtual authenticator answers), then takes effect
  await page.getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText('Passkey removed')).toBeVisible();
  await expect(page.getByText('No passkey yet')).toBeVisible();
});
