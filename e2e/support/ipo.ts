import { AxeBuilder } from '@axe-core/playwright';
import { expect, type APIRequestContext, type Browser, type Locator, type Page } from '@playwright/test';
import type { Envelope } from './app.js';
import { consoleRoute, loginAsAdmin, openedDialog } from './console.js';

/**
 * What the IPO flows share (ipo.spec.ts, ipo-nisa.spec.ts): the server's clock (CLOCK_CONTROL), the console's
 * offerings page and its IPO form, and axe. The demo user signs in through support/app.ts's signInDemo.
 */
export { DEMO, type Envelope } from './app.js';
export const IPO = '/subPackages/index/ipo/ipo';
export const BLOCK_TRADE = '/subPackages/index/dadan/dadan';
export const ORDERS = '/subPackages/order/order';
export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

/** The server's clock now (the flows move it forward). */
export async function serverNow(request: APIRequestContext): Promise<Date> {
  const res = await request.post('/api/clock/advance', { data: { ms: 0 } });
  return new Date(((await res.json()) as Envelope<{ now: string }>).data.now);
}

/** Moves the server's clock forward; the offering job runs in that pass. */
export async function advance(request: APIRequestContext, ms: number): Promise<void> {
  const res = await request.post('/api/clock/advance', { data: { ms } });
  expect(((await res.json()) as Envelope<unknown>).code).toBe(1);
}

/** The console picker's text (`YYYY-MM-DD HH:mm`) in Tokyo time for an instant (the console's dates are Tokyo's). */
export function tokyoLocal(at: Date): string {
  return new Date(at.getTime() + 9 * HOUR).toISOString().slice(0, 16).replace('T', ' ');
}

export async function expectAxeClean(page: Page): Promise<void> {
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious')).toEqual([]);
}

/** The administrator's console in a desktop-sized window of its own, on the offerings page. */
export async function openConsole(browser: Browser) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const op = await context.newPage();
  await loginAsAdmin(op);
  await op.goto(consoleRoute('/'));
  await op
    .getByRole('navigation', { name: 'Main menu' })
    .getByRole('link', { name: 'IPOs and distributions', exact: true })
    .click();
  await expect(
    op.getByRole('heading', { level: 1, name: 'IPOs and off-auction distributions' }),
  ).toBeVisible();
  return { op, close: () => context.close() };
}

export async function fillDates(form: Locator, dates: Record<string, Date>): Promise<void> {
  for (const [label, at] of Object.entries(dates)) {
    // antd's date-time picker: the typed text is taken with Enter
    const input = form.getByLabel(label, { exact: true });
    await input.click();
    await input.fill(tokyoLocal(at));
    await input.press('Enter');
  }
}

/** The offering's row in the console's table. */
export const consoleRow = (op: Page, code: string) =>
  op.getByRole('row').filter({ has: op.getByRole('cell', { name: new RegExp(`^${code} `) }) });

/**
 * Publishes an IPO through the console's form (the equal policy, ¥1,000-1,200, 1,000 shares, at most 3 units
 * each; open since an hour, closing in a day, drawn on the second day, paid by the third, listed on the
 * fourth) and fixes its offer price at ¥1,100.
 */
export async function publishIpo(browser: Browser, now: Date, code: string, name: string): Promise<void> {
  const { op, close } = await openConsole(browser);
  const form = op.locator('form#offering-ipo');
  await form.getByLabel('Issuer', { exact: true }).fill(`${name} Inc.`);
  await form.getByLabel('Stock code', { exact: true }).fill(code);
  await form.getByLabel('Name', { exact: true }).fill(name);
  await form.getByLabel('Tentative range: low (yen)').fill('1000');
  await form.getByLabel('Tentative range: high (yen)').fill('1200');
  await form.getByLabel('Shares offered to our customers').fill('1000');
  await form.getByLabel('Limit per customer (units)').fill('3');
  await fillDates(form, {
    'Book-building opens': new Date(now.getTime() - HOUR),
    'Book-building closes': new Date(now.getTime() + DAY),
    Draw: new Date(now.getTime() + 2 * DAY),
    'Purchase deadline': new Date(now.getTime() + 3 * DAY),
    'Listing date': new Date(now.getTime() + 4 * DAY),
  });
  await form.getByLabel('Prospectus link').fill('https://example.jp/prospectus.pdf');
  await form.getByTestId('publish-ipo').click();
  const row = consoleRow(op, code);
  await expect(row.getByTestId('offering-phase')).toHaveText('Open for applications');
  await row.getByRole('button', { name: 'Fix the offer price' }).click();
  const dialog = await openedDialog(op, new RegExp(`^Offer price of ${code}`));
  await dialog.getByLabel('Offer price (yen)').fill('1100');
  await dialog.getByRole('button', { name: 'Fix the offer price' }).click();
  await expect(row.getByTestId('offer-price')).toContainText('1,100');
  await close();
}
