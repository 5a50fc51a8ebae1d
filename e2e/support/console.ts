import { expect, type Locator, type Page } from '@playwright/test';
import { ADMIN_INITIAL_PASSWORD, ADMIN_PASSWORD, ADMIN_USERNAME } from './operator-api.js';

/**
 * The operator console through its real screens, in English, for console.spec.ts and for specs whose
 * operator steps (approve a deposit, reject an identity check...) go through the console's queues. The
 * seeded administrator's passwords are those of operator-api.ts: the one-time one the e2e server starts
 * with, and the one the first spec to sign in changes it to.
 */

export const consoleRoute = (path: string) => `/console/#${path}`;

export type Queue = 'identity' | 'bank-accounts' | 'deposits' | 'withdrawals';

/** Starts the console in English unless the page already chose a language. */
async function useEnglish(page: Page): Promise<void> {
  await page.addInitScript(() => {
    if (localStorage.getItem('kabuto-console-locale') === null) {
      localStorage.setItem('kabuto-console-locale', 'en');
    }
  });
}

/**
 * Signs in on the console's sign-in page (ending any console session of this page first). Lands on the
 * dashboard, or on the forced password change when the password is a one-time one; answers which. Throws
 * with the page's message when the sign-in is refused.
 */
export async function consoleLogin(
  page: Page,
  username: string,
  password: string,
): Promise<'dashboard' | 'password'> {
  await useEnglish(page);
  // The operator's system asks for less motion: the console's dialogs and drawers are in place at once
  // (apps/console/src/app/theme.tsx). With their zoom, Playwright could press a button on the zoom's first
  // frames and the release land elsewhere, losing the click (openedDialog below); the zoom itself is
  // checked in theme.test.tsx.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto(consoleRoute('/login'));
  await page.evaluate(() => {
    localStorage.removeItem('kabuto-console-token');
  });
  await page.reload();
  await page.getByLabel('User name').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  const dashboard = page.getByRole('heading', { level: 1, name: 'Dashboard' });
  const passwordPage = page.getByRole('heading', { level: 1, name: 'Change your password' });
  const refused = page
    .getByRole('main')
    .filter({ has: page.getByRole('heading', { name: 'Operator sign-in' }) })
    .getByRole('alert');
  await expect(dashboard.or(passwordPage).or(refused)).toBeVisible();
  if (await passwordPage.isVisible()) return 'password';
  if (await dashboard.isVisible()) return 'dashboard';
  throw new Error(`console sign-in refused: ${await refused.innerText()}`);
}

/** On the forced password-change page: replaces the one-time password and lands on the dashboard. */
export async function changeOneTimePassword(
  page: Page,
  oldPassword: string,
  newPassword: string,
): Promise<void> {
  await expect(page.getByRole('heading', { level: 1, name: 'Change your password' })).toBeVisible();
  await page.getByLabel('Current password').fill(oldPassword);
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel('Confirm new password').fill(newPassword);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
}

/**
 * Signs in as the seeded administrator whatever earlier specs did: with the changed password, or with the
 * one-time one (which it then changes). A wrong first guess costs one failed sign-in, which the successful
 * one clears.
 */
export async function loginAsAdmin(page: Page): Promise<void> {
  try {
    await consoleLogin(page, ADMIN_USERNAME, ADMIN_PASSWORD);
    return;
  } catch {
    // still the one-time password
  }
  expect(await consoleLogin(page, ADMIN_USERNAME, ADMIN_INITIAL_PASSWORD)).toBe('password');
  await changeOneTimePassword(page, ADMIN_INITIAL_PASSWORD, ADMIN_PASSWORD);
}

/**
 * The console's dialog (modal, confirmation or drawer) with this accessible name, once it has finished
 * opening. antd zooms a modal in from opacity 0 and slides a drawer in, and Playwright may find a button
 * visible and stable during the first frames of that motion (before it starts, or while its first frame
 * holds): the button is pressed there, the dialog then moves under the pointer, the release lands on
 * another element and the browser sends the click to their common ancestor, so the button never gets it.
 * Waits until the dialog, and each element around it, is fully opaque, untransformed and no longer
 * animated. consoleLogin asks for reduced motion, so on a signed-in console this is the one step rc-motion
 * holds a dialog at opacity 0 before it shows; the wait still stands for any motion that setting leaves.
 */
export async function openedDialog(page: Page, name: string | RegExp): Promise<Locator> {
  const dialog = page.getByRole('dialog', { name });
  await expect(dialog).toBeVisible();
  await expect
    .poll(
      () =>
        dialog.evaluate((element) => {
          for (let node: Element | null = element; node !== null; node = node.parentElement) {
            const style = getComputedStyle(node);
            if (style.opacity !== '1') return `${node.className}: opacity ${style.opacity}`;
            if (style.transform !== 'none' && !new DOMMatrix(style.transform).isIdentity) {
              return `${node.className}: transform ${style.transform}`;
            }
            const running = node.getAnimations().find((animation) => animation.playState !== 'finished');
            if (running !== undefined) return `${node.className}: animation ${running.playState}`;
          }
          return 'opened';
        }),
      { message: `the dialog ${String(name)} finishes opening` },
    )
    .toBe('opened');
  return dialog;
}

/** Opens the review drawer of the user's newest pending item in a queue; answers the drawer. */
export async function openPendingReview(page: Page, queue: Queue, phone: string): Promise<Locator> {
  await page.goto(consoleRoute(`/queues/${queue}?status=pending`));
  const row = page.getByRole('row', { name: new RegExp(phone) }).first();
  await row.getByRole('button', { name: 'Review' }).click();
  const drawer = await openedDialog(page, /No\. \d+$/);
  await expect(drawer.getByText(phone).first()).toBeVisible();
  return drawer;
}

/**
 * Approves the user's newest pending item in a queue (after the confirmation) and answers the outcome the
 * drawer shows: "Approved", or for a withdrawal above the threshold that a second operator must approve.
 */
export async function approve(page: Page, queue: Queue, phone: string): Promise<string> {
  const drawer = await openPendingReview(page, queue, phone);
  await drawer.getByRole('button', { name: 'Approve' }).click();
  const confirm = await openedDialog(page, /^(Approve this request\?|Give the second approval)/);
  await confirm.getByRole('button', { name: 'Approve' }).click();
  const outcome = drawer.getByRole('status');
  await expect(outcome).toBeVisible();
  return outcome.innerText();
}

/** Rejects the user's newest pending item in a queue with a reason (which the user reads as written). */
export async function reject(page: Page, queue: Queue, phone: string, reason: string): Promise<void> {
  const drawer = await openPendingReview(page, queue, phone);
  await drawer.getByRole('button', { name: 'Reject' }).click();
  const modal = await openedDialog(page, 'Reject this request');
  await modal.getByLabel('Reason').fill(reason);
  await modal.getByRole('button', { name: 'Reject' }).click();
  await expect(drawer.getByRole('status')).toHaveText('Rejected');
}

export async function approveIdentity(page: Page, phone: string): Promise<void> {
  expect(await approve(page, 'identity', phone)).toBe('Approved');
}

export async function rejectIdentity(page: Page, phone: string, reason: string): Promise<void> {
  await reject(page, 'identity', phone, reason);
}

export async function approveBankAccount(page: Page, phone: string): Promise<void> {
  expect(await approve(page, 'bank-accounts', phone)).toBe('Approved');
}

export async function approveDeposit(page: Page, phone: string): Promise<void> {
  expect(await approve(page, 'deposits', phone)).toBe('Approved');
}

/**
 * Approves the user's pending withdrawal; answers true when the approval was the first of two (above the
 * second-approval threshold) and a different operator must now approve it too.
 */
export async function approveWithdrawal(page: Page, phone: string): Promise<boolean> {
  const text = await approve(page, 'withdrawals', phone);
  if (text.includes('second operator')) return true;
  expect(text).toBe('Approved');
  return false;
}

/**
 * Collects what the page logs as errors (uncaught exceptions, console.error); call the answer at the end to
 * assert there were none. Refused API calls (4xx) that the page handles are not errors of the page.
 */
export function watchConsoleErrors(page: Page): () => void {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const text = message.text();
    if (/^Failed to load resource: the server responded with a status of 4\d\d/.test(text)) return;
    errors.push(text);
  });
  return () => {
    expect(errors, 'errors logged by the console').toEqual([]);
  };
}
