// @vitest-environment happy-dom
import { sen, type TQuote, type TStockRow } from '@kabuto/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { Profiler } from 'react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '@/shared/api/query-client';
import { i18n, initI18n } from '@/shared/i18n/i18n';
import { sessionStore } from '@/shared/session/session';
import { FIRST_ROWS, StockList } from './stock-list';

/** A quote of `code` at ¥1,000, stamped now (so that no staleness note comes and goes). */
function quoteOf(code: string): TQuote {
  return {
    code,
    last: sen(100_000),
    bid: sen(99_900),
    ask: sen(100_100),
    open: sen(100_000),
    high: sen(100_000),
    low: sen(100_000),
    prev_close: sen(100_000),
    volume: 1_000,
    turnover: sen(100_000_000),
    change: sen(0),
    change_bp: 0,
    limit_up: sen(130_000),
    limit_down: sen(70_000),
    trading_date: '2026-11-24',
    time: new Date().toISOString(),
    simulated: true,
  };
}

/** `n` stocks, codes 1001, 1002, …, quoted now. */
function rowsOf(n: number): TStockRow[] {
  return Array.from({ length: n }, (_, i) => {
    const code = String(1001 + i);
    return {
      code,
      name: `Stock ${code}`,
      name_ja: `銘柄${code}`,
      name_en: `Stock ${code}`,
      sector: 'Transportation Equipment',
      market: 'Prime',
      topix500: false,
      nikkei225: false,
      tradable: true,
      price_decimals: 0,
      watched: false,
      quote: quoteOf(code),
    };
  });
}

beforeAll(async () => {
  sessionStore.setLang('en');
  await initI18n();
});

beforeEach(() => {
  // the rows' quotes stream over the realtime client; no server answers here
  vi.stubGlobal(
    'fetch',
    vi.fn(() => Promise.resolve(new Response(JSON.stringify({ code: 1, msg: 'OK', data: null })))),
  );
});

afterEach(() => {
  cleanup();
  queryClient.clear();
  vi.unstubAllGlobals();
});

/** Renders the list and gives back how many rows the document held after each of React's commits. */
function renderList(rows: TStockRow[]): number[] {
  const commits: number[] = [];
  render(
    <QueryClientProvider client={queryClient}>
      <I18nextProvider i18n={i18n}>
        <Profiler
          id="list"
          onRender={() => commits.push(document.querySelectorAll('[data-testid="stock-row"]').length)}
        >
          <StockList rows={rows} label="stocks" testId="list" />
        </Profiler>
      </I18nextProvider>
    </QueryClientProvider>,
  );
  return commits;
}

describe('StockList: a screenful first, the rest in a background render (issue 21)', () => {
  it('draws the first rows at once and every row once React has time', async () => {
    const commits = renderList(rowsOf(50));
    // the first commit holds a screenful only
    expect(commits[0]).toBe(FIRST_ROWS);
    await waitFor(() => {
      expect(screen.getAllByTestId('stock-row')).toHaveLength(50);
    });
    const codes = screen.getAllByTestId('stock-row').map((row) => row.dataset['code']);
    expect(codes).toEqual(rowsOf(50).map((row) => row.code));
  });

  it('draws a short list whole in the first render', () => {
    const commits = renderList(rowsOf(FIRST_ROWS - 3));
    expect(commits[0]).toBe(FIRST_ROWS - 3);
    expect(screen.getAllByTestId('stock-row')).toHaveLength(FIRST_ROWS - 3);
  });
});
