import { basename } from 'node:path';
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { registerAndLogin } from './support/account.js';
import { route, useLanguage } from './support/app.js';

/**
 * Trading end to end against the built server (MARKET_CLOCK=always-open, DEMO_MODE=true): a fresh user
 * buys 200 shares of 7203 at market (cash), sees the position arrive without reloading, closes half,
 * finds the closed half with its realized P&L, checks the transaction log against the account, then
 * downloads the CSV statement and has the server verify it.
 */
const ORDERS = '/subPackages/order/order';
const LOG = '/subPackages/transactionLog/transactionLog';

/** "¥9,399,000" → 939900000 sen (whole yen on screen). */
function yenText(text: string): number {
  const digits = text.replace(/[^\d-]/g, '');
  return Number(digits) * 100;
}

test('buy at market, close half, read the ledger, download and verify the statement', async ({ page }) => {
  test.setTimeout(120_000);
  await useLanguage(page, 'en');
  await registerAndLogin(page);

  // The order form below the chart, with the published fee schedule and the simulated-prices notice.
  await page.goto(route('/subPackages/index/gupiaoDetail/gupiaoDetail?code=7203'));
  const form = page.getByRole('form', { name: 'Place an order' });
  await expect(form).toBeVisible();
  await expect(page.getByText('Commission: ¥0 (published fee schedule)')).toBeVisible();
  await expect(page.getByText(/Prices are simulated/)).toBeVisible();
  await expect(form.getByRole('radio', { name: 'Cash', exact: true })).toHaveAttribute(
    'aria-checked',
    'true',
  );
  await expect(form.getByRole('radio', { name: 'Market' })).toHaveAttribute('aria-checked', 'true');

  // 100 → 200 shares with the stepper; the figures follow.
  await form.getByRole('button', { name: 'Add 100 shares' }).click();
  await expect(form.getByLabel('Quantity', { exact: true })).toHaveValue('200');
  await expect(form.getByTestId('fig-fee')).toHaveText('¥0');
  const principal = yenText((await form.getByTestId('fig-principal').textContent()) ?? '');
  expect(principal).toBeGreaterThan(0);

  // Confirm dialog → place the order.
  await form.getByRole('button', { name: 'Review order: Buy' }).click();
  const confirm = page.getByRole('dialog');
  await expect(confirm.getByText('Confirm your order')).toBeVisible();
  await expect(confirm.getByTestId('order-confirm')).toContainText('200 shares');
  await expect(confirm.getByTestId('order-confirm')).toContainText('Cash');
  await confirm.getByRole('button', { name: 'Place order' }).click();
  // The answer's toast (order number) and the fill event's toast share antd's one toast: either may show last.
  await expect(
    page.getByText(/Order placed: No\. \S+|Order filled: TOYOTA.* 200 shares at ¥[\d,.]+/).first(),
  ).toBeVisible();

  // The holding tab shows the position (the fill arrives as a user event; no reload).
  await form.getByRole('link', { name: /Orders and holdings/ }).click();
  await expect(page).toHaveURL(/#\/subPackages\/order\/order/);
  const holding = page.getByTestId('holding-card').filter({ has: page.getByText('7203') });
  await expect(holding.getByTestId('holding-quantity')).toHaveText('200', { timeout: 15_000 });
  await expect(holding.getByText('Cash')).toBeVisible();

  // Close half at market.
  // A cash holding is sold (現物売), not "closed".
  await holding.getByRole('button', { name: 'Sell', exact: true }).click();
  const closeForm = page.getByRole('form', { name: 'Sell' });
  await expect(closeForm).toBeVisible();
  await closeForm.getByLabel('Shares', { exact: true }).fill('100');
  await closeForm.getByRole('button', { name: 'Place order' }).click();
  const closeConfirm = page.getByRole('dialog').filter({ hasText: 'Confirm the order' });
  await expect(closeConfirm).toBeVisible();
  await closeConfirm.getByRole('button', { name: 'Place order' }).click();
  await expect(
    page.getByText(/Order placed: No\. \S+|Order filled: TOYOTA.* 100 shares at ¥[\d,.]+/).first(),
  ).toBeVisible();

  // Holding keeps 100; the closed tab shows the closed 100 with a realized P&L.
  await expect(holding.getByTestId('holding-quantity')).toHaveText('100', { timeout: 15_000 });
  await page.getByRole('tab', { name: 'Sold / closed' }).click();
  const closed = page.getByTestId('closed-card').filter({ has: page.getByText('7203') });
  await expect(closed.getByTestId('closed-quantity')).toHaveText('100');
  await expect(closed.getByTestId('closed-pl')).toHaveText(/¥/);

  // The transaction log has the trades, and its cash balance is the available balance.
  await page.goto(route(LOG));
  // One movement per order: the purchase and the sale, executed; the demo cash once.
  const purchase = page.getByTestId('movement').filter({ hasText: 'Buy' }).first();
  await expect(purchase.getByTestId('movement-state')).toHaveText('Executed');
  await expect(page.getByTestId('movement').filter({ hasText: 'Sell' }).first()).toBeVisible();
  await expect(page.locator('[data-testid="movement"][data-kind="demo_funding"]')).toHaveCount(1);
  const ledgerCash = (await page.getByTestId('ledger-cash-balance').textContent()) ?? '';
  expect(ledgerCash).toMatch(/¥/);
  // The user tab may first show its cached figures; it refreshes to the ledger's balance.
  await page.goto(route('/pages/user/user'));
  await expect(page.getByTestId('available-balance')).toHaveText(ledgerCash);
  await page.goto(route(LOG));

  // Download the statement and have the server verify it.
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download statement (CSV)' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/\.csv$/);
  const file = await download.path();
  expect(readFileSync(file, 'utf8').split('\n').length).toBeGreaterThan(3);
  // the kit's button and the name chosen stand in for the browser's own "Choose File / No file chosen"
  await expect(page.getByTestId('verify-file')).toHaveText('No file chosen');
  await expect(page.getByRole('button', { name: 'Choose a CSV file' })).toBeVisible();
  await page.getByLabel('Verify a statement').setInputFiles(file);
  await expect(page.getByTestId('verify-file')).toHaveText(basename(file));
  await expect(page.getByTestId('verify-result')).toContainText(
    /The statement matches your account.s ledger: \d+ lines/,
  );

  // The orders page's other tabs and the order detail of the opening order.
  await page.goto(route(`${ORDERS}?tab=holding`));
  await page.getByTestId('holding-card').first().locator('.trade-card__open').click();
  await expect(page).toHaveURL(/#\/subPackages\/jiaoyi\/jiaoyiDetail\/jiaoyiDetail\?order_no=/);
  await expect(page.getByTestId('order-status')).toHaveText('Filled');
  await expect(page.getByTestId('order-quantity')).toHaveText('200');
});
