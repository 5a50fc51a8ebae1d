import { expect, test, type Page } from '@playwright/test';
import { login, register, registerAndLogin } from './support/account.js';
import { freshPhone, route, useLanguage } from './support/app.js';
import { verifyUser } from './support/operator-api.js';

/**
 * The order ticket of issue 23 (ADR 0025), in Japanese and in English at 390×844 against the built server
 * (MARKET_CLOCK=always-open): it starts as a cash buy; a cash buy in 特定口座; a 信用新規買 (制度信用) shows
 * its collateral rate, buying power, collateral and repayment deadline before the quantity, and is returned
 * with 返済売; a NISA buy shows the growth quota left. Then the small things: the login agreement's links
 * do not tick its box, and a wrong password shows at its field.
 */
const STOCK = '/subPackages/index/gupiaoDetail/gupiaoDetail?code=7203';
const ORDERS = '/subPackages/order/order';

const WORDS = {
  ja: {
    form: '注文',
    cash: '現物',
    margin: '信用',
    standard: '制度信用',
    marginBuy: '信用新規買',
    specific: '特定口座',
    nisa: 'NISA（成長投資枠）',
    rate100: '100%',
    reviewBuy: '現物買の注文内容を確認',
    reviewMarginBuy: '信用新規買の注文内容を確認',
    place: '注文を確定する',
    confirmTitle: '注文内容の確認',
    cashBuy: '現物買',
    deadline: /6か月（\d{4}年\d{1,2}月\d{1,2}日まで）/,
    notice: /約定代金 約￥[\d,]+ の信用建玉を新規に建てます/,
    nisaLeft: /成長投資枠の残り（\d{4}年）：￥[\d,]+/,
    positionLong: '買建',
    repay: '返済',
    repaySell: '返済売',
    quantity: '数量',
    closed: '売却・返済済',
  },
  en: {
    form: 'Place an order',
    cash: 'Cash',
    margin: 'Margin',
    standard: 'Standardized margin',
    marginBuy: 'Margin buy',
    specific: 'Specified account (tokutei)',
    nisa: 'NISA (growth quota)',
    rate100: '100%',
    reviewBuy: 'Review order: Buy',
    reviewMarginBuy: 'Review order: Margin buy',
    place: 'Place order',
    confirmTitle: 'Confirm your order',
    cashBuy: 'Buy',
    deadline: /6 months \(by .+\d{4}\)/,
    notice: /This opens a margin position worth about ¥[\d,]+/,
    nisaLeft: /NISA growth quota left \(\d{4}\): ¥[\d,]+/,
    positionLong: 'Margin long',
    repay: 'Close',
    repaySell: 'Close (sell to repay)',
    quantity: 'Shares',
    closed: 'Sold / closed',
  },
} as const;

async function placeFromDialog(page: Page, title: string, place: string) {
  const dialog = page.getByRole('dialog').filter({ hasText: title });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: place }).click();
  await expect(dialog).toBeHidden();
  return dialog;
}

for (const lang of ['ja', 'en'] as const) {
  const w = WORDS[lang];

  test(`${lang}: 現物買 in 特定口座, 信用新規買 (制度信用) returned with 返済売, and a NISA buy`, async ({
    page,
  }) => {
    test.setTimeout(180_000);
    // registration and login speak English (support/account.ts); the ticket is then read in `lang`
    await useLanguage(page, 'en');
    await registerAndLogin(page);
    await page.evaluate(
      (code) => {
        localStorage.setItem('locale', code);
      },
      lang === 'ja' ? 'jp' : 'en',
    );
    await page.goto(route(STOCK));
    await page.reload();
    const form = page.getByRole('form', { name: w.form, exact: true });
    await expect(form).toBeVisible();

    // It starts from the least risky choice: cash, one lot; no margin fields.
    await expect(form.getByRole('radio', { name: w.cash, exact: true })).toHaveAttribute(
      'aria-checked',
      'true',
    );
    await expect(form.getByLabel(w.quantity === 'Shares' ? 'Quantity' : '数量', { exact: true })).toHaveValue(
      '100',
    );
    await expect(form.getByTestId('order-collateral-rate')).toHaveCount(0);

    // 現物買 in 特定口座.
    await form.getByRole('radio', { name: w.specific }).click();
    await expect(form.getByRole('radio', { name: w.specific })).toHaveAttribute('aria-checked', 'true');
    await form.getByRole('button', { name: w.reviewBuy }).click();
    const cashConfirm = page.getByRole('dialog').filter({ hasText: w.confirmTitle });
    await expect(cashConfirm.getByTestId('order-confirm')).toContainText(w.cashBuy);
    await expect(cashConfirm.getByTestId('order-confirm')).toContainText(w.specific);
    await expect(cashConfirm.getByTestId('order-confirm-notice')).toHaveCount(0);
    await placeFromDialog(page, w.confirmTitle, w.place);

    // 信用: 制度信用, 信用新規買 and the 100% collateral rate first; NISA is not offered; the collateral,
    // the buying power and the deadline come before the quantity.
    await form.getByRole('radio', { name: w.margin, exact: true }).click();
    await expect(form.getByRole('radio', { name: w.standard })).toHaveAttribute('aria-checked', 'true');
    await expect(form.getByRole('radio', { name: w.marginBuy })).toHaveAttribute('aria-checked', 'true');
    await expect(form.getByRole('radio', { name: w.rate100 })).toHaveAttribute('aria-checked', 'true');
    await expect(form.getByRole('radio', { name: w.nisa })).toHaveCount(0);
    await expect(form.getByTestId('fig-repay-deadline')).toHaveText(w.deadline);
    await expect(form.getByTestId('fig-collateral')).toHaveText(/[¥￥][\d,]+/);
    const figuresBox = await form.getByTestId('order-margin-figures').boundingBox();
    const quantityBox = await form.getByTestId('order-quantity').boundingBox();
    expect(figuresBox?.y ?? Infinity).toBeLessThan(quantityBox?.y ?? 0);
    await expect(form).not.toContainText(/leverage|レバレッジ|3x|3倍/i);

    // 200 shares (the ¥300,000 minimum collateral) at 100%.
    await form.getByRole('button', { name: lang === 'ja' ? '100株増やす' : 'Add 100 shares' }).click();
    await form.getByRole('button', { name: w.reviewMarginBuy }).click();
    const marginConfirm = page.getByRole('dialog').filter({ hasText: w.confirmTitle });
    await expect(marginConfirm.getByTestId('order-confirm-notice')).toHaveText(w.notice);
    await expect(marginConfirm.getByTestId('order-confirm')).toContainText(w.marginBuy);
    await expect(marginConfirm.getByTestId('order-confirm')).toContainText(w.standard);
    await expect(marginConfirm.getByTestId('order-confirm')).toContainText(w.rate100);
    await expect(marginConfirm.getByTestId('order-confirm')).toContainText(w.deadline);
    await placeFromDialog(page, w.confirmTitle, w.place);

    // The 建玉 (買建 · 制度信用) is returned with 返済売.
    await page.goto(route(ORDERS));
    const position = page
      .getByTestId('holding-card')
      .filter({ hasText: w.positionLong })
      .filter({ hasText: w.standard });
    await expect(position).toHaveCount(1, { timeout: 15_000 });
    await position.getByRole('button', { name: w.repay, exact: true }).click();
    const repayForm = page.getByRole('form', { name: w.repaySell });
    await expect(repayForm).toBeVisible();
    await repayForm.getByLabel(w.quantity, { exact: true }).fill('200');
    await repayForm.getByRole('button', { name: lang === 'ja' ? '注文を確定する' : 'Place order' }).click();
    const repayConfirm = page
      .getByRole('dialog')
      .filter({ hasText: lang === 'ja' ? '注文内容の確認' : 'Confirm the order' });
    await expect(repayConfirm).toContainText(w.repaySell);
    await repayConfirm
      .getByRole('button', { name: lang === 'ja' ? '注文を確定する' : 'Place order' })
      .click();
    await expect(position).toHaveCount(0, { timeout: 15_000 });
    await page.getByRole('tab', { name: w.closed }).click();
    await expect(
      page.getByTestId('closed-card').filter({ hasText: w.positionLong }).filter({ hasText: w.standard }),
    ).toHaveCount(1);

    // A NISA buy: the growth quota left shows under the account.
    await page.goto(route(STOCK));
    await expect(form).toBeVisible();
    await form.getByRole('radio', { name: w.nisa }).click();
    await expect(form.getByTestId('order-nisa-left')).toHaveText(w.nisaLeft);
    await form.getByRole('button', { name: w.reviewBuy }).click();
    const nisaConfirm = page.getByRole('dialog').filter({ hasText: w.confirmTitle });
    await expect(nisaConfirm.getByTestId('order-confirm')).toContainText(w.nisa);
    await placeFromDialog(page, w.confirmTitle, w.place);
    await page.goto(route(ORDERS));
    await expect(page.getByTestId('holding-card').filter({ hasText: w.nisa })).toHaveCount(1, {
      timeout: 15_000,
    });
  });
}

test('the login agreement: a document link opens the document without ticking the box, which has a name', async ({
  page,
}) => {
  await useLanguage(page, 'en');
  const phone = freshPhone();
  await register(page, phone, 'trade1');
  await page.goto(route('/subPackages/login/login'));
  const box = page.getByRole('checkbox', { name: /I have read and agree to the User Agreement/ });
  await expect(box).not.toBeChecked();
  await page.getByRole('link', { name: 'Privacy Policy' }).click();
  await expect(page).toHaveURL(/section=privacy/);
  await page.goBack();
  await expect(box).not.toBeChecked();
  // the sentence's words outside the links tick it, and so does the box
  await page.getByText('I have read and agree to the').click();
  await expect(box).toBeChecked();
  await box.uncheck();
  await expect(box).not.toBeChecked();
  await login(page, phone, 'trade1');
});

test('a wrong password shows at its field, not only in a toast', async ({ page }) => {
  await useLanguage(page, 'en');
  const phone = freshPhone();
  await register(page, phone, 'trade1');
  await verifyUser(page.request, phone, 'trade1');
  await login(page, phone, 'trade1');
  await page.goto(route('/subPackages/transactionPassions/transactionPassions'));
  const form = page.getByRole('form', { name: 'Set transaction password' });
  await form.getByLabel('Login password').fill('wrong1');
  await form.getByLabel('New transaction password').fill('246810');
  await form.getByLabel('Confirm transaction password').fill('246810');
  await form.getByRole('button', { name: 'Set transaction password' }).click();
  await expect(form.getByText('The current password is incorrect')).toBeVisible();
});
