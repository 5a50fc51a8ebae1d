import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { AxeBuilder } from '@axe-core/playwright';
import { route, useLanguage } from './support/app.js';
import { adminBearer } from './support/operator-api.js';

/**
 * Follow-up products and dividends end to end (issue 17, ADR 0027), in Japanese and in English at 390×844,
 * against the built server in demo mode with the clock under the test's control. A product is published
 * through the console API (the console has no screen for it yet), bought on its page as the demo user, the
 * clock moved past two closes (the NAV job runs in that pass): the record is following with yesterday's
 * earnings, the NAV chart is drawn, and the record is sold behind its confirm prompt. A dividend announced
 * on the demo user's Toyota shows as upcoming and, after its payment date, in the dividend history and the
 * transaction log.
 */
const DEMO = { phone: '09000000001', password: 'demo1234' };
const PRODUCTS = '/subPackages/index/gendan/gendan';
const RECORDS = '/subPackages/index/gendan/record';
const DIVIDENDS = '/subPackages/index/hongli/hongli';
const LOG = '/subPackages/transactionLog/transactionLog';

interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
}

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

/** The next weekday (Mon-Fri) on or after a Tokyo date; the e2e dates avoid the year's holidays. */
function weekday(date: string, plusDays = 0): string {
  let d = new Date(`${date}T00:00:00Z`);
  d = new Date(d.getTime() + plusDays * 86_400_000);
  while (d.getUTCDay() === 0 || d.getUTCDay() === 6) d = new Date(d.getTime() + 86_400_000);
  return d.toISOString().slice(0, 10);
}

async function signIn(page: Page, lang: 'jp' | 'en'): Promise<string> {
  const res = await page.request.post('/api/auth/login', {
    data: { account: DEMO.phone, password: DEMO.password, agree: true },
  });
  const body = (await res.json()) as Envelope<{ token: string; user_id: number }>;
  expect(body.code, body.msg).toBe(1);
  await useLanguage(page, lang);
  await page.goto(route('/subPackages/login/login'));
  await page.evaluate(
    ({ token, userId }) => {
      localStorage.setItem('token', token);
      localStorage.setItem('userId', String(userId));
    },
    { token: body.data.token, userId: body.data.user_id },
  );
  await page.reload();
  return body.data.token;
}

async function publish(request: APIRequestContext, name: string): Promise<number> {
  const now = await serverNow(request);
  const res = await request.post('/api/console/products', {
    headers: await adminBearer(request),
    data: {
      issuer: 'E2E Asset Management',
      name,
      strategy: 'Toyota and Sony, 50/50, rebalanced at every close.',
      risk_disclosure: 'The NAV moves with the market; you may lose money.',
      constituents: [
        { code: '7203', weight_bp: 5000 },
        { code: '6758', weight_bp: 5000 },
      ],
      fund_cap: 100_000_000_00,
      deadline: tokyoDate(now, 60),
      min_investment: 10_000,
      management_rate_ppm: 1_000,
    },
  });
  const body = (await res.json()) as Envelope<{ id: number }>;
  expect(body.code, body.msg).toBe(1);
  return body.data.id;
}

for (const lang of ['jp', 'en'] as const) {
  const ja = lang === 'jp';
  test(`a product bought, followed and sold, and a dividend paid (${lang})`, async ({ page }) => {
    const request = page.request;
    const name = `E2E basket ${lang} ${Date.now()}`;
    const id = await publish(request, name);
    // Start on a weekday morning before the cutoff.
    const start = weekday(tokyoDate(await serverNow(request), 1));
    await advanceTo(request, `${start}T09:30:00`);
    await signIn(page, lang);

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
    const next = weekday(start, 1);
    await advanceTo(request, `${next}T15:40:00`);
    await signIn(page, lang);
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
    await page
      .getByRole('button', { name: ja ? '売却' : 'Sell' })
      .last()
      .click();
    await expect(record.getByTestId('record-status')).toHaveText(ja ? '解約手続き中' : 'Redeeming');
    const after = weekday(next, 1);
    await advanceTo(request, `${after}T15:40:00`);
    await signIn(page, lang);
    await page.goto(route(RECORDS));
    await expect(record.getByTestId('record-status')).toHaveText(ja ? 'フォロー終了' : 'Follow ended');

    // A dividend on the demo user's Toyota: cum date two business days ahead, paid the week after.
    const record_date = weekday(after, 7);
    const payment_date = weekday(record_date, 2);
    const announced = await request.post('/api/console/dividends', {
      headers: await adminBearer(request),
      data: { code: '7203', per_share: 1_250 + (ja ? 0 : 1), record_date, payment_date },
    });
    const body = (await announced.json()) as Envelope<{ id: number }>;
    expect(body.code, body.msg).toBe(1);
    await page.goto(route(DIVIDENDS));
    await expect(page.getByTestId('dividend-upcoming').first()).toBeVisible();
    await advanceTo(request, `${payment_date}T09:00:00`);
    await signIn(page, lang);
    await page.goto(route(DIVIDENDS));
    await expect(page.getByTestId('dividend-received').first()).toBeVisible();
    await expect(page.getByTestId('dividend-received').first()).toContainText(ja ? '所得税' : 'Income tax');
    await page.goto(route(LOG));
    await expect(
      page
        .getByTestId('movement-title')
        .filter({ hasText: ja ? '配当金' : 'Dividend' })
        .first(),
    ).toBeVisible();
  });
}
