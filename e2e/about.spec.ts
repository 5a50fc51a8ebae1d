import { expect, test } from '@playwright/test';
import { route, useLanguage } from './support/app.js';
import { consoleRoute, loginAsAdmin } from './support/console.js';

/**
 * The about section (issue 19): the app's version 1.0.0 with its code 100, and the firm's registration as its
 * administrators publish it in the console; until then the demo says it is not a registered firm.
 */
const SETTINGS = '/subPackages/seting/seting';

test.describe.configure({ mode: 'serial' });

test('the demo says it is no registered firm, beside the version and its code', async ({ page }) => {
  await useLanguage(page, 'jp');
  await page.goto(route(SETTINGS));
  const about = page.getByTestId('about');
  await expect(about.getByTestId('app-version')).toHaveText('1.0.0（100）');
  await expect(about.getByTestId('firm-registration')).toHaveText('なし');
  await expect(about).toContainText('金融商品取引業の登録はありません');
});

test('an administrator publishes the firm’s registration, and the app shows it', async ({
  page,
  browser,
}) => {
  await loginAsAdmin(page);
  await page.goto(consoleRoute('/settings'));
  const form = page.locator('form[id="settings-firm"]');
  await form.getByLabel('Name').fill('Kabuto Securities Co., Ltd.');
  await form.getByLabel('Registration').fill('Kanto Local Finance Bureau (FIBO) No. 9999');
  await form.getByLabel('Associations').fill('Japan Securities Dealers Association');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Saved', { exact: true })).toBeVisible();

  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const app = await context.newPage();
  await useLanguage(app, 'en');
  await app.goto(route(SETTINGS));
  const about = app.getByTestId('about');
  await expect(about.getByTestId('firm-registration')).toHaveText(
    'Kanto Local Finance Bureau (FIBO) No. 9999',
  );
  await expect(about).toContainText('Kabuto Securities Co., Ltd.');
  await expect(about).toContainText('Japan Securities Dealers Association');
  await context.close();
});
