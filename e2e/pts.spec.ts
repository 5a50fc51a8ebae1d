import { expect, test } from '@playwright/test';
import { registerAndLogin } from './support/account.js';
import { useLanguage } from './support/app.js';

/**
 * PTS end to end (MARKET_CLOCK=always-open, so the PTS session is open): a fresh user opens the PTS
 * screen from home, applies for 100 shares at market (a cash buy, filled at once: "Success"), then
 * applies with a limit at today's lower limit, sees it "Applying" and cancels it. The ticket offers no
 * direction or leverage: PTS applications are cash buys.
 */
test('apply on PTS at market and with a limit, then cancel the waiting application', async ({ page }) => {
  test.setTimeout(90_000);
  await useLanguage(page, 'en');
  await registerAndLogin(page);

  await page
    .getByRole('navigation', { name: 'Your account' })
    .getByRole('link', { name: 'PTS trading' })
    .click();
  await expect(page).toHaveURL(/#\/subPackages\/index\/pts\/pts/);
  await expect(page.getByText('PTS (pre-market)').first()).toBeVisible();
  await expect(page.getByTestId('pts-session')).toContainText('Demo mode');
  await expect(page.getByTestId('pts-rule')).toContainText('PTS orders are cash buys');
  await expect(page.getByText('No PTS applications yet.')).toBeVisible();

  // Tap the first stock of the list: the application form opens.
  const rows = page.getByTestId('pts-stocks').getByTestId('stock-row');
  await expect(rows.first()).toBeVisible();
  const code = (await rows.first().getAttribute('data-code')) ?? '';
  expect(code).not.toBe('');
  await rows.first().getByRole('link').click();
  const form = page.getByRole('form', { name: 'PTS application' });
  await expect(form).toBeVisible();
  await expect(form.getByTestId('pts-form-stock')).toContainText(code);
  // Cash buys only: no direction, no leverage.
  await expect(form.getByRole('radio', { name: 'Margin', exact: true })).toHaveCount(0);
  await expect(form.getByRole('radio', { name: 'Short sell' })).toHaveCount(0);
  await expect(form.getByLabel('Quantity', { exact: true })).toHaveValue('100');

  // 100 shares at market.
  await form.getByRole('button', { name: 'Apply to buy' }).click();
  const confirm = page.getByRole('dialog').filter({ hasText: 'Confirm your order' });
  await expect(confirm.getByTestId('order-confirm')).toContainText('100 shares');
  await expect(confirm.getByTestId('order-confirm')).toContainText('Cash');
  await confirm.getByRole('button', { name: 'Place order' }).click();
  await expect(confirm).toBeHidden();

  const applications = page.getByTestId('pts-applications');
  const success = applications.locator('[data-testid="pts-application"][data-status="filled"]');
  await expect(success).toHaveCount(1, { timeout: 15_000 });
  await expect(success.getByTestId('pts-application-tag')).toHaveText('Success');
  await expect(success).toContainText(code);
  await expect(success.getByTestId('pts-application-price')).toHaveText('Market');

  // A limit at today's lower limit waits as an application.
  await form.getByRole('radio', { name: 'Limit' }).click();
  const hint = (await form.getByText(/today’s limits/).textContent()) ?? '';
  const lower = /limits\s+¥([\d,.]+)/.exec(hint)?.[1]?.replace(/,/g, '') ?? '';
  expect(Number(lower)).toBeGreaterThan(0);
  await form.getByLabel('Limit price').fill(lower);
  await form.getByRole('button', { name: 'Apply to buy' }).click();
  const confirm2 = page.getByRole('dialog').filter({ hasText: 'Confirm your order' });
  await confirm2.getByRole('button', { name: 'Place order' }).click();
  await expect(confirm2).toBeHidden();

  const waiting = applications.locator('[data-testid="pts-application"][data-status="pending"]');
  await expect(waiting).toHaveCount(1, { timeout: 15_000 });
  await expect(waiting.getByTestId('pts-application-tag')).toHaveText('Applying');
  await expect(waiting.getByTestId('pts-application-price')).toContainText('Limit');

  // Cancel it: its status becomes "Cancelled".
  await waiting.getByRole('button', { name: 'Cancel order' }).click();
  const cancelDialog = page.getByRole('dialog').filter({ hasText: 'Cancel this order?' });
  await cancelDialog.getByRole('button', { name: 'Cancel order' }).click();
  const cancelled = applications.locator('[data-testid="pts-application"][data-status="cancelled"]');
  await expect(cancelled).toHaveCount(1, { timeout: 15_000 });
  await expect(cancelled.getByTestId('pts-application-tag')).toHaveText('Cancelled');
  await expect(applications.getByTestId('pts-application')).toHaveCount(2);
});
