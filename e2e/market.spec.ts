import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { route, useLanguage } from './support/app.js';
import { businessDay } from './support/calendar.js';
import { advance, serverNow } from './support/ipo.js';

/**
 * The market screens against the built server (MARKET_CLOCK=always-open, DEMO_MODE=true): indices and
 * the simulated label, search by kana and by code with history, the stock detail with every chart period,
 * the watchlist, and a price that moves without reloading.
 */
const DEMO_PHONE = '09000000001';
const DEMO_PASSWORD = 'demo1234';

/**
 * Moves the server's clock on, if need be, to 10:00 in Tokyo on a business day followed by another one. Flows
 * run earlier on the same server move its clock across days (dividends, IPOs, loans); the always-open clock
 * stretches a session up to the next business day, so a Friday's or a holiday eve's runs several times slower
 * and the live-price check below has fewer moves to see. (Its two CI failures had another cause: both e2e
 * servers shared one Redis prefix, ADR 0045's amendment.)
 */
async function onOrdinaryDay(request: APIRequestContext): Promise<void> {
  const now = await serverNow(request);
  const today = new Date(now.getTime() + 9 * 3_600_000).toISOString().slice(0, 10);
  const nextDay = (date: string) =>
    new Date(new Date(`${date}T00:00:00Z`).getTime() + 86_400_000).toISOString().slice(0, 10);
  let day = businessDay(today);
  while (businessDay(day, 1) !== nextDay(day)) day = businessDay(day, 1);
  if (day === today) return;
  await advance(request, new Date(`${day}T10:00:00+09:00`).getTime() - now.getTime());
}

async function loginAsDemo(page: Page) {
  await page.goto(route('/subPackages/login/login'));
  await page.getByLabel('Mobile number').fill(DEMO_PHONE);
  await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/#\/pages\/index\/index/);
}

function barsResponse(page: Page, period: string) {
  return page.waitForResponse((response) => {
    const url = new URL(response.url());
    return url.pathname === '/api/market/bars' && url.searchParams.get('period') === period;
  });
}

async function expectChart(page: Page, period: string) {
  await expect(
    page.locator(`[data-testid="stock-chart"][data-period="${period}"] canvas`).first(),
  ).toBeAttached();
}

const MAIN_TABS: [string, string][] = [
  ['Daily', '1d'],
  ['7 min', '7m'],
  ['30 min', '30m'],
];
const MORE_CHOICES: [string, string][] = [
  ['1 min', '1m'],
  ['5 min', '5m'],
  ['15 min', '15m'],
  ['30 min', '30m'],
  ['45 min', '45m'],
  ['Day', '1d'],
  ['Week', '1w'],
  ['Month', '1mo'],
];

test('market tab, search, stock detail with every chart period, watchlist and live prices', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await onOrdinaryDay(page.request);
  await useLanguage(page, 'en');
  await loginAsDemo(page);

  // The market tab: both indices and the simulated label (with the always-open clock).
  await page.getByRole('navigation', { name: 'Main menu' }).getByText('Market').click();
  await expect(page).toHaveURL(/#\/pages\/market\/market/);
  const indices = page.getByRole('region', { name: 'Market indices' });
  await expect(indices.getByRole('article', { name: 'Nikkei 225' })).toBeVisible();
  await expect(indices.getByRole('article', { name: 'TOPIX' })).toBeVisible();
  await expect(indices.getByTestId('index-level').first()).toHaveText(/\d/);
  const badge = page.getByTestId('simulated-badge').first();
  await expect(badge).toContainText('Simulated prices');
  await expect(badge).toContainText('Always-open demo clock');
  await expect(page.getByTestId('list-gainers').getByTestId('stock-row').first()).toBeVisible();

  // Search by reading (kana) and by code.
  await page.getByRole('link', { name: 'Search by code or name' }).click();
  await expect(page).toHaveURL(/#\/subPackages\/search\/search/);
  const input = page.getByRole('searchbox', { name: 'Search for a stock' });
  await expect(input).toBeFocused();
  await input.fill('とよた');
  const toyota = page.getByTestId('search-result').filter({ hasText: '7203' });
  await expect(toyota).toContainText('トヨタ自動車');
  const savedKana = page.waitForResponse((r) => r.url().includes('/api/search/addHistory'));
  await input.press('Enter');
  expect((await savedKana).status()).toBe(200);

  await input.fill('6758');
  const sony = page.getByTestId('search-result').filter({ hasText: '6758' });
  await expect(sony).toContainText(/sony|ソニー/i);
  const savedCode = page.waitForResponse((r) => r.url().includes('/api/search/addHistory'));
  const intraday = barsResponse(page, 'intraday');
  await sony.click();
  expect((await savedCode).status()).toBe(200);

  // The stock detail: the price, the label, and the chart for every period.
  await expect(page).toHaveURL(/#\/subPackages\/index\/gupiaoDetail\/gupiaoDetail\?code=6758/);
  await expect(page.getByTestId('last-price')).toHaveText(/¥\s?[\d,]+/);
  await expect(page.getByTestId('simulated-badge').first()).toBeVisible();
  // Sony is a Nikkei 225 member: its simulated prices walk from its real close (ADR 0012).
  await expect(page.getByTestId('price-basis')).toHaveText(/real closing price/);
  expect((await intraday).status()).toBe(200);
  await expectChart(page, 'intraday');

  const periods = page.getByRole('tablist', { name: 'Chart period' });
  for (const [label, period] of MAIN_TABS) {
    const response = barsResponse(page, period);
    await periods.getByRole('tab', { name: label, exact: true }).click();
    expect((await response).status(), period).toBe(200);
    await expect(periods.getByRole('tab', { name: label, exact: true })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await expectChart(page, period);
  }
  await page.getByRole('button', { name: /More/ }).click();
  const more = page.getByRole('tablist', { name: 'More periods' });
  for (const [label, period] of MORE_CHOICES) {
    const response = barsResponse(page, period);
    await more.getByRole('tab', { name: label, exact: true }).click();
    expect((await response).status(), period).toBe(200);
    await expect(more.getByRole('tab', { name: label, exact: true })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await expectChart(page, period);
  }
  const backToIntraday = barsResponse(page, 'intraday');
  await periods.getByRole('tab', { name: 'Intraday', exact: true }).click();
  expect((await backToIntraday).status()).toBe(200);
  await expectChart(page, 'intraday');

  // Add it to the watchlist.
  const star = page.getByTestId('watch-star');
  if ((await star.getAttribute('aria-pressed')) === 'true') {
    await star.click();
    await expect(star).toHaveAttribute('aria-pressed', 'false');
  }
  await expect(star).toHaveAccessibleName('Add to watchlist');
  await star.click();
  await expect(star).toHaveAttribute('aria-pressed', 'true');
  await expect(star).toHaveAccessibleName('Remove from watchlist');

  // It is in the market tab's watchlist segment.
  await page.goto(route('/pages/market/market'));
  await page.getByRole('tablist', { name: 'Market lists' }).getByRole('tab', { name: 'Watchlist' }).click();
  const watched = page.getByTestId('list-watchlist').getByRole('link', { name: /6758/ });
  await expect(watched).toBeVisible();
  await expect(watched).toContainText(/sony|ソニー/i);

  // The detail page follows the stream: the quote changes without a reload.
  await watched.click();
  await expect(page).toHaveURL(/code=6758/);
  await page.evaluate(() => {
    (window as unknown as { __kabutoNoReload?: boolean }).__kabutoNoReload = true;
  });
  const lastPrice = page.getByTestId('last-price');
  const volume = page.getByTestId('figure-volume');
  await expect(lastPrice).toHaveText(/\d/);
  const before = `${await lastPrice.innerText()}|${await volume.innerText()}`;
  // Earlier flows move the server's clock (days, past closes); always-open stretches a session up to the next
  // business day, so a holiday can slow the virtual market to a crawl: each poll moves the clock 90 s on (at
  // most 15 polls: 22.5 min, inside the 30-minute idle limit of the session the next steps use).
  await expect
    .poll(
      async () => {
        expect((await page.request.post('/api/clock/advance', { data: { ms: 90_000 } })).ok()).toBe(true);
        return `${await lastPrice.innerText()}|${await volume.innerText()}`;
      },
      { timeout: 30_000, intervals: [2_000] },
    )
    .not.toBe(before);
  expect(
    await page.evaluate(() => (window as unknown as { __kabutoNoReload?: boolean }).__kabutoNoReload),
  ).toBe(true);

  // Search history: both queries are there, and "clear" empties it after confirming.
  await page.goto(route('/subPackages/search/search'));
  const history = page.getByTestId('search-history');
  await expect(history.getByRole('button', { name: 'とよた', exact: true })).toBeVisible();
  await expect(history.getByRole('button', { name: '6758', exact: true })).toBeVisible();
  await history.getByRole('button', { name: 'とよた', exact: true }).click();
  await expect(page.getByRole('searchbox', { name: 'Search for a stock' })).toHaveValue('とよた');
  await page.getByRole('searchbox', { name: 'Search for a stock' }).fill('');
  await page.getByRole('button', { name: 'Clear history' }).click();
  const cleared = page.waitForResponse((r) => r.url().includes('/api/search/clearHistory'));
  await page.getByRole('dialog').getByRole('button', { name: 'OK' }).click();
  expect((await cleared).status()).toBe(200);
  await expect(page.getByTestId('history-empty')).toBeVisible();
  await expect(page.getByTestId('search-history')).toHaveCount(0);
});

test('logged out: the watchlist segment asks to log in and the star prompts login', async ({ page }) => {
  await useLanguage(page, 'en');
  await page.goto(route('/pages/market/market'));
  await page.getByRole('tablist', { name: 'Market lists' }).getByRole('tab', { name: 'Watchlist' }).click();
  await expect(page.getByText('Log in to see your watchlist.')).toBeVisible();
  await page.getByRole('tablist', { name: 'Market lists' }).getByRole('tab', { name: 'Turnover' }).click();
  const firstRow = page.getByTestId('list-turnover').getByTestId('stock-row').first();
  await firstRow.getByRole('button', { name: 'Add to watchlist' }).click();
  await expect(page.getByText('Log in to keep a watchlist.')).toBeVisible();
});

test('the segment row shows that it scrolls sideways, and brings a tab opened by link into view', async ({
  page,
}) => {
  await useLanguage(page, 'fr');
  await page.goto(route('/pages/market/market'));
  const track = page.getByRole('tablist');
  const row = page.locator('.scroll-row').filter({ has: track });
  const overflow = await track.evaluate((el) => el.scrollWidth - el.clientWidth);
  expect(overflow, 'the French tabs are wider than 390 px').toBeGreaterThan(0);
  await expect(row).toHaveAttribute('data-more-end', 'true');
  await expect(row).not.toHaveAttribute('data-more-start');
  await track.evaluate((el) => {
    el.scrollLeft = el.scrollWidth;
  });
  await expect(row).toHaveAttribute('data-more-start', 'true');
  await expect(row).not.toHaveAttribute('data-more-end');
  // the last tab, opened from a link, is scrolled into view
  await page.goto(route('/pages/market/market?tab=sectors'));
  const sectors = page.getByRole('tab', { selected: true });
  await expect(sectors).toBeInViewport({ ratio: 1 });
  await expect(row).toHaveAttribute('data-more-start', 'true');
});

/**
 * The boot script sends the reads a page's largest paint waits for before the page's code has arrived
 * (app/first-reads.ts, ADR 0058), and the page's queries take those answers instead of asking again. Each read is
 * sent once, before the page's own chunk is asked for; signed in, with the session's token.
 */
test("the first page's data is asked for once, before the page's code, signed out and in", async ({
  page,
}) => {
  await useLanguage(page, 'en');
  const seen: { url: string; token: string | undefined }[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/') || url.pathname.includes('/assets/')) {
      seen.push({ url: `${url.pathname}${url.search}`, token: request.headers()['token'] });
    }
  });
  const check = async (path: string, pageChunk: RegExp, reads: string[], token?: string) => {
    // from another document: a change of the hash alone would not load the app again
    await page.goto('about:blank');
    seen.length = 0;
    await page.goto(route(path));
    await page.waitForLoadState('networkidle');
    const chunkAt = seen.findIndex((r) => pageChunk.test(r.url));
    expect(chunkAt, `${path}: its chunk was loaded`).toBeGreaterThan(-1);
    for (const read of reads) {
      const sent = seen.filter((r) => r.url === read);
      expect(sent, `${read} sent once`).toHaveLength(1);
      const [only] = sent;
      expect(only && seen.indexOf(only), `${read} before the page's code`).toBeLessThan(chunkAt);
      expect(only?.token).toBe(token);
    }
  };

  await check('/pages/market/market?tab=losers', /market-page-/, [
    '/api/market/status?lang=en',
    '/api/market/indices?lang=en',
    '/api/market/list?sort=losers&limit=50&offset=0&lang=en',
  ]);
  await expect(page.getByTestId('list-losers').getByTestId('stock-row').first()).toBeVisible();
  await check('/subPackages/index/gupiaoDetail/gupiaoDetail?code=7203&period=1d', /stock-detail-page-/, [
    '/api/market/stock?code=7203&lang=en',
    '/api/market/bars?code=7203&period=1d&limit=300&lang=en',
  ]);
  await check('/pages/index/index', /home-page-/, [
    '/api/banners?lang=en',
    '/api/market/list?sort=turnover&limit=10&offset=0&lang=en',
  ]);
  await expect(page.getByTestId('home-banner').first()).toBeVisible();

  await loginAsDemo(page);
  const token = await page.evaluate(() => localStorage.getItem('token'));
  expect(token).toBeTruthy();
  await check(
    '/pages/market/market',
    /market-page-/,
    ['/api/market/list?sort=gainers&limit=50&offset=0&lang=en'],
    token ?? undefined,
  );
  await expect(page.getByTestId('list-gainers').getByTestId('stock-row').first()).toBeVisible();
});
