import { expect, test } from '@playwright/test';
import { registerAndLogin } from './support/account.js';
import { route, useLanguage } from './support/app.js';

/**
 * The AI trade tab against the built server (MARKET_CLOCK=always-open, DEMO_MODE=true): logged out it
 * shows the disclaimer and mechanical signals for the 10 most-traded stocks, with the rules in plain
 * words; logged in, a quick market order for 100 shares arrives in the positions summary.
 */
const TAB = '/pages/jiaoyi/jiaoyi';

test('signals with their rules, then a quick order that shows up in the positions', async ({ page }) => {
  test.setTimeout(120_000);
  await useLanguage(page, 'en');

  // Logged out, through the tab bar.
  await page.goto(route('/pages/index/index'));
  await page.getByRole('navigation', { name: 'Main menu' }).getByText('AI trade').click();
  await expect(page).toHaveURL(/#\/pages\/jiaoyi\/jiaoyi/);

  const disclaimer = page.getByRole('note').filter({ hasText: 'Please read first' });
  await expect(disclaimer).toBeVisible();
  await expect(disclaimer).toContainText('computed mechanically from past prices');
  await expect(disclaimer).toContainText('not investment advice');
  await expect(disclaimer).toContainText('simulated');
  await expect(disclaimer.getByTestId('simulated-badge')).toBeVisible();
  await expect(page.getByTestId('ai-signal-source')).toHaveText('The 10 most-traded stocks by turnover');

  // One row per top stock, each a button named by the stock, with the numbers behind the signals.
  const rows = page.getByTestId('signal-row');
  await expect(rows).toHaveCount(10);
  const first = rows.first();
  const name = (await first.locator('.ai-signal__name').textContent()) ?? '';
  expect(name).not.toBe('');
  await expect(first.getByTestId('signal-ma')).toContainText(/MA5 ¥[\d,.]+ \/ MA25 ¥[\d,.]+/);
  await expect(first.getByTestId('signal-rsi')).toContainText(/RSI \d+(\.\d)?/);
  await expect(first.getByTestId('signal-change')).toContainText(/[+-]?\d+\.\d\d%/);

  // Tap to read the rules in plain words.
  const toggle = page.getByRole('button', { name });
  await expect(toggle.first()).toHaveAttribute('aria-expanded', 'false');
  await toggle.first().click();
  await expect(toggle.first()).toHaveAttribute('aria-expanded', 'true');
  const explanation = first.getByTestId('signal-explanation');
  await expect(explanation).toBeVisible();
  await expect(explanation).toContainText('Rule: the average of the last 5 daily closes');
  await expect(explanation).toContainText('Wilder');
  await expect(explanation).toContainText(/Computed from daily closes up to/);
  // No promises, no calls to act.
  await expect(page.locator('.ai-trade')).not.toContainText(/recommend|buy now|guarantee|win rate/i);

  // Logged out: a login prompt instead of the order form.
  await expect(page.getByText('Log in to place orders and see your holdings.')).toBeVisible();
  await expect(page.getByRole('form', { name: 'Quick order' })).toHaveCount(0);

  // A fresh user (empty watchlist: the same top stocks) places a quick market order for 100 shares.
  await registerAndLogin(page);
  await page.goto(route(TAB));
  const form = page.getByRole('form', { name: 'Quick order' });
  await expect(form).toBeVisible();
  await expect(page.getByTestId('ai-fee-schedule')).toContainText('Commission: ¥0 (published fee schedule)');
  await expect(page.getByText('You hold no shares or margin positions.')).toBeVisible();

  const picker = form.getByLabel('Stock', { exact: true });
  const code = await picker.inputValue();
  expect(code).toMatch(/^[0-9][0-9A-Z]{3}$/);
  // The ticket starts from the least risky choice: a cash buy of one lot.
  await expect(form.getByRole('radio', { name: 'Cash', exact: true })).toHaveAttribute(
    'aria-checked',
    'true',
  );
  await expect(form.getByRole('radio', { name: 'Margin', exact: true })).toHaveAttribute(
    'aria-checked',
    'false',
  );
  await expect(form.getByRole('radio', { name: 'Market' })).toHaveAttribute('aria-checked', 'true');
  await expect(form.getByLabel('Quantity', { exact: true })).toHaveValue('100');
  await expect(form.getByTestId('ai-fig-fee')).toHaveText('¥0');

  await form.getByRole('button', { name: 'Review order: Buy' }).click();
  const confirm = page.getByRole('dialog');
  await expect(confirm.getByText('Confirm your order')).toBeVisible();
  await expect(confirm.getByTestId('order-confirm')).toContainText('100 shares');
  await expect(confirm.getByTestId('order-confirm')).toContainText(`(${code})`);
  await expect(confirm.getByTestId('order-confirm')).toContainText('Estimated amount');
  await expect(confirm.getByTestId('order-confirm-fees')).toHaveText(
    'Commission: ¥0 (published fee schedule)',
  );
  await confirm.getByRole('button', { name: 'Place order' }).click();

  // The fill arrives as a user event: the position appears without a reload.
  const position = page.locator(`[data-testid="ai-position"][data-code="${code}"]`);
  await expect(position.getByTestId('ai-position-quantity')).toHaveText('100', { timeout: 15_000 });
  await expect(position.getByTestId('ai-position-price')).toHaveText(/¥[\d,.]+/);

  // A position opens the holding tab of the orders page.
  await position.getByRole('link').click();
  await expect(page).toHaveURL(/#\/subPackages\/order\/order\?tab=holding/);
  await expect(page.getByTestId('holding-card').filter({ has: page.getByText(code) })).toBeVisible();
});
