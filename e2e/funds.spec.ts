import { expect, test, type Page } from '@playwright/test';
import { pngBytes } from '../apps/server/src/lib/images.js';
import { confirmBySms, registerAndLogin } from './support/account.js';
import { adminBearer } from './support/operator-api.js';
import { route, useLanguage } from './support/app.js';
import { fillApplication } from './support/opening.js';
import {
  approveBankAccount,
  approveDeposit,
  approveIdentity,
  approveWithdrawal,
  changeOneTimePassword,
  consoleLogin,
  consoleRoute,
  loginAsAdmin,
  rejectIdentity,
} from './support/console.js';
import {
  createReviewer,
  loadSettings,
  putSetting,
  tokyoMinuteOfDay,
  windowAwayFrom,
  yenOf,
} from './support/funds.js';

/**
 * Money in and out, end to end: a user on the phone-sized web app (in English) and operators on the
 * console (desktop), in separate browser contexts, against the e2e server (DEMO_MODE: every new user has
 * ¥10,000,000 of demo cash; MARKET_CLOCK=always-open does not touch the withdrawal hours, which follow the
 * real clock). The withdrawal hours are set for the test to one window at least an hour away from now, so
 * a request is always outside them; the settings found are restored at the end.
 */
const HOME = '/pages/index/index';
const USER = '/pages/user/user';
const REAL_NAME = '/subPackages/real_name/real_name';
const BANK = '/subPackages/bankAccount/bankAccount';
const ACCOUNT_LOG = '/subPackages/bankAccount/accountLog';
const RECHARGE = '/subPackages/recharge/recharge';
const WITHDRAWAL = '/subPackages/withdrawal/withdrawal';
const MESSAGES = '/subPackages/message/message';
const LOG = '/subPackages/transactionLog/transactionLog';
const TXN_PASSWORD = '/subPackages/transactionPassions/transactionPassions';

const desktop = {
  viewport: { width: 1366, height: 900 },
  isMobile: false,
  hasTouch: false,
  deviceScaleFactor: 1,
};

test.use({ actionTimeout: 15_000 });

/**
 * Reloads the console on its dashboard, so that the next review helper's `goto` of a queue shows it
 * afresh: going to the URL the page is already on does not reload a hash route (the last review's drawer
 * would still be open over the queue), and the console keeps a queue it read less than 10 s ago without
 * asking again (an item the user filed since would be missing).
 */
async function offQueue(operator: Page): Promise<Page> {
  await operator.goto(consoleRoute('/'));
  await operator.reload();
  return operator;
}

const png = (name: string) => ({ name, mimeType: 'image/png', buffer: pngBytes(8, 6) });

/**
 * Fills the bank account form and confirms with the login password, then (a user without a passkey) with
 * the SMS code naming the account when `phone` is given; a retry of the same account reuses that step-up.
 */
async function addBankAccount(page: Page, holder: string, phone?: string): Promise<void> {
  const form = page.getByRole('form', { name: 'Add a bank account' });
  await form.getByLabel('Account holder').fill(holder);
  await form.getByLabel('Account number').fill('1234567');
  // Bank and branch from the Zengin data (ADR 0023; banking.spec.ts has the pickers in both languages).
  if (!((await page.getByTestId('pick-bank').textContent()) ?? '').includes('みずほ銀行')) {
    await page.getByTestId('pick-bank').click();
    await page.getByPlaceholder('Search by bank name, kana or bank code').fill('mizuho');
    await page
      .getByTestId('bank-results')
      .locator('.adm-list-item-content-main', { hasText: /^みずほ銀行/ })
      .first()
      .click();
    await page.getByTestId('pick-branch').click();
    await page.getByPlaceholder('Search by branch name, kana or branch number').fill('新宿');
    await page
      .getByTestId('branch-results')
      .locator('.adm-list-item-content-main', { hasText: /^新宿支店/ })
      .first()
      .click();
  }
  await form.getByRole('button', { name: 'Save' }).click();
  const prompt = page.getByRole('dialog');
  await prompt.getByLabel('Login password').fill('trade1');
  await prompt.getByRole('button', { name: 'Confirm' }).click();
  if (phone !== undefined) expect(await confirmBySms(page, phone)).toContain('1234567'.slice(-3));
}

test('identity, own bank account, deposit, withdrawal with two approvals, and the messages of each', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(300_000);
  await useLanguage(page, 'en');
  const phone = await registerAndLogin(page, 'trade1', { verified: false });

  const operatorContext = await browser.newContext({ ...desktop, baseURL });
  const operator = await operatorContext.newPage();
  await loginAsAdmin(operator);
  const original = await loadSettings(operator.request);

  try {
    // ---------------------------------------------------------------- real-name verification
    await expect(page.getByTestId('real-name-prompt')).toBeVisible();
    // A money page sends an unverified user to the real-name page, with a message.
    await page.goto(route(RECHARGE));
    await expect(page).toHaveURL(new RegExp(`#${REAL_NAME}`));
    await expect(page.getByText('Please complete real-name verification first')).toBeVisible();

    // Each step names its empty fields; a file that is not an image fails on its own photo.
    const application = page.locator('form.application-form');
    await application.getByRole('button', { name: 'Next', exact: true }).click();
    for (const message of [
      'Please enter your full name',
      'Please enter the reading of your name in katakana',
      'Please enter your date of birth, such as 1985-04-01',
    ]) {
      await expect(page.getByText(message)).toBeVisible();
    }
    await fillApplication(page, 'en');
    for (let i = 0; i < 2; i += 1)
      await application.getByRole('button', { name: 'Back', exact: true }).click();
    await page.getByLabel('Front of the document').setInputFiles({
      name: 'front.png',
      mimeType: 'image/png',
      buffer: Buffer.from('not a picture at all, only text with an image name'),
    });
    const front = page.getByTestId('photo-identity_front');
    await expect(front).toHaveAttribute('data-state', 'failed');
    await expect(front.getByRole('alert')).toHaveText('Only JPEG, PNG or WebP photos can be uploaded');
    await page.getByLabel('Front of the document').setInputFiles(png('front.png'));
    await expect(front).toHaveAttribute('data-state', 'success');
    for (let i = 0; i < 2; i += 1)
      await application.getByRole('button', { name: 'Next', exact: true }).click();
    await page.getByRole('button', { name: 'Submit the application' }).click();
    await expect(page.getByRole('heading', { name: 'Under review' })).toBeVisible();

    // The operator rejects it with a reason; the user reads the reason as written and files again.
    const reason = 'The back photo is blurred. Please take it again in good light.';
    await rejectIdentity(await offQueue(operator), phone, reason);
    await expect(page.getByTestId('identity-reason')).toContainText(reason);
    await expect(page.getByRole('heading', { name: 'Verification rejected' })).toBeVisible();
    await fillApplication(page, 'en');
    await page.getByRole('button', { name: 'Submit again' }).click();
    await expect(page.getByRole('heading', { name: 'Under review' })).toBeVisible();

    await approveIdentity(await offQueue(operator), phone);
    await expect(page.getByRole('heading', { name: 'Verification passed' })).toBeVisible();
    await expect(page.getByRole('button', { name: /Submit/ })).toHaveCount(0);
    await page.goto(route(HOME));
    await expect(page.getByRole('heading', { name: 'Welcome to Kabuto' })).toBeVisible();
    await expect(page.getByTestId('real-name-prompt')).toHaveCount(0);

    // ---------------------------------------------------------------- bank account in the user's own name
    await page.goto(route(BANK));
    await page.getByRole('button', { name: 'Add a bank account' }).click();
    await expect(page.getByTestId('holder-rule')).toContainText('ヤマダ');
    await addBankAccount(page, 'Suzuki Ichiro', phone);
    const holderError = page
      .getByRole('form', { name: 'Add a bank account' })
      .getByRole('alert')
      .filter({ hasText: 'The account holder must be you' });
    // the holder is matched with the reading given at account opening, as banks write names: in katakana
    await expect(holderError).toContainText('ヤマダ');
    await addBankAccount(page, 'ヤマダ タロウ');
    const account = page.getByTestId('bank-account');
    await expect(account).toHaveCount(1);
    await expect(account.getByTestId('review-status')).toHaveText('Awaiting review');
    await approveBankAccount(await offQueue(operator), phone);
    await expect(account.getByTestId('review-status')).toHaveText('Approved');
    await page.goto(route(ACCOUNT_LOG));
    await expect(page.locator('[data-testid="account-log-entry"][data-action="added"]')).toHaveCount(1);
    await expect(page.locator('[data-testid="account-log-entry"][data-action="approved"]')).toHaveCount(1);

    // ---------------------------------------------------------------- deposit
    const depositUrl = 'https://pay.example.com/kabuto/deposit';
    await putSetting(operator.request, 'deposit', { ...original.deposit, url: depositUrl });
    await page.goto(route(RECHARGE));
    await page.getByRole('button', { name: 'Deposit online' }).click();
    await expect(page).toHaveURL(
      new RegExp(`#/subPackages/webview/webview\\?url=${encodeURIComponent(depositUrl)}`),
    );
    // not on the webview's allow-list: not framed, the host is named and the page opens outside the app
    await expect(page.getByTestId('webview-outside')).toContainText('pay.example.com');
    await page.goto(route(RECHARGE));
    await expect(page.getByTestId('fraud-warning')).toContainText('never ask you to transfer money');
    await expect(page.getByTestId('virtual-account-number')).toHaveText(/^\d{7}$/);
    await page.getByLabel('Amount transferred (yen)').fill('300,000');
    await page.getByRole('button', { name: 'Send deposit notice' }).click();
    const deposit = page.getByTestId('deposit-record').first();
    await expect(deposit.getByTestId('record-amount')).toHaveText('¥300,000');
    await expect(deposit.getByTestId('review-status')).toHaveText('Awaiting review');
    // The bank's statement shows the transfer (ADR 0023): matched, the deposit is credited on one approval.
    const virtualAccount = (await page.getByTestId('virtual-account-number').textContent()) ?? '';
    const today = new Intl.DateTimeFormat('sv', { timeZone: 'Asia/Tokyo' }).format(new Date());
    const statement = `bank_ref,transfer_date,amount,payer_name,virtual_account\nF${Date.now()},${today},300000,ﾔﾏﾀﾞ ﾀﾛｳ,${virtualAccount}\n`;
    const imported = await operator.request.post('/api/console/reconciliation/statements', {
      headers: await adminBearer(operator.request),
      data: { filename: 'funds-spec.csv', content_base64: Buffer.from(statement).toString('base64') },
    });
    expect(((await imported.json()) as { code: number }).code).toBe(1);
    await approveDeposit(await offQueue(operator), phone);
    await expect(deposit.getByTestId('review-status')).toHaveText('Approved');

    await page.goto(route(USER));
    await expect(page.getByTestId('available-balance')).toHaveText('¥10,300,000');
    await page.goto(route(LOG));
    // The log shows the deposit as one movement, received.
    const depositLine = page.locator('[data-testid="movement"][data-kind="deposit"]');
    await expect(depositLine.getByTestId('movement-title')).toHaveText('Deposit');
    await expect(depositLine.getByTestId('movement-state')).toHaveText('Received');
    await expect(depositLine.getByTestId('movement-cash')).toContainText('+¥300,000');
    await expect(page.getByTestId('ledger-cash-balance')).toHaveText('¥10,300,000');

    // ---------------------------------------------------------------- withdrawal outside the hours
    const window = windowAwayFrom(new Date());
    await putSetting(operator.request, 'withdrawal', {
      min_yen: 10_000,
      windows: [window],
      second_approval_over_yen: 1_000_000,
    });
    await page.goto(route(TXN_PASSWORD));
    await page.getByLabel('Login password').fill('trade1');
    await page.getByLabel('New transaction password').fill('246810');
    await page.getByLabel('Confirm transaction password').fill('246810');
    await page.getByRole('button', { name: 'Set transaction password' }).click();
    await expect(page.getByText('Your transaction password has been set.')).toBeVisible();

    await page.goto(route(WITHDRAWAL));
    const rules = page.getByTestId('withdrawal-rules');
    await expect(rules.getByTestId('withdrawable')).toHaveText('¥10,300,000');
    await expect(rules.getByTestId('withdrawal-minimum')).toHaveText('¥10,000');
    await expect(rules.getByTestId('withdrawal-fee')).toHaveText('Free');
    const hhmm = (s: string) => s.replace(/^0(\d:)/, '$1');
    await expect(rules.getByTestId('withdrawal-hours')).toHaveText(
      `Weekdays ${hhmm(window.start)}–${hhmm(window.end)} (business days only, Japan time)`,
    );
    await expect(rules).toContainText('Credited within 24 hours');

    // When it will be processed: the start of the next window on a business day (the server's answer),
    // which is in the future and starts at the window's time of day in Tokyo.
    const {
      data: { next_window_start: next },
    } = (await (
      await page.request.get('/api/index/withdrawal', {
        headers: { token: (await page.evaluate(() => localStorage.getItem('token'))) ?? '' },
      })
    ).json()) as { data: { next_window_start: string } };
    const nextAt = new Date(next);
    expect(nextAt.getTime()).toBeGreaterThan(Date.now());
    expect(tokyoMinuteOfDay(nextAt)).toBe(Number(window.start.slice(0, 2)) * 60);
    const day = new Intl.DateTimeFormat('en', { timeZone: 'Asia/Tokyo', dateStyle: 'medium' }).format(nextAt);
    const clock = window.start === '00:00' ? /12:00\sAM/ : /10:00\sPM/;
    const preview = page.getByTestId('withdrawal-preview');
    await expect(preview).toContainText('A request made now will be processed from');
    await expect(preview).toContainText(day);
    await expect(preview).toHaveText(clock);

    const form = page.getByRole('form', { name: 'Request a withdrawal' });
    await form.getByLabel('Amount (yen)').fill('5,000');
    await form.getByLabel('Transaction password').fill('246810');
    await form.getByRole('button', { name: 'Request withdrawal' }).click();
    await expect(
      form.getByText('Withdrawal amount cannot be less than the minimum withdrawal amount: ¥10,000'),
    ).toBeVisible();

    // Above the second-approval threshold (¥1,000,000).
    await form.getByLabel('Amount (yen)').fill('1,500,000');
    await expect(form.getByLabel('Bank account')).toHaveValue(/\d+/);
    await form.getByRole('button', { name: 'Request withdrawal' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Request withdrawal' }).click();
    // no passkey: the SMS names the amount and the account; the transaction password is the form's
    expect(await confirmBySms(page, phone)).toContain('withdrawal of ¥1,500,000');
    const filed = page.getByTestId('withdrawal-filed');
    await expect(filed).toContainText('Withdrawal of ¥1,500,000 requested');
    const processing = filed.getByTestId('withdrawal-processing');
    await expect(processing).toContainText('This request will be processed from');
    await expect(processing).toContainText(day);
    await expect(processing).toHaveText(clock);
    await expect(filed).toContainText('Credited within 24 hours');
    const withdrawal = page.getByTestId('withdrawal-record').first();
    await expect(withdrawal.getByTestId('review-status')).toHaveText('Awaiting review');
    await expect(withdrawal.getByTestId('record-processing')).toContainText(day);
    await expect(rules.getByTestId('withdrawable')).toHaveText('¥8,800,000');
    // In the log the request is one line, requested, the amount out of available cash.
    await page.goto(route(LOG));
    const requested = page.locator('[data-testid="movement"][data-kind="withdrawal_hold"]');
    await expect(requested.getByTestId('movement-title')).toHaveText('Withdrawal');
    await expect(requested.getByTestId('movement-state')).toHaveText('Requested');
    await expect(requested.getByTestId('movement-cash')).toContainText('−¥1,500,000');

    // Two different operators: the administrator's approval is the first of two; a reviewer gives the second.
    expect(await approveWithdrawal(await offQueue(operator), phone)).toBe(true);
    const reviewer = await createReviewer(operator, 'Reviewer Tanaka');
    const reviewerContext = await browser.newContext({ ...desktop, baseURL });
    const reviewerPage = await reviewerContext.newPage();
    expect(await consoleLogin(reviewerPage, reviewer.username, reviewer.oneTimePassword)).toBe('password');
    await changeOneTimePassword(reviewerPage, reviewer.oneTimePassword, 'reviewer-funds-2026');

    // The user watches the messages page while the second approval lands (pushed live, no reload).
    await page.goto(route(MESSAGES));
    await expect(page.locator('[data-kind="withdrawal.filed"]')).toBeVisible();
    await expect(page.locator('[data-kind="withdrawal.approved"]')).toHaveCount(0);
    expect(await approveWithdrawal(await offQueue(reviewerPage), phone)).toBe(false);
    await reviewerContext.close();
    await expect(page.locator('[data-kind="withdrawal.approved"]')).toContainText(
      'Withdrawal of ¥1,500,000 approved and sent to your bank (credited within 24 hours)',
    );

    // Records and ledger agree.
    await page.goto(route(WITHDRAWAL));
    await expect(page.getByTestId('withdrawal-record').first().getByTestId('review-status')).toHaveText(
      'Approved',
    );
    await page.goto(route(LOG));
    // Still one line, now paid out; no line reads as the amount coming in.
    const paidOut = page.locator('[data-testid="movement"][data-kind="withdrawal_hold"]');
    await expect(paidOut).toHaveCount(1);
    await expect(paidOut).toHaveAttribute('data-state', 'withdrawal_paid');
    await expect(paidOut.getByTestId('movement-state')).toHaveText('Paid out');
    await expect(paidOut.getByTestId('movement-cash')).toContainText('−¥1,500,000');
    await expect(page.getByTestId('movement').filter({ hasText: '+¥1,500,000' })).toHaveCount(0);
    await expect(page.getByTestId('ledger-cash-balance')).toHaveText('¥8,800,000');
    await page.goto(route(USER));
    await expect(page.getByTestId('available-balance')).toHaveText('¥8,800,000');
    expect(yenOf(await page.getByTestId('total-assets').textContent())).toBe(8_800_000);

    // ---------------------------------------------------------------- messages and the unread badge
    await expect(page.getByTestId('unread-badge')).toBeVisible();
    const tabs = page.getByRole('navigation', { name: 'Main menu' });
    await expect(tabs.getByLabel(/^My page \(\d+ unread\)$/)).toBeVisible();
    await page.getByRole('link', { name: 'Messages' }).click();
    await expect(page).toHaveURL(new RegExp(`#${MESSAGES}`));
    const rejected = page.locator('[data-kind="identity.rejected"]');
    await expect(rejected).toContainText('Your real-name verification was rejected');
    await expect(rejected).toContainText(reason);
    for (const kind of ['identity.passed', 'bank_account.approved', 'deposit.approved', 'withdrawal.filed']) {
      await expect(page.locator(`[data-kind="${kind}"]`)).toBeVisible();
    }
    await expect(page.locator('[data-kind="deposit.approved"]')).toContainText(
      'Deposit of ¥300,000 credited to your account',
    );
    await page.getByRole('button', { name: 'Mark all as read' }).click();
    await expect(page.getByTestId('messages-unread')).toHaveText('0 unread');
    await expect(page.locator('[data-testid="message"][data-read="false"]')).toHaveCount(0);
    await page.goto(route(USER));
    await expect(page.getByTestId('available-balance')).toBeVisible();
    await expect(page.getByTestId('unread-badge')).toHaveCount(0);
    await expect(tabs.getByLabel('My page', { exact: true })).toBeVisible();

    // ---------------------------------------------------------------- customer service
    await putSetting(operator.request, 'customer_service', [
      { name: 'LINE', url: 'https://line.me/R/ti/p/@kabuto-demo', hours: 'Weekdays 9:00-17:00' },
    ]);
    await page.getByRole('link', { name: 'Customer service' }).click();
    await expect(page.getByRole('link', { name: 'LINE' })).toHaveAttribute(
      'href',
      'https://line.me/R/ti/p/@kabuto-demo',
    );
    await expect(page.getByText('Weekdays 9:00-17:00')).toBeVisible();
    // the page's fraud warning (the support conversation below has its own notice)
    await expect(page.getByRole('note').filter({ hasText: 'do not transfer' })).toBeVisible();
  } finally {
    await putSetting(operator.request, 'withdrawal', original.withdrawal);
    await putSetting(operator.request, 'deposit', original.deposit);
    await putSetting(operator.request, 'customer_service', original.customer_service);
    await operatorContext.close();
  }
});

test('a photo upload can be cancelled, and a file over 10 MB is refused before it is sent', async ({
  page,
}) => {
  await useLanguage(page, 'en');
  await registerAndLogin(page, 'trade1', { verified: false });
  await page.goto(route(REAL_NAME));
  await fillApplication(page, 'en', { stopAtDocuments: true });

  // The upload hangs (the route never answers): the photo shows it is uploading and can be cancelled.
  let uploads = 0;
  await page.route('**/api/uploads?*', () => {
    uploads += 1;
  });
  await page.getByLabel('Front of the document').setInputFiles(png('front.png'));
  const front = page.getByTestId('photo-identity_front');
  await expect(front).toHaveAttribute('data-state', 'uploading');
  await expect(front.getByRole('status')).toHaveText('Uploading...');
  await front.getByRole('button', { name: 'Cancel upload' }).click();
  await expect(front).toHaveAttribute('data-state', 'failed');
  await expect(front.getByRole('alert')).toHaveText('The upload was cancelled');
  expect(uploads).toBe(1);

  // Over 10 MB: refused on the photo, never sent.
  const back = page.getByTestId('photo-identity_back');
  await page.getByLabel('Back of the document').setInputFiles({
    name: 'back.png',
    mimeType: 'image/png',
    buffer: Buffer.alloc(10 * 1024 * 1024 + 1),
  });
  await expect(back).toHaveAttribute('data-state', 'failed');
  await expect(back.getByRole('alert')).toHaveText('The file is larger than 10 MB');
  expect(uploads).toBe(1);

  // Once the network answers again, the retry of the cancelled photo succeeds.
  await page.unroute('**/api/uploads?*');
  await front.getByRole('button', { name: 'Try again' }).click();
  await expect(front).toHaveAttribute('data-state', 'success');
  await expect(front.getByRole('img', { name: 'Front of the document' })).toBeVisible();
});
