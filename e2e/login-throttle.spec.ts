import { expect, test } from '@playwright/test';
import { freshPhone, readSmsCode, route, useLanguage } from './support/app.js';
import { register } from './support/account.js';

/**
 * The failed-login throttle (ADR 0030): after five wrong passwords the right one is held back too, and the
 * owner signs in at once with the password and a code sent by SMS.
 */
test('a throttled account signs in with the password and an SMS code', async ({ page }) => {
  await useLanguage(page, 'en');
  const phone = freshPhone();
  const password = 'kbt7e2e';
  await register(page, phone, password);
  for (let i = 0; i < 5; i++) {
    const wrong = await page.request.post('/api/auth/login', {
      data: { account: phone, password: 'wrong-pw', agree: true },
    });
    expect(((await wrong.json()) as { code: number }).code).toBe(1007);
  }

  await page.goto(route('/subPackages/login/login'));
  await page.getByLabel('Mobile number').fill(phone);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByText(/Too many failed sign-ins\. Try again in \d+ seconds/)).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'ask for a code by SMS' })).toBeVisible();

  const registrationCode = readSmsCode(phone);
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByRole('button', { name: /Resend in \d+ s/ })).toBeVisible();
  // the login code goes out after the answer (so its timing tells nothing): wait for it in the outbox
  await expect.poll(() => readSmsCode(phone)).not.toBe(registrationCode);
  await page.getByLabel('Verification code').fill(readSmsCode(phone));
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/#\/pages\/index\/index/);
});
