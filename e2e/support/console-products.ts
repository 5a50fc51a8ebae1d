import { expect, type Browser, type Page } from '@playwright/test';
import { consoleRoute, loginAsAdmin } from './console.js';

/**
 * The console's follow-up product and dividend screens (issue 17, ADR 0027), driven in English by the seeded
 * administrator in a desktop-sized context of its own, for products.spec.ts and dividends.spec.ts.
 */

/** Runs `steps` on a signed-in administrator's console page, then closes its context. */
export async function asAdministrator<T>(browser: Browser, steps: (page: Page) => Promise<T>): Promise<T> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  try {
    const page = await context.newPage();
    await loginAsAdmin(page);
    return await steps(page);
  } finally {
    await context.close();
  }
}

/** Picks a stock of the universe in one of the forms' stock fields, by its code. */
export async function pickStock(page: Page, field: string, code: string): Promise<void> {
  const combobox = page.getByRole('combobox', { name: field });
  await combobox.click();
  await combobox.fill(code);
  await page.locator(`.ant-select-item-option[title^="${code} "]`).click();
}

/**
 * Types a date into an antd date picker, which moves its calendar to that month, and picks the day there
 * (the calendar's cells are titled with their dates).
 */
async function pickDate(page: Page, label: string, date: string): Promise<void> {
  const input = page.getByLabel(label, { exact: true });
  await input.click();
  await input.fill(date);
  await page.locator(`.ant-picker-dropdown:not(.ant-picker-dropdown-hidden) td[title="${date}"]`).click();
  await expect(input).toHaveValue(date);
  // the calendar closes with an animation, still unhidden meanwhile: the next field's calendar would then be
  // the second of two with the same dates, so the next pick waits for this one to be gone
  await expect(page.locator('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden)')).toHaveCount(0);
}

export interface ConsoleProduct {
  name: string;
  /** [code, weight in percent as typed] */
  constituents: [string, string][];
  /** YYYY-MM-DD */
  deadline: string;
  /** yen, as typed */
  minInvestment: string;
  /** percent a year, as typed */
  fee: string;
}

/**
 * Publishes a product on /products: first with its last weight off by one point, which the form refuses
 * with the running total short of 100%, then with the weights as given. Answers the product's id from the
 * table.
 */
export async function publishProduct(page: Page, product: ConsoleProduct): Promise<number> {
  await page.goto(consoleRoute('/products'));
  await expect(page.getByRole('heading', { name: 'Model portfolios' })).toBeVisible();
  const form = page.locator('form[id="product-publish"]');
  await form.getByLabel('Issuer (manager)').fill('E2E Asset Management');
  await form.getByLabel('Product name').fill(product.name);
  await form.getByLabel('Strategy').fill('Equal-weighted basket, rebalanced at every close.');
  for (const [i, [code, weight]] of product.constituents.entries()) {
    if (i > 0) await form.getByRole('button', { name: 'Add a stock' }).click();
    await pickStock(page, `Stock ${String(i + 1)}`, code);
    await form.getByRole('textbox', { name: `Weight ${String(i + 1)}` }).fill(weight);
  }
  await form.getByLabel('Fund size cap (yen)').fill('100000000');
  await pickDate(page, 'Application deadline', product.deadline);
  await form.getByLabel('Minimum investment (yen)').fill(product.minInvestment);
  await form.getByLabel('Annual management fee (%)').fill(product.fee);
  await form.getByLabel('Risk disclosure').fill('The NAV moves with the market; you may lose money.');

  // A portfolio one point short of 100% is refused before anything is sent.
  const last = form.getByRole('textbox', { name: `Weight ${String(product.constituents.length)}` });
  const lastWeight = product.constituents.at(-1)?.[1] ?? '';
  await last.fill(String(Number(lastWeight) - 1));
  await expect(form.getByTestId('weights-total')).toHaveText('Total: 99% (must be 100%)');
  await form.getByTestId('product-publish').click();
  await expect(form.getByText('The weights must sum to exactly 100%')).toBeVisible();

  await last.fill(lastWeight);
  await expect(form.getByTestId('weights-total')).toHaveText('Total: 100% (must be 100%)');
  await form.getByTestId('product-publish').click();
  const row = page.getByRole('row').filter({ hasText: product.name });
  await expect(row).toBeVisible();
  await expect(row).toContainText('Open for applications');
  return Number(await row.getByRole('cell').first().innerText());
}

/**
 * Announces a dividend on /dividends (dividend per share in yen as typed); answers the cum and ex dates the
 * server computed, as the form reports them.
 */
export async function announceDividend(
  page: Page,
  dividend: { code: string; perShare: string; recordDate: string; paymentDate: string },
): Promise<{ cumDate: string; exDate: string }> {
  await page.goto(consoleRoute('/dividends'));
  await expect(page.getByRole('heading', { name: 'Dividend announcements' })).toBeVisible();
  await pickStock(page, 'Stock', dividend.code);
  await page.getByLabel('Dividend per share (yen)').fill(dividend.perShare);
  await pickDate(page, 'Record date', dividend.recordDate);
  await pickDate(page, 'Payment date', dividend.paymentDate);
  await page.getByTestId('dividend-publish').click();
  const announced = page.getByTestId('dividend-announced');
  await expect(announced).toBeVisible();
  const text = await announced.innerText();
  const dates = /Cum date (\d{4}-\d{2}-\d{2}), ex date (\d{4}-\d{2}-\d{2})/.exec(text);
  expect(dates, text).not.toBeNull();
  const cumDate = dates?.[1] ?? '';
  const exDate = dates?.[2] ?? '';
  const row = page
    .getByRole('row')
    .filter({ hasText: dividend.code })
    .filter({ hasText: dividend.recordDate });
  await expect(row).toContainText(cumDate);
  await expect(row).toContainText('Announced');
  return { cumDate, exDate };
}
