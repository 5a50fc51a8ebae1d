import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { registerAndLogin } from './support/account.js';
import { route, useLanguage } from './support/app.js';
import { consoleRoute, loginAsAdmin, openedDialog, watchConsoleErrors } from './support/console.js';
import { adminBearer } from './support/operator-api.js';

/**
 * Credit loans end to end (issue 18, ADR 0028) at 390×844, in Japanese and in English: apply with the
 * calculator's figures shown, approve in the console's queue, see the disbursement, move the server's clock
 * two days (the accrual job runs in that pass), see the interest, repay in one lump sum after the confirm
 * prompt, see the repayment completed; a rejected application shows its reason and the next actions. The
 * interest-free period is switched off for the run (it would hide the interest) and restored after.
 */
const LOANS = '/subPackages/index/rongzi/rongzi';
const RECORDS = '/subPackages/index/rongzi/record';
const DAY_MS = 86_400_000;

interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
}

const TEXT = {
  jp: {
    amount: 'お借入金額',
    fullName: 'お申込者名（本人確認済みのお名前）',
    idNumber: '本人確認書類の番号',
    address: 'ご住所',
    phone: 'ご連絡先電話番号',
    email: 'メールアドレス',
    income: '年収（円）',
    submit: '申し込む',
    agreeMissing: 'ローン契約書をお読みのうえ、同意してください',
    applied: /審査中です/,
    repaying: '返済中',
    repay: '一括返済する',
    repaid: '返済完了',
    rejected: '審査否決',
    contact: 'カスタマーサービスに問い合わせる',
    rate: /18%/,
    loansLink: 'フリーローン',
    recordsLink: 'ご融資履歴',
  },
  en: {
    amount: 'Loan amount',
    fullName: 'Applicant name (as verified)',
    idNumber: 'ID number',
    address: 'Address',
    phone: 'Contact number',
    email: 'Email',
    income: 'Annual income (yen)',
    submit: 'Apply',
    agreeMissing: 'Please read and agree to the loan agreement',
    applied: /is under review/,
    repaying: 'Repayment in progress',
    repay: 'Repay in full',
    repaid: 'Repayment completed',
    rejected: 'Application rejected',
    contact: 'Contact customer service',
    rate: /18%/,
    loansLink: 'Credit loan',
    recordsLink: 'Loan records',
  },
} as const;

async function setFreeDays(request: APIRequestContext, days: number): Promise<void> {
  const admin = await adminBearer(request);
  const settings = (await (
    await request.get('/api/console/settings', { headers: admin })
  ).json()) as Envelope<{
    loans: Record<string, number>;
  }>;
  const res = await request.put('/api/console/settings/loans', {
    headers: admin,
    data: { ...settings.data.loans, free_days: days },
  });
  expect(((await res.json()) as Envelope<unknown>).code).toBe(1);
}

/** Signs the user in again through the API (a moved clock ends sessions) and keeps the app's session. */
async function signIn(page: Page, phone: string, password: string): Promise<string> {
  const res = await page.request.post('/api/auth/login', { data: { account: phone, password, agree: true } });
  const body = (await res.json()) as Envelope<{ token: string; user_id: number }>;
  expect(body.code, body.msg).toBe(1);
  await page.evaluate(
    ({ token, userId }) => {
      localStorage.setItem('token', token);
      localStorage.setItem('userId', String(userId));
    },
    { token: body.data.token, userId: body.data.user_id },
  );
  return body.data.token;
}

test.beforeAll(async ({ request }) => {
  await setFreeDays(request, 0);
});
test.afterAll(async ({ request }) => {
  await setFreeDays(request, 180);
});

test.describe.configure({ timeout: 150_000 });

for (const lang of ['jp', 'en'] as const) {
  const x = TEXT[lang];
  test(`apply, approve in the console, accrue, repay (${lang})`, async ({ page, browser }) => {
    await useLanguage(page, 'en');
    const password = 'loan12';
    const phone = await registerAndLogin(page, password);
    await page.evaluate((l) => {
      localStorage.setItem('locale', l);
    }, lang);
    // the loan page is a shortcut of the home page's services
    await page.goto(route('/pages/index/index'));
    await page.reload();
    await page.getByTestId('service-links').getByRole('link', { name: x.loansLink }).click();
    await expect(page).toHaveURL(new RegExp(LOANS));
    await expect(page.getByTestId('loan-limits')).toBeVisible();

    const form = page.getByTestId('loan-form');
    await form.getByLabel(x.amount).fill('50000');
    // the calculator, before applying: the rate, the due date and the total to repay
    await expect(page.getByTestId('quote-rate')).toContainText(x.rate);
    await expect(page.getByTestId('quote-total')).toContainText('50,');
    await expect(page.getByTestId('quote-late')).toBeVisible();
    await form.getByLabel(x.fullName).fill('山田 太郎');
    await form.getByLabel(x.idNumber).fill('AB1234567');
    await form.getByLabel(x.address).fill('東京都千代田区丸の内1-1-1');
    await form.getByLabel(x.phone).fill('090-1234-5678');
    await form.getByLabel(x.email).fill('taro@example.jp');
    await form.getByLabel(x.income).fill('6000000');
    await page.getByTestId('loan-submit').click();
    await expect(page.getByText(x.agreeMissing)).toBeVisible();
    await page.getByTestId('loan-agree').click();
    await page.getByTestId('loan-submit').click();
    await expect(page.getByTestId('loan-applied')).toContainText(x.applied);

    // the records are in the account menu
    await page.goto(route('/pages/user/user'));
    await page.getByRole('link', { name: x.recordsLink, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(RECORDS));
    const first = page.locator('li[data-testid^="loan-"]').first();
    await expect(first).toBeVisible();
    const loanId = (await first.getAttribute('data-testid'))?.replace('loan-', '') ?? '';
    const item = page.getByTestId(`loan-${loanId}`);

    // the reviewer approves in the console's queue
    const operatorContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const op = await operatorContext.newPage();
    await loginAsAdmin(op);
    await op.goto(consoleRoute('/loans'));
    const row = op.locator('tr', { has: op.locator('td', { hasText: new RegExp(`^${loanId}$`) }) });
    await row.getByRole('button', { name: 'Open' }).click();
    const decision = await openedDialog(op, `Loan applications #${loanId}`);
    await decision.getByTestId('loan-approve').click();
    await expect(op.getByText('Repayment in progress')).toBeVisible();
    await expect(decision).toBeHidden();
    await operatorContext.close();

    await page.reload();
    await expect(item.getByTestId('loan-status')).toHaveText(x.repaying);
    await expect(item.getByTestId('loan-disbursed')).toContainText('50,000');

    // two days later (the pass that moves the clock runs the accrual job): interest. The moved clock ends the
    // session, so the user signs in again with no page of the app open: an open one would end the new
    // session too when its own 401 or its socket's refusal of the old token came after the new sign-in
    await page.goto('/api/health');
    const moved = await page.request.post('/api/clock/advance', { data: { ms: 2 * DAY_MS } });
    expect(((await moved.json()) as Envelope<unknown>).code).toBe(1);
    await signIn(page, phone, password);
    await page.goto(route(RECORDS));
    await expect(item.getByTestId('loan-interest')).not.toHaveText(/^[¥￥]0$/);
    await expect(item.getByTestId('loan-to-repay')).toContainText('50,0');

    await item.getByTestId('loan-repay').click();
    await page.getByRole('dialog').getByRole('button', { name: x.repay }).click();
    await expect(item.getByTestId('loan-status')).toHaveText(x.repaid);
    await expect(item.getByTestId('loan-repaid-at')).toBeVisible();
  });

  test(`a rejected application shows its reason and the next actions (${lang})`, async ({ page }) => {
    await useLanguage(page, 'en');
    const password = 'loan12';
    const phone = await registerAndLogin(page, password);
    const token = await signIn(page, phone, password);
    const applied = (await (
      await page.request.post('/api/loans', {
        headers: { token, 'idempotency-key': crypto.randomUUID() },
        data: {
          amount: 3_000_000,
          full_name: '山田 太郎',
          id_number: 'AB1234567',
          address: '東京都千代田区丸の内1-1-1',
          phone: '090-1234-5678',
          email: 'taro@example.jp',
          annual_income_yen: 6_000_000,
          other_borrowing_yen: 0,
          agree: true,
        },
      })
    ).json()) as Envelope<{ id: number }>;
    expect(applied.code, applied.msg).toBe(1);
    const admin = await adminBearer(page.request);
    const rejected = (await (
      await page.request.post(`/api/console/loans/${applied.data.id}/reject`, {
        headers: admin,
        data: { reason_code: 'credit_history', reason: '他社での延滞が確認されました' },
      })
    ).json()) as Envelope<unknown>;
    expect(rejected.code, rejected.msg).toBe(1);
    await page.evaluate((l) => {
      localStorage.setItem('locale', l);
    }, lang);
    await page.goto(route(RECORDS));
    await page.reload();
    const item = page.getByTestId(`loan-${applied.data.id}`);
    await expect(item.getByTestId('loan-status')).toHaveText(x.rejected);
    await expect(item.getByTestId('loan-reject-reason')).toContainText('他社での延滞が確認されました');
    await item.getByRole('button', { name: x.contact }).click();
    await expect(page).toHaveURL(/customerService/);
  });
}

test('the administrator changes a loan setting in the console; a value out of range is refused on the field', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const noErrors = watchConsoleErrors(page);
  await loginAsAdmin(page);
  await page.goto(consoleRoute('/settings'));
  const form = page.locator('form#settings-loans');
  const collection = form.getByLabel('Days overdue before collection');
  const reminder = form.getByLabel('Due-date reminder (days before)');
  await expect(reminder).toHaveValue('3');
  await expect(form.getByLabel('Minimum loan (yen)')).toHaveValue('10000');

  await collection.fill('0');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.locator('.ant-form-item-explain-error')).toHaveCount(1);
  await collection.fill('30');
  await reminder.fill('4');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Saved', { exact: true })).toBeVisible();
  await page.reload();
  await expect(form.getByLabel('Due-date reminder (days before)')).toHaveValue('4');

  // the published value is the customers' too; then back to the default for the other flows
  const published = (await (
    await page.request.get('/api/console/settings', { headers: await adminBearer(page.request) })
  ).json()) as Envelope<{ loans: { reminder_days: number } }>;
  expect(published.data.loans.reminder_days).toBe(4);
  await form.getByLabel('Due-date reminder (days before)').fill('3');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Saved', { exact: true }).first()).toBeVisible();
  noErrors();
  await context.close();
});
