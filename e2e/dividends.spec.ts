import { expect, test, type APIRequestContext } from '@playwright/test';
import { AxeBuilder } from '@axe-core/playwright';
import { route, signInDemo, type Envelope } from './support/app.js';
import { businessDay } from './support/calendar.js';
import { announceDividend, asAdministrator } from './support/console-products.js';

/**
 * Dividends end to end (issue 17, ADR 0027), in Japanese and in English at 390×844, against the built server
 * in demo mode with the clock under the test's control (CLOCK_CONTROL). The demo user buys 100 shares of a
 * stock in its 特定口座 (through the API: the order ticket is another spec's subject); an administrator
 * announces a dividend of ¥12.50 a share on the console's dividends page, which reports the cum and ex dates
 * the server computed; the dividend screen shows it as upcoming with the countdown to the cum date. The clock
 * then moves to the payment date (the payment job runs in that pass): the dividend history shows the
 * credit, hand-computed: gross 100 × ¥12.50 = ¥1,250, income tax floor(1,250 × 15.315%) = ¥191, local tax
 * floor(1,250 × 5%) = ¥62, net ¥997; and the transaction log shows the same credit.
 */
const DIVIDENDS = '/subPackages/index/hongli/hongli';
const LOG = '/subPackages/transactionLog/transactionLog';

async function serverNow(request: APIRequestContext): Promise<Date> {
  const res = await request.post('/api/clock/advance', { data: { ms: 0 } });
  return new Date(((await res.json()) as Envelope<{ now: string }>).data.now);
}

/** Moves the server's clock forward to a Tokyo wall-clock time (no-op if already past). */
async function advanceTo(request: APIRequestContext, tokyo: string): Promise<void> {
  const ms = Math.max(0, new Date(`${tokyo}+09:00`).getTime() - (await serverNow(request)).getTime());
  const res = await request.post('/api/clock/advance', { data: { ms } });
  expect(((await res.json()) as Envelope<unknown>).code).toBe(1);
}

/** The Tokyo date of an instant plus whole days (YYYY-MM-DD). */
function tokyoDate(at: Date, plusDays = 0): string {
  return new Date(at.getTime() + 9 * 3_600_000 + plusDays * 86_400_000).toISOString().slice(0, 10);
}

/** A cash purchase of 100 shares at market in the 特定口座. */
async function buy(request: APIRequestContext, token: string, code: string): Promise<void> {
  const res = await request.post('/api/trade/placeOrder', {
    headers: { token, 'idempotency-key': crypto.randomUUID() },
    data: {
      code,
      direction: 'long',
      price_type: 'market',
      quantity: 100,
      leverage: 1,
      account: 'specific',
    },
  });
  const body = (await res.json()) as Envelope<{ status: string }>;
  expect(body.code, body.msg).toBe(1);
  expect(body.data.status).toBe('filled');
}

const cases = [
  {
    lang: 'jp',
    code: '9432',
    countdown: /^権利付最終日まであと(\d+)営業日$/,
    cumDate: '権利付最終日',
    dates: (iso: string) => {
      const [y, m, d] = iso.split('-').map(Number);
      return `${String(y)}年${String(m)}月${String(d)}日`;
    },
    gross: '税引前',
    national: '所得税',
    local: '住民税',
    net: '税引後',
    dividend: '配当金',
  },
  {
    lang: 'en',
    code: '9433',
    countdown: /^(\d+) business days? left to buy with the right$/,
    cumDate: 'Cum date (last day with right)',
    dates: (iso: string) =>
      new Intl.DateTimeFormat('en', { dateStyle: 'long', timeZone: 'UTC' }).format(
        new Date(`${iso}T00:00:00Z`),
      ),
    gross: 'Gross',
    national: 'Income tax',
    local: 'Local tax',
    net: 'Net',
    dividend: 'Dividend',
  },
] as const;

test.describe.configure({ timeout: 240_000 });

for (const x of cases) {
  test(`a dividend announced in the console, counted down and paid (${x.lang})`, async ({
    page,
    browser,
  }) => {
    const request = page.request;
    // A weekday morning: the purchase fills that day, well before the cum date.
    const start = businessDay(tokyoDate(await serverNow(request), 1));
    await advanceTo(request, `${start}T09:30:00`);
    const token = await signInDemo(page, x.lang);
    await buy(request, token, x.code);

    // About a week ahead: the cum date is two business days before the record date.
    const recordDate = businessDay(start, 7);
    const paymentDate = businessDay(recordDate, 3);
    const { cumDate } = await asAdministrator(browser, (op) =>
      announceDividend(op, { code: x.code, perShare: '12.50', recordDate, paymentDate }),
    );
    expect(cumDate > start && cumDate < recordDate, `${start} < ${cumDate} < ${recordDate}`).toBe(true);

    await page.goto(route(DIVIDENDS));
    const upcoming = page.getByTestId('dividend-upcoming').filter({ hasText: x.code });
    await expect(upcoming).toHaveCount(1);
    const countdown = upcoming.locator('.dividends-countdown');
    await expect(countdown).toHaveText(x.countdown);
    const days = Number(x.countdown.exec(await countdown.innerText())?.[1]);
    expect(days).toBeGreaterThanOrEqual(1);
    await expect(
      upcoming.getByText(x.cumDate, { exact: true }).locator('xpath=following-sibling::dd'),
    ).toHaveText(x.dates(cumDate));
    const axe = await new AxeBuilder({ page }).analyze();
    expect(axe.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious')).toEqual([]);

    // The payment date's pass pays the announcement: 100 × ¥12.50, 15.315% and 5% withheld, floored to the yen.
    await advanceTo(request, `${paymentDate}T09:00:00`);
    await signInDemo(page, x.lang);
    await page.goto(route(DIVIDENDS));
    const received = page.getByTestId('dividend-received').filter({ hasText: x.code });
    await expect(received).toHaveCount(1);
    const value = (label: string) =>
      received.getByText(label, { exact: true }).locator('xpath=following-sibling::dd');
    await expect(value(x.gross)).toHaveText(/^[¥￥]1,250$/);
    await expect(value(x.national)).toHaveText(/^[¥￥]191$/);
    await expect(value(x.local)).toHaveText(/^[¥￥]62$/);
    await expect(value(x.net)).toHaveText(/^\+[¥￥]997$/);
    await expect(upcoming).toHaveCount(0);

    await page.goto(route(LOG));
    const credit = page.locator('[data-testid="movement"][data-kind="dividend"]').filter({ hasText: x.code });
    await expect(credit.first()).toBeVisible();
    await expect(credit.first().getByTestId('movement-title')).toHaveText(x.dividend);
    await expect(credit.first().getByTestId('movement-cash')).toHaveText(/\+[¥￥]997$/);
  });
}
