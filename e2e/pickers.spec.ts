import { expect, test, type Page } from '@playwright/test';
import { route } from './support/app.js';

/**
 * The UI kit's date wheel in place of the browser's date input (issue 19): the browser's control showed
 * "mm/dd/yyyy" whatever the app's language. The route walk (routes.spec.ts) fails on any native date input
 * or visible file input left; this flow uses the wheel in Japanese and in French.
 */
const DEMO = { phone: '09000000001', password: 'demo1234' };

test.use({ viewport: { width: 390, height: 844 } });

async function signInAs(page: Page, locale: string) {
  const res = await page.request.post('/api/auth/login', {
    data: { account: DEMO.phone, password: DEMO.password, agree: true },
  });
  const login = (await res.json()) as { code: number; msg: string; data: { token: string; user_id: number } };
  expect(login.code, login.msg).toBe(1);
  await page.goto(route('/pages/index/index'));
  await page.evaluate(
    ({ token, userId, l }) => {
      localStorage.setItem('locale', l);
      localStorage.setItem('token', token);
      localStorage.setItem('userId', String(userId));
    },
    { token: login.data.token, userId: login.data.user_id, l: locale },
  );
  // the session is read from storage when the app starts
  await page.reload();
}

/** Today in Japan as the picker's first position shows it, e.g. 2026年11月26日. */
function tokyoToday(locale: string): string {
  return new Intl.DateTimeFormat(locale, { timeZone: 'Asia/Tokyo', dateStyle: 'long' }).format(new Date());
}

test('the statement period is chosen on the kit’s wheel, in Japanese (年・月・日) and in French', async ({
  page,
}) => {
  await signInAs(page, 'jp');
  await page.goto(route('/subPackages/transactionLog/transactionLog'));
  const from = page.getByRole('button', { name: '開始日', exact: true });
  await expect(from).toHaveText('日付を選択');
  await expect(page.locator('input[type=date]')).toHaveCount(0);

  await from.click();
  const wheel = page.locator('.adm-picker');
  await expect(wheel.locator('.adm-picker-header-title')).toHaveText('開始日');
  await expect(wheel).toContainText(`${String(new Date().getFullYear())}年`);
  await expect(wheel).toContainText('月');
  await expect(wheel).toContainText('日');
  await wheel.getByText('決定', { exact: true }).click();
  await expect(wheel).toBeHidden();
  // the chosen day in Japanese, and the period is now custom (no preset segment selected)
  await expect(from).toHaveText(tokyoToday('ja'));
  await expect(from).toHaveAttribute('data-value', /^\d{4}-\d{2}-\d{2}$/);

  await page.getByRole('button', { name: '「開始日」をクリア' }).click();
  await expect(from).toHaveText('日付を選択');

  // in French: the label, the placeholder, the buttons of the wheel and the month's name
  await page.evaluate(() => {
    localStorage.setItem('locale', 'fr');
  });
  await page.reload();
  const au = page.getByRole('button', { name: 'Au', exact: true });
  await expect(au).toHaveText('Choisir une date');
  await au.click();
  const month = new Intl.DateTimeFormat('fr', { timeZone: 'Asia/Tokyo', month: 'long' }).format(new Date());
  await expect(wheel).toContainText(month);
  await expect(wheel.getByText('Valider', { exact: true })).toBeVisible();
  await wheel.getByText('Annuler', { exact: true }).click();
  await expect(au).toHaveText('Choisir une date');
});
