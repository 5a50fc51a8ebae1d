import { expect, test } from '@playwright/test';
import { registerAndLogin } from './support/account.js';
import { useLanguage } from './support/app.js';

/**
 * Day trade end to end (MARKET_CLOCK=always-open): a fresh user opens the day-trade screen from home,
 * reads the rule, places a day-trade margin buy (100% collateral) on the most expensive tradable stock with enough shares for
 * the ¥300,000 minimum collateral, and finds it among today's open day trades.
 */
interface ListBody {
  data: { items: { code: string; tradable: boolean; quote: { last: number } }[] };
}

test('place a day-trade margin buy and see it under today’s day trades', async ({ page }) => {
  test.setTimeout(90_000);
  await useLanguage(page, 'en');
  await registerAndLogin(page);

  await page
    .getByRole('navigation', { name: 'Your account' })
    .getByRole('link', { name: 'Day trade' })
    .click();
  await expect(page).toHaveURL(/#\/subPackages\/index\/rinei\/index/);
  const rules = page.getByTestId('day-trade-rules');
  await expect(rules).toContainText('closed automatically at the market from 15:24');
  await expect(rules).toContainText('collateral of at least 30%');
  await expect(rules).toContainText('¥300,000');
  await expect(page.getByText('No open day-trade positions.')).toBeVisible();

  // The most expensive tradable stock, and enough shares for ¥300,000 of collateral at the 100% rate (+10%).
  const response = await page.request.get('/api/market/list?sort=price&limit=10');
  const body = (await response.json()) as ListBody;
  const stock = body.data.items.find((s) => s.tradable);
  if (stock === undefined) throw new Error('no tradable stock');
  const principalSen = 300_000 * 100 * 1.1;
  const quantity = Math.max(100, Math.ceil(principalSen / stock.quote.last / 100) * 100);

  const form = page.getByRole('form', { name: 'Day-trade order' });
  await expect(form).toBeVisible();
  await form.getByTestId('day-trade-stock').selectOption(stock.code);
  // No longer a 3x position in one tap: the smallest quantity and the highest collateral rate first.
  await expect(form.getByLabel('Quantity', { exact: true })).toHaveValue('100');
  await expect(form.getByRole('radio', { name: '100%' })).toHaveAttribute('aria-checked', 'true');
  await expect(form.getByRole('radio', { name: '33%' })).toHaveAttribute('aria-checked', 'false');
  await expect(form.getByRole('radio', { name: 'Cash', exact: true })).toHaveCount(0);
  await expect(form.getByRole('radio', { name: 'Short sell' })).toBeVisible();
  await form.getByLabel('Quantity', { exact: true }).fill(String(quantity));

  await form.getByRole('button', { name: 'Review order: Margin buy' }).click();
  const confirm = page.getByRole('dialog').filter({ hasText: 'Confirm your order' });
  // The confirmation says the amount of the position it opens.
  await expect(confirm.getByTestId('order-confirm-notice')).toContainText(
    'This opens a margin position worth about ¥',
  );
  await expect(confirm.getByTestId('order-confirm')).toContainText('Negotiable margin · Day trade');
  await expect(confirm.getByTestId('order-confirm')).toContainText('100%');
  await confirm.getByRole('button', { name: 'Place order' }).click();
  await expect(confirm).toBeHidden();

  const open = page.getByTestId('day-trade-open');
  const card = open.locator(`[data-testid="day-trade-position"][data-code="${stock.code}"]`);
  await expect(card).toBeVisible({ timeout: 15_000 });
  await expect(card.getByTestId('day-trade-quantity')).toHaveText(
    new Intl.NumberFormat('en').format(quantity),
  );
  await expect(card.getByTestId('day-trade-direction')).toContainText('Margin long · Negotiable margin');
});
