import { expect, type Page } from '@playwright/test';
import { DEMO_INVITE, freshPhone, readSmsCode, readSmsText, route } from './app.js';
import { verifyUser } from './operator-api.js';

/** Registration and login through the real screens (English labels), as in auth.spec.ts. */
export async function register(page: Page, phone: string, password: string): Promise<void> {
  await page.goto(route('/subPackages/register/register'));
  await page.getByLabel('Mobile number').fill(phone);
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByRole('button', { name: /Resend in \d+ s/ })).toBeVisible();
  await page.getByLabel('Verification code').fill(readSmsCode(phone));
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm password').fill(password);
  await page.getByLabel('Invitation code').fill(DEMO_INVITE);
  await page.getByRole('button', { name: 'Open an account' }).click();
  await expect(page).toHaveURL(/#\/subPackages\/login\/login/);
}

export async function login(page: Page, phone: string, password: string): Promise<void> {
  await page.goto(route('/subPackages/login/login'));
  await page.getByLabel('Mobile number').fill(phone);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/#\/pages\/index\/index/);
}

/**
 * A fresh user (with the demo cash every new account gets), logged in. Trading needs a passed real-name
 * verification, so by default the user files one and the administrator approves it through the API first;
 * `verified: false` leaves the user unverified.
 */
export async function registerAndLogin(
  page: Page,
  password = 'trade1',
  options: { verified?: boolean } = {},
): Promise<string> {
  const phone = freshPhone();
  await register(page, phone, password);
  if (options.verified ?? true) await verifyUser(page.request, phone, password);
  await login(page, phone, password);
  return phone;
}

const SMS_STEP_UP = {
  en: { code: 'Code from the SMS', confirm: 'Confirm', title: 'Confirm with an SMS code' },
  ja: { code: 'SMSの認証コード', confirm: '確認する', title: 'SMS認証コードで確認' },
} as const;

/**
 * Answers the SMS step-up of a user without a passkey (ADR 0031): reads the code the dialog asks for from the
 * SMS outbox, with the password it asks for when the form did not hold it. Answers the SMS's text.
 */
export async function confirmBySms(
  page: Page,
  phone: string,
  options: { secret?: { label: string; value: string }; lang?: keyof typeof SMS_STEP_UP } = {},
): Promise<string> {
  const text = SMS_STEP_UP[options.lang ?? 'en'];
  const dialog = page.getByRole('dialog').filter({ hasText: text.title });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel(text.code).fill(readSmsCode(phone));
  if (options.secret) await dialog.getByLabel(options.secret.label).fill(options.secret.value);
  await dialog.getByRole('button', { name: text.confirm }).click();
  await expect(dialog).toBeHidden();
  return readSmsText(phone);
}
