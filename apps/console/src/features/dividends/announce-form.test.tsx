// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from 'antd';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '@/shared/i18n';
import { sessionStore } from '@/shared/session';
import { AnnounceForm } from './dividends-page';

/**
 * The dividend announcement form through the real component, API client and catalogues, with only `fetch`
 * replaced: the dividend per share typed in yen goes out in sen, and the cum and ex dates come from the
 * server's answer, not from the browser.
 */
beforeAll(async () => {
  sessionStore.setLocale('en');
  sessionStore.signIn('operator-token');
  await initI18n();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const NTT = {
  code: '9432',
  name: 'NTT,Inc.',
  name_ja: 'ＮＴＴ',
  name_en: 'NTT,Inc.',
  sector: 'Information & Communication',
  market: 'Prime',
  topix500: true,
  nikkei225: true,
  tradable: true,
  price_decimals: 1,
};

describe('announcing a dividend in the console', { timeout: 90_000 }, () => {
  it('sends the dividend per share in sen and shows the cum and ex dates the server answers', async () => {
    const sent: { path: string; body: unknown }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>((input, init) => {
        const url = new URL(
          typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
          'http://console.test',
        );
        const json = (payload: unknown) =>
          Promise.resolve(
            new Response(JSON.stringify({ code: 1, msg: 'OK', data: payload }), {
              status: 200,
              headers: { 'content-type': 'application/json' },
            }),
          );
        if (url.pathname === '/api/market/search') return json([NTT]);
        sent.push({
          path: url.pathname,
          body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : null,
        });
        return json({
          id: 4,
          code: '9432',
          name: 'NTT,Inc.',
          per_share: 1250,
          record_date: '2026-12-10',
          // deliberately not what a browser-side rule would give: the form must show the server's dates
          cum_date: '2026-12-07',
          ex_date: '2026-12-08',
          payment_date: '2026-12-15',
          status: 'announced',
          source: null,
        });
      }),
    );
    const client = new QueryClient({
      defaultOptions: { mutations: { retry: false }, queries: { retry: false } },
    });
    render(
      <QueryClientProvider client={client}>
        <App>
          <AnnounceForm />
        </App>
      </QueryClientProvider>,
    );
    const user = userEvent.setup();
    await user.type(screen.getByRole('combobox', { name: 'Stock' }), '9432');
    await user.click(await screen.findByTitle('9432 NTT,Inc.'));
    await user.click(screen.getByLabelText('Dividend per share (yen)'));
    await user.paste('12.50');
    await user.type(screen.getByLabelText('Record date'), '2026-12-10{Enter}');
    await user.type(screen.getByLabelText('Payment date'), '2026-12-15{Enter}');
    await user.click(screen.getByTestId('dividend-publish'));

    await waitFor(() => {
      expect(sent).toHaveLength(1);
    });
    expect(sent[0]).toEqual({
      path: '/api/console/dividends',
      body: { code: '9432', per_share: 1250, record_date: '2026-12-10', payment_date: '2026-12-15' },
    });
    expect((await screen.findByTestId('dividend-announced')).textContent).toContain(
      'Announced: 9432 NTT,Inc., ¥12.50 per share. Cum date 2026-12-07, ex date 2026-12-08.',
    );
  });
});
