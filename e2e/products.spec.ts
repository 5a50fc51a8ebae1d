import { expect, test, type APIRequestContext, type Browser } from '@playwright/test';
import { AxeBuilder } from '@axe-core/playwright';
import { route, signInDemo, type Envelope } from './support/app.js';
import { businessDay } from './support/calendar.js';
import { asAdministrator, publishProduct } from './support/console-products.js';

/**
 * Follow-up products end to end (issue 17, ADR 0027), in Japanese and in English at 390×844, against the
 * built server in demo mode with the clock under the test's control. An administrator publishes a product
 * on the console's products page (a portfolio one point short of 100% refused first), the demo user buys it
 * on its page, the clock moves past two closes (the NAV job runs in that pass): the record is following
 * with yesterday's earnings, the NAV chart is drawn, and the record is sold behind its confirm prompt.
 * Dividends have their own flow in dividends.spec.ts.
 */
const PRODUCTS = '/subPackages/index/gendan/gendan';
const RECORDS = '/subPackages/index/gendan/record';

/** Moves the server's clock forward to a Tokyo wall-clock time (no-op if already past); answers the new now. */
async function advanceTo(request: APIRequestContext, tokyo: string): Promise<Date> {
  const now = await request.post('/api/clock/advance', { data: { ms: 0 } });
  const current = new Date(((await now.json()) as Envelope<{ now: string }>).data.now);
  const target = new Date(`${tokyo}+09:00`);
  const ms = Math.max(0, target.getTime() - current.getTime());
  const res = await request.post('/api/clock/advance', { data: { ms } });
  return new Date(((await res.json()) as Envelope<{ now: string }>).data.now);
}

async function serverNow(request: APIRequestContext): Promise<Date> {
  const res = await request.post('/api/clock/advance', { data: { ms: 0 } });
  return new Date(((await res.json()) as Envelope<{ now: string }>).data.now);
}

/** The Tokyo date of an instant plus whole days (YYYY-MM-DD). */
function tokyoDate(at: Date, plusDays = 0): string {
  return new Date(at.getTime() + 9 * 3_600_000 + plusDays * 86_400_000).toISOString().slice(0, 10);
}

/** Publishes a Toyota and Sony basket through the console's screens; answers its id. */
async function publish(browser: Browser, request: APIRequestContext, name: string): Promise<number> {
  const now = await serverNow(request);
  return asAdministrator(browser, (op) =>
    publishProduct(op, {
      name,
      constituents: [
        ['7203', '50'],
        ['6758', '50'],
      ],
      deadline: tokyoDate(now, 60),
      minInvestment: '100',
      fee: '0.1',
    }),
  );
}

test.describe.configure({ timeout: 240_000 });

for (const lang of ['jp', 'en'] as const) {
  const ja = lang === 'jp';
  test(`a product published in the console, bought, followed and sold (${lang})`, async ({
    page,
    browser,
  }) => {
    const request = page.request;
    const name = `E2E basket ${lang} ${Date.now()}`;
    const id = await publish(browser, request, name);
    // Start on a weekday morning before the cutoff.
    const start = businessDay(tokyoDate(await serverNow(request), 1));
    await advanceTo(request, `${start}T09:30:00`);
    await signInDemo(page, lang);

    await page.goto(route(PRODUCTS));
    await expect(page.getByText(name)).toBeVisible();
    await page.getByText(name).click();
    await expect(page.getByRole('heading', { name })).toBeVisible();
    const amount = page.getByTestId('product-amount').locator('input');
    await amount.fill('10000.555');
    await expect(page.getByRole('alert')).toHaveText(
      ja ? '購入金額は小数点以下2桁までです' : 'The purchase price can only have two decimal places',
    );
    await amount.fill('10000.50');
    await page.getByTestId('risk-ack').click();
    const axe = await new AxeBuilder({ page }).analyze();
    expect(axe.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious')).toEqual([]);
    await page.getByTestId('product-buy').click();

    await page.goto(route(RECORDS));
    const record = page.getByTestId('product-record').filter({ hasText: name });
    await expect(record.getByTestId('record-status')).toHaveText(ja ? '審査中' : 'Pending review');

    // Past this day's close and the next business day's: following, with yesterday's earnings.
    await advanceTo(request, `${start}T15:40:00`);
    const next = businessDay(start, 1);
    await advanceTo(request, `${next}T15:40:00`);
    await signInDemo(page, lang);
    await page.goto(route(RECORDS));
    await expect(record.getByTestId('record-status')).toHaveText(ja ? 'フォロー中' : 'Following');
    await expect(record.getByText(ja ? '前日損益' : "Yesterday's earnings")).toBeVisible();
    await expect(
      record.getByText(ja ? '前日損益' : "Yesterday's earnings").locator('xpath=following-sibling::dd'),
    ).toHaveText(/[¥￥]/);

    await page.goto(route(`${PRODUCTS}?id=${id}`));
    await expect(page.getByTestId('nav-chart').locator('polyline')).toBeVisible();

    // Sell behind the confirm prompt: redeeming, then follow ended at the next NAV.
    await page.goto(route(RECORDS));
    await record.getByTestId('record-sell').click();
    // the prompt's own button: "the last Sell on the page" can be the record's, under the prompt's mask
    await page
      .getByRole('dialog')
      .getByRole('button', { name: ja ? '売却' : 'Sell' })
      .click();
    await expect(record.getByTestId('record-status')).toHaveText(ja ? '解約手続き中' : 'Redeeming');
    const after = businessDay(next, 1);
    await advanceTo(request, `${after}T15:40:00`);
    await signInDemo(page, lang);
    await page.goto(route(RECORDS));
    await expect(record.getByTestId('record-status')).toHaveText(ja ? 'フォロー終了' : 'Follow ended');
  });
}
