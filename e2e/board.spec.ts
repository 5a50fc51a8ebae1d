import { expect, test, type Page } from '@playwright/test';
import { route, useLanguage } from './support/app.js';

/**
 * The stock page's order book (板) and chart indicators against the built server (MARKET_CLOCK=always-open,
 * CLOCK_CONTROL=true): a live book of ten levels a side that changes without a reload, and MACD and RSI panes
 * toggled from the indicator menu, the choice surviving a reload. In Japanese and in English, at 390×844.
 */
const CASES = [
  {
    lang: 'jp',
    title: '板（気配）',
    askSize: '売気配株数',
    bidSize: '買気配株数',
    menu: '指標',
    macd: /MACD/,
    rsi: /RSI/,
  },
  {
    lang: 'en',
    title: 'Order book',
    askSize: 'Ask size',
    bidSize: 'Bid size',
    menu: 'Indicators',
    macd: /MACD/,
    rsi: /RSI/,
  },
] as const;

/** The book as shown: every row's size and price, OVER and UNDER included. */
const bookRows = (page: Page) => page.getByTestId('order-book').locator('tbody tr').allTextContents();

for (const c of CASES) {
  test(`the live order book and the indicator panes (${c.lang})`, async ({ page }) => {
    test.setTimeout(120_000);
    await useLanguage(page, c.lang);
    await page.goto(route('/subPackages/index/gupiaoDetail/gupiaoDetail?code=7203'));

    const book = page.getByRole('region', { name: c.title });
    await expect(book).toBeVisible();
    await expect(book.getByRole('columnheader', { name: c.askSize })).toBeVisible();
    await expect(book.getByRole('columnheader', { name: c.bidSize })).toBeVisible();
    await expect(book.getByTestId('board-ask')).toHaveCount(10);
    await expect(book.getByTestId('board-bid')).toHaveCount(10);
    await expect(book.getByTestId('board-over')).toContainText('OVER');
    await expect(book.getByTestId('board-under')).toContainText('UNDER');
    // the touch: the best ask is the last ask row, the best bid the first bid row, one tick apart or more
    await expect(book.locator('.order-book__row--touch')).toHaveCount(2);

    // live: the book changes without a reload. Always-open stretches a session up to the next business day (a
    // virtual second is about 4.4 real ones, 13 on a Friday), and a day that closes at its high can hold its
    // best quotes for a virtual half hour (7203 on 2026-11-27), so the check is the whole book, sizes included
    // (each level's queue is drawn afresh every 3 s): each poll moves the server's clock two minutes on
    // (POST /api/clock/advance) and waits for the pushed book, never reloading the page.
    const before = (await bookRows(page)).join('|');
    await expect
      .poll(
        async () => {
          expect((await page.request.post('/api/clock/advance', { data: { ms: 120_000 } })).ok()).toBe(true);
          return (await bookRows(page)).join('|');
        },
        { timeout: 60_000, intervals: [2_000] },
      )
      .not.toBe(before);

    // indicators: MACD and RSI each add a pane under the prices; the choice is remembered
    const chart = page.getByTestId('stock-chart');
    await expect(chart.locator('canvas').first()).toBeAttached();
    await expect(chart).toHaveAttribute('data-panes', '1');
    await page.getByRole('button', { name: c.menu }).click();
    await page.getByRole('checkbox', { name: c.macd }).check();
    await page.getByRole('checkbox', { name: c.rsi }).check();
    await expect(chart).toHaveAttribute('data-indicators', /macd rsi/);
    await expect(chart).toHaveAttribute('data-panes', '3');

    await page.reload();
    const again = page.getByTestId('stock-chart');
    await expect(again).toHaveAttribute('data-panes', '3');
    await expect(again).toHaveAttribute('data-indicators', /macd rsi/);
    await page.getByRole('button', { name: c.menu }).click();
    await expect(page.getByRole('checkbox', { name: c.macd })).toBeChecked();
    await page.getByRole('checkbox', { name: c.macd }).uncheck();
    await page.getByRole('checkbox', { name: c.rsi }).uncheck();
    await expect(again).toHaveAttribute('data-panes', '1');
  });
}
