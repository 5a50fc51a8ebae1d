// @vitest-environment happy-dom
import { sen, type TProduct } from '@kabuto/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from 'antd';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '@/shared/i18n';
import { sessionStore } from '@/shared/session';
import { VersionModal } from './products-page';

/**
 * A new version of a product's portfolio and fee through the real component, API client and catalogues,
 * with only `fetch` replaced: the current version's weights prefilled, the holders' notice shown before
 * sending, weights that no longer sum to 100% and a missing reason refused without a request.
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

const product: TProduct = {
  id: 3,
  version: 1,
  issuer: 'Kabuto AM',
  name: 'Core two',
  strategy: 'Two stocks',
  risk_disclosure: 'You may lose money',
  constituents: [
    { code: '7203', weight_bp: 5000, name: 'TOYOTA MOTOR' },
    { code: '6758', weight_bp: 5000, name: 'SONY GROUP' },
  ],
  management_rate_ppm: 1000,
  fund_cap: sen(10_000_000_000),
  fund_size: sen(0),
  deadline: '2027-03-31',
  min_investment: sen(10_000),
  nav: sen(1_000_000),
  nav_date: '2026-11-25',
  status: 'open',
  risk_acknowledged: false,
};

describe('a new version of a product', { timeout: 90_000 }, () => {
  it('starts from the current weights, tells that holders will be notified, and sends only a valid portfolio with a reason', async () => {
    const sent: { path: string; body: unknown }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>((input, init) => {
        const url = new URL(
          typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
          'http://console.test',
        );
        sent.push({
          path: url.pathname,
          body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : null,
        });
        return Promise.resolve(
          new Response(JSON.stringify({ code: 1, msg: 'OK', data: { version: 2 } }), {
            status: 200,
            headers: { 'content-type': 'application/json' },
          }),
        );
      }),
    );
    const onClose = vi.fn<() => void>();
    const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <App>
          <VersionModal product={product} onClose={onClose} />
        </App>
      </QueryClientProvider>,
    );
    const user = userEvent.setup();
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/Every holder is sent a message/)).toBeTruthy();
    const total = within(dialog).getByTestId('weights-total');
    expect(total.textContent).toBe('Total: 100% (must be 100%)');
    expect(within(dialog).getByText('7203 TOYOTA MOTOR')).toBeTruthy();

    const first = within(dialog).getByRole('textbox', { name: 'Weight 1' });
    await user.clear(first);
    await user.type(first, '60');
    expect(total.textContent).toBe('Total: 110% (must be 100%)');
    await user.click(within(dialog).getByTestId('product-version-save'));
    expect(await within(dialog).findByText('The weights must sum to exactly 100%')).toBeTruthy();
    expect(await within(dialog).findByText('This field is required')).toBeTruthy();
    expect(sent).toHaveLength(0);

    const second = within(dialog).getByRole('textbox', { name: 'Weight 2' });
    await user.clear(second);
    await user.type(second, '40');
    await user.click(within(dialog).getByLabelText('Reason (holders read it)'));
    await user.paste('Sony trimmed after the review');
    await user.click(within(dialog).getByTestId('product-version-save'));
    await waitFor(() => {
      expect(onClose).toHaveBeenCalled();
    });
    expect(sent).toEqual([
      {
        path: '/api/console/products/3/versions',
        body: {
          constituents: [
            { code: '7203', weight_bp: 6000 },
            { code: '6758', weight_bp: 4000 },
          ],
          management_rate_ppm: 1000,
          reason: 'Sony trimmed after the review',
        },
      },
    ]);
  });
});
