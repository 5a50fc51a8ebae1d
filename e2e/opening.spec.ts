import { expect, test, type Browser, type Page } from '@playwright/test';
import { registerAndLogin } from './support/account.js';
import { route, useLanguage } from './support/app.js';
import { approveIdentity, loginAsAdmin, openPendingReview, openedDialog } from './support/console.js';
import { fillApplication, type OpeningLanguage } from './support/opening.js';

/**
 * Account opening (口座開設, issue 23): a new user sees prices and, in place of the order form, a prompt to
 * open the account; files the full application in seven steps; an operator reviews it in the console (the
 * My Number masked, revealed only with a reason) and approves it; the stock page then has a live order form.
 */
const STOCK = route('/subPackages/index/gupiaoDetail/gupiaoDetail?code=7203');

const desktop = {
  viewport: { width: 1366, height: 900 },
  isMobile: false,
  hasTouch: false,
  deviceScaleFactor: 1,
};

const TEXT = {
  en: {
    promptAction: 'Open an account',
    submit: 'Submit the application',
    pending: 'Under review',
    reviewKana: 'ヤマダ\u3000タロウ',
    account: 'Securities account: Open',
  },
  ja: {
    promptAction: '口座を開設する',
    submit: 'この内容で申し込む',
    pending: '審査中',
    reviewKana: 'ヤマダ\u3000タロウ',
    account: '証券口座: 開設済み',
  },
} as const;

async function operatorPage(browser: Browser, baseURL: string | undefined): Promise<Page> {
  const context = await browser.newContext({ ...desktop, baseURL });
  const page = await context.newPage();
  await loginAsAdmin(page);
  return page;
}

for (const lang of ['ja', 'en'] as const satisfies readonly OpeningLanguage[]) {
  test(`(${lang}) a new user opens an account with the full application and can then trade`, async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(180_000);
    const text = TEXT[lang];
    await useLanguage(page, 'en');
    const phone = await registerAndLogin(page, 'trade1', { verified: false });
    if (lang === 'ja') {
      await page.evaluate(() => {
        localStorage.setItem('locale', 'jp');
      });
      await page.reload();
    }

    // Prices for everyone; in place of the order form, the prompt: no buying power, no order button.
    await page.goto(STOCK);
    const prompt = page.getByTestId('account-opening-prompt');
    await expect(prompt).toBeVisible();
    await expect(prompt).toHaveAttribute('data-status', 'none');
    await expect(page.locator('.order-form')).toHaveCount(0);
    await expect(page.getByTestId('stock-code')).toHaveText('7203');
    await prompt.getByRole('button', { name: text.promptAction }).click();
    await expect(page).toHaveURL(/real_name/);

    await fillApplication(page, lang);
    const review = page.getByTestId('application-review');
    await expect(review).toContainText(text.reviewKana);
    await expect(review).toContainText('••••••••9018');
    await page.getByRole('button', { name: text.submit }).click();
    await expect(page.getByRole('heading', { name: text.pending })).toBeVisible();

    await page.goto(STOCK);
    await expect(page.getByTestId('account-opening-prompt')).toHaveAttribute('data-status', 'pending');

    // The reviewer sees every answer, the My Number masked until revealed with a reason; then approves.
    const operator = await operatorPage(browser, baseURL);
    try {
      const drawer = await openPendingReview(operator, 'identity', phone);
      await expect(drawer.getByText('ヤマダ\u3000タロウ')).toBeVisible();
      await expect(drawer.getByTestId('my-number')).toHaveText('••••••••9018');
      await drawer.getByRole('button', { name: 'Show the My Number' }).click();
      const modal = await openedDialog(operator, 'Show the full My Number');
      await modal.getByLabel('Why you need to see it').fill('Check against the My Number card photo');
      await modal.getByRole('button', { name: 'Show the My Number' }).click();
      await expect(drawer.getByTestId('my-number')).toHaveText('123456789018');
      await operator.keyboard.press('Escape');
      await approveIdentity(operator, phone);
    } finally {
      await operator.context().close();
    }

    // The account is open: the stock page has its live order form, the account page the account.
    await page.goto(STOCK);
    await page.reload();
    await expect(page.locator('.order-form')).toBeVisible();
    await expect(page.getByTestId('account-opening-prompt')).toHaveCount(0);
    await page.goto(route('/pages/user/user'));
    await expect(page.getByTestId('brokerage-card')).toHaveAttribute('data-status', 'open');
    await expect(page.getByRole('heading', { name: text.account })).toBeVisible();
    await expect(page.getByTestId('suitability-margin')).toHaveAttribute('data-allowed', 'true');
  });
}
