// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { App } from 'antd';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '@/shared/i18n';
import { sessionStore } from '@/shared/session';
import { PublishForm } from './products-page';

/**
 * The product publish form through the real component, API client, stock search and catalogues, with only
 * `fetch` replaced: the running total of the weights, the refusal of a portfolio that does not sum to 100%
 * (nothing is sent), the request that goes out once it does, and the server's refusal shown on the form.
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

interface Sent {
  url: URL;
  method: string;
  body: unknown;
}

const instrument = (code: string, name: string) => ({
  code,
  name,
  name_ja: name,
  name_en: name,
  sector: 'Transportation Equipment',
  market: 'Prime',
  topix500: true,
  nikkei225: true,
  tradable: true,
  price_decimals: 0,
});

const UNIVERSE = [instrument('7203', 'TOYOTA MOTOR'), instrument('6758', 'SONY GROUP')];

/** Replaces fetch: the market search answers from UNIVERSE, a publish with `publish`; answers what was sent. */
function serve(publish: { status: number; payload: unknown }): Sent[] {
  const sent: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn<typeof fetch>((input, init) => {
      const url = new URL(
        typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
        'http://console.test',
      );
      const json = (status: number, payload: unknown) =>
        Promise.resolve(
          new Response(JSON.stringify(payload), { status, headers: { 'content-type': 'application/json' } }),
        );
      if (url.pathname === '/api/market/search') {
        const q = url.searchParams.get('q') ?? '';
        return json(200, { code: 1, msg: 'OK', data: UNIVERSE.filter((i) => i.code.startsWith(q)) });
      }
      sent.push({
        url,
        method: init?.method ?? 'GET',
        body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : null,
      });
      return json(publish.status, publish.payload);
    }),
  );
  return sent;
}

function renderForm() {
  const client = new QueryClient({
    defaultOptions: { mutations: { retry: false }, queries: { retry: false } },
  });
  render(
    <QueryClientProvider client={client}>
      <App>
        <PublishForm />
      </App>
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

async function pickStock(user: UserEvent, label: string, code: string, name: string) {
  await user.type(screen.getByRole('combobox', { name: label }), code);
  await user.click(await screen.findByTitle(`${code} ${name}`));
}

/** Types into a field in one go (a paste), which is what an operator copying a text does anyway. */
async function fill(user: UserEvent, field: HTMLElement, text: string) {
  await user.click(field);
  await user.paste(text);
}

/** Fills every field but the weights, with Toyota and (when `two`) Sony as constituents. */
async function fillProduct(user: UserEvent, two: boolean) {
  await fill(user, screen.getByLabelText('Issuer (manager)'), 'Kabuto Asset Management');
  await fill(user, screen.getByLabelText('Product name'), 'Core two');
  await fill(user, screen.getByLabelText('Strategy'), 'Toyota and Sony, rebalanced at every close.');
  await pickStock(user, 'Stock 1', '7203', 'TOYOTA MOTOR');
  if (two) {
    await user.click(screen.getByRole('button', { name: /Add a stock/ }));
    await pickStock(user, 'Stock 2', '6758', 'SONY GROUP');
  }
  await fill(user, screen.getByLabelText('Fund size cap (yen)'), '100000000');
  await user.type(screen.getByLabelText('Application deadline'), '2027-03-31{Enter}');
  await fill(user, screen.getByLabelText('Minimum investment (yen)'), '10000');
  await fill(user, screen.getByLabelText('Annual management fee (%)'), '0.165');
  await fill(user, screen.getByLabelText('Risk disclosure'), 'The NAV moves with the market.');
}

const total = () => screen.getByTestId('weights-total').textContent;

// Each case drives a whole antd form through typed events: slow on a shared machine, hence the timeout.
describe('publishing a product in the console', { timeout: 90_000 }, () => {
  it('shows the running total, refuses weights that are not a sum of 100% with two decimals (sending nothing), then sends basis points and sen', async () => {
    const sent = serve({ status: 200, payload: { code: 1, msg: 'OK', data: null } });
    const user = renderForm();
    await fillProduct(user, true);
    const first = screen.getByRole('textbox', { name: 'Weight 1' });
    const second = screen.getByRole('textbox', { name: 'Weight 2' });
    await user.type(first, '66.67');
    expect(total()).toBe('Total: 66.67% (must be 100%)');
    await user.type(second, '33.32');
    expect(total()).toBe('Total: 99.99% (must be 100%)');

    await user.click(screen.getByTestId('product-publish'));
    expect(await screen.findByText('The weights must sum to exactly 100%')).toBeTruthy();
    expect(sent).toHaveLength(0);

    await user.clear(second);
    await user.type(second, '33.333');
    await user.click(screen.getByTestId('product-publish'));
    expect(
      await screen.findByText('Enter a weight in percent from 0.01 to 100, with at most two decimals'),
    ).toBeTruthy();
    expect(sent).toHaveLength(0);

    await user.clear(second);
    await user.type(second, '33.33');
    expect(total()).toBe('Total: 100% (must be 100%)');
    await user.click(screen.getByTestId('product-publish'));
    await waitFor(() => {
      expect(sent).toHaveLength(1);
    });
    expect(sent[0]?.method).toBe('POST');
    expect(sent[0]?.url.pathname).toBe('/api/console/products');
    expect(sent[0]?.body).toEqual({
      issuer: 'Kabuto Asset Management',
      name: 'Core two',
      strategy: 'Toyota and Sony, rebalanced at every close.',
      risk_disclosure: 'The NAV moves with the market.',
      constituents: [
        { code: '7203', weight_bp: 6667 },
        { code: '6758', weight_bp: 3333 },
      ],
      fund_cap: 10_000_000_000,
      deadline: '2027-03-31',
      min_investment: 1_000_000,
      management_rate_ppm: 1_650,
    });
  });

  it('shows the server’s refusal on the form', async () => {
    const refusal = 'The application deadline has already passed';
    serve({ status: 422, payload: { code: 1560, msg: refusal, data: null } });
    const user = renderForm();
    await fillProduct(user, false);
    await user.type(screen.getByRole('textbox', { name: 'Weight 1' }), '100');
    await user.click(screen.getByTestId('product-publish'));
    expect((await screen.findByRole('alert')).textContent).toContain(refusal);
  });
});
