// @vitest-environment happy-dom
import {
  sen,
  MESSAGES,
  type TMarketStatus,
  type TNisaQuota,
  type TOrder,
  type TQuote,
} from '@kabuto/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '@/shared/api/query-client';
import { i18n, initI18n } from '@/shared/i18n/i18n';
import { marketStatusKey } from '@/shared/market-clock/market-status';
import { sessionStore } from '@/shared/session/session';
import { showSuccess, showToast } from '@/shared/ui/overlays';
import { taxAccountKeys } from '../tax-accounts-api';
import { brokerageOf, quoteOf, rules, stock } from './ticket-fixtures';
import { useOrderTicket, type TicketDialogs } from './use-order-ticket';

// The toasts are antd-mobile's portals; the test reads what they were asked to say.
vi.mock('@/shared/ui/overlays', () => ({ showToast: vi.fn(), showSuccess: vi.fn() }));

/**
 * The order ticket's glue, through the real API client with fetch stubbed: which message a field shows,
 * the server's field issues put on the fields, and the retry after an unknown outcome with the same key.
 */
const en = MESSAGES.en;

const quote = quoteOf();
const status: TMarketStatus = {
  phase: 'closed',
  continuous: false,
  pts_open: false,
  always_open: false,
  simulated: true,
  trading_date: '2026-11-24',
  next_open: '2026-11-25T00:00:00.000Z',
  server_time: '2026-11-24T10:00:00.000Z',
  stale_after_ms: 5_000,
};
const placed: TOrder = {
  order_no: 'O-1',
  code: '7203',
  name: 'Toyota',
  kind: 'open',
  direction: 'long',
  side: 'buy',
  price_type: 'market',
  limit_price: null,
  quantity: 100,
  leverage: 1,
  day_trade: false,
  venue: 'exchange',
  account: 'specific',
  margin_type: 'cash',
  position_id: null,
  status: 'filled',
  fill_price: sen(300_500),
  principal: sen(30_050_000),
  fee: sen(0),
  total: sen(30_050_000),
  reserved: sen(0),
  reason: null,
  created_at: '2026-11-24T01:00:00.000Z',
  filled_at: '2026-11-24T01:00:00.000Z',
  cancelled_at: null,
  fills_from: null,
};

const envelope = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function dialogs(answers: { retry?: boolean } = {}) {
  return {
    confirmOrder: vi.fn<TicketDialogs['confirmOrder']>(() => Promise.resolve(true)),
    confirm: vi.fn<TicketDialogs['confirm']>(() => Promise.resolve(answers.retry ?? true)),
    alert: vi.fn<TicketDialogs['alert']>(() => Promise.resolve()),
  } satisfies TicketDialogs;
}

function renderTicket(given: TicketDialogs) {
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>
      <I18nextProvider i18n={i18n}>{children}</I18nextProvider>
    </QueryClientProvider>
  );
  return renderHook(
    (props: { quote: TQuote }) => useOrderTicket({ ...props, stock, rules, dialogs: given }),
    {
      wrapper,
      initialProps: { quote },
    },
  );
}

const fetchMock = vi.fn<typeof fetch>();
/** The Idempotency-Key of each order sent. */
const keysSent = () =>
  fetchMock.mock.calls
    .filter(([url]) => typeof url === 'string' && url.startsWith('/api/trade/placeOrder'))
    .map(([, init]) => (init?.headers as Record<string, string>)['idempotency-key']);

beforeAll(async () => {
  sessionStore.setLang('en');
  await initI18n();
});

beforeEach(() => {
  queryClient.clear();
  queryClient.setQueryData(marketStatusKey(), status);
  fetchMock.mockReset();
  vi.mocked(showToast).mockClear();
  vi.mocked(showSuccess).mockClear();
  // Anything but an order (the refresh of the trading queries after one) answers an empty success.
  fetchMock.mockImplementation(() => Promise.resolve(envelope(200, { code: 1, msg: 'OK', data: null })));
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('order ticket hook: validation precedence', () => {
  it('shows nothing for an untouched ticket, and a field’s own rule after a submit, without asking to confirm', async () => {
    const given = dialogs();
    const { result } = renderTicket(given);
    act(() => {
      result.current.choosePriceType('limit');
    });
    act(() => {
      result.current.changePriceText('');
      result.current.changeQuantityText('');
    });
    expect(result.current.shownPriceError).toBeNull();
    expect(result.current.shownQuantityError).toBeNull();
    await act(() => result.current.submit());
    expect(result.current.shownPriceError).toBe(en.validation.priceRequired);
    expect(result.current.shownQuantityError).toBe(en.validation.quantityRequired);
    expect(given.confirmOrder).not.toHaveBeenCalled();
    expect(keysSent()).toEqual([]);
  });

  it('shows a typed field’s error at once; a price off the tick grid comes before the daily limits', () => {
    const { result } = renderTicket(dialogs());
    act(() => {
      result.current.choosePriceType('limit');
    });
    act(() => {
      // ¥3,600.5 is both off the grid and above the ¥3,600 limit: the grid is named.
      result.current.changePriceText('3600.5');
      result.current.changeQuantityText('150');
    });
    expect(result.current.shownPriceError).toBe(
      i18n.t('errors.PRICE_OFF_TICK', { ns: 'contract', tick: '¥1' }),
    );
    expect(result.current.shownQuantityError).toBe(en.validation.quantityLot);
  });
});

describe('order ticket hook: server errors', () => {
  it('puts the envelope’s field issues on their fields, and a field’s edit clears them', async () => {
    const issues = [
      { field: 'quantity', rule: 'max', message: 'Too many shares for your balance' },
      { field: 'limit_price', rule: 'x', message: 'not a field of the ticket' },
    ];
    fetchMock.mockImplementationOnce(() =>
      Promise.resolve(envelope(400, { code: 400, msg: 'Check the fields', data: { issues } })),
    );
    const given = dialogs();
    const { result } = renderTicket(given);
    await act(() => result.current.submit());
    expect(given.confirmOrder).toHaveBeenCalledOnce();
    expect(result.current.shownQuantityError).toBe('Too many shares for your balance');
    expect(result.current.shownPriceError).toBeNull();
    expect(result.current.busy).toBe(false);
    act(() => {
      result.current.stepQuantity(1);
    });
    expect(result.current.shownQuantityError).toBeNull();
  });

  it('shows a client rule before the server’s issue of the same field', async () => {
    fetchMock.mockImplementationOnce(() =>
      Promise.resolve(
        envelope(400, {
          code: 400,
          msg: 'Check the fields',
          data: { issues: [{ field: 'price', rule: 'x', message: 'Server says no' }] },
        }),
      ),
    );
    const { result, rerender } = renderTicket(dialogs());
    act(() => {
      result.current.choosePriceType('limit');
    });
    await act(() => result.current.submit());
    expect(result.current.shownPriceError).toBe('Server says no');
    // A market order has no price to blame; the limit order shows the server's issue again.
    act(() => {
      result.current.choosePriceType('market');
    });
    expect(result.current.shownPriceError).toBeNull();
    act(() => {
      result.current.choosePriceType('limit');
    });
    expect(result.current.shownPriceError).toBe('Server says no');
    // The daily limits move below the typed ¥3,000 while the server's issue stands: the client rule wins.
    rerender({ quote: { ...quote, limit_up: sen(290_000) } });
    expect(result.current.shownPriceError).toBe(
      i18n.t('errors.PRICE_OUTSIDE_LIMITS', { ns: 'contract', lower: '¥2,400', upper: '¥2,900' }),
    );
  });
});

describe('order ticket hook: idempotent retry', () => {
  it('offers a retry after a network failure and sends it with the same key', async () => {
    fetchMock.mockImplementationOnce(() => Promise.reject(new TypeError('Failed to fetch')));
    fetchMock.mockImplementationOnce(() =>
      Promise.resolve(envelope(200, { code: 1, msg: 'OK', data: placed })),
    );
    const given = dialogs({ retry: true });
    const { result } = renderTicket(given);
    await act(() => result.current.submit());
    expect(given.confirm).toHaveBeenCalledOnce();
    expect(given.confirm.mock.calls[0]?.[0].content).toBe(i18n.t('trading.retryPrompt'));
    const keys = keysSent();
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(keys[1]);
    expect(result.current.busy).toBe(false);
    expect(vi.mocked(showToast).mock.calls[0]?.[0]).toMatch(/Failed to fetch/);
    expect(showSuccess).toHaveBeenCalledWith(i18n.t('trading.placedToast', { orderNo: 'O-1' }), 2000);
  });

  it('a new submit after the user gives up sends a new key; a refusal offers no retry', async () => {
    fetchMock.mockImplementationOnce(() => Promise.reject(new TypeError('Failed to fetch')));
    fetchMock.mockImplementationOnce(() =>
      Promise.resolve(envelope(409, { code: 2001, msg: 'Not enough cash', data: null })),
    );
    const given = dialogs({ retry: false });
    const { result } = renderTicket(given);
    await act(() => result.current.submit());
    await act(() => result.current.submit());
    const keys = keysSent();
    expect(keys).toHaveLength(2);
    expect(keys[0]).not.toBe(keys[1]);
    // Only the network failure asked; the server's refusal did not, and was shown as the server wrote it.
    expect(given.confirm).toHaveBeenCalledOnce();
    expect(showToast).toHaveBeenLastCalledWith('Not enough cash', 2000);
    expect(showSuccess).not.toHaveBeenCalled();
  });
});

describe('order ticket hook: the least risky start, margin fields and accounts (issue 23)', () => {
  const brokerage = brokerageOf('nisa');
  const quota: TNisaQuota = {
    year: 2026,
    annual_limit: sen(240_000_000),
    annual_used: sen(220_000_000),
    annual_remaining: sen(20_000_000),
    lifetime_limit: sen(1_800_000_000),
    growth_lifetime_limit: sen(1_200_000_000),
    lifetime_used: sen(220_000_000),
    lifetime_remaining: sen(1_580_000_000),
    returning_next_year: sen(0),
  };
  const bodySent = () => {
    const call = fetchMock.mock.calls.find(
      ([url]) => typeof url === 'string' && url.startsWith('/api/trade/placeOrder'),
    );
    const body = call?.[1]?.body;
    return JSON.parse(typeof body === 'string' ? body : 'null') as Record<string, unknown>;
  };
  const placedOnce = () =>
    fetchMock.mockImplementationOnce(() =>
      Promise.resolve(envelope(200, { code: 1, msg: 'OK', data: placed })),
    );

  it('starts as a cash buy of one lot, without an account when none is known', async () => {
    const { result } = renderTicket(dialogs());
    expect(result.current.kind).toBe('cash');
    expect(result.current.direction).toBe('long');
    expect(result.current.quantityText).toBe('100');
    expect(result.current.fields).toEqual(['kind', 'priceType', 'price', 'quantity']);
    placedOnce();
    await act(() => result.current.submit());
    expect(bodySent()).toEqual({
      code: '7203',
      direction: 'long',
      price_type: 'market',
      quantity: 100,
      leverage: 1,
      day_trade: false,
      margin_type: 'cash',
    });
  });

  it('offers the accounts held, defaults to the customer’s, shows the NISA quota left and warns above it', async () => {
    queryClient.setQueryData(taxAccountKeys.brokerage(null), brokerage);
    queryClient.setQueryData(taxAccountKeys.nisa(null), quota);
    const { result } = renderTicket(dialogs());
    expect(result.current.accounts).toEqual(['specific', 'nisa']);
    expect(result.current.account).toBe('nisa');
    expect(result.current.fields).toEqual(['kind', 'account', 'priceType', 'price', 'quantity']);
    expect(result.current.nisa?.annual_remaining).toBe(20_000_000);
    // 100 shares at the ask ¥3,005 is ¥300,500: more than the ¥200,000 left
    expect(result.current.nisaOver).toBe(true);
    act(() => {
      result.current.chooseAccount('specific');
    });
    expect(result.current.account).toBe('specific');
    expect(result.current.nisa).toBeNull();
    expect(result.current.nisaOver).toBe(false);
    placedOnce();
    await act(() => result.current.submit());
    expect(bodySent()).toMatchObject({ account: 'specific', margin_type: 'cash' });
  });

  it('a margin ticket: 制度信用, 信用新規買, 100% collateral first, its figures before the quantity, no NISA', async () => {
    queryClient.setQueryData(taxAccountKeys.brokerage(null), brokerage);
    const given = dialogs();
    const { result } = renderTicket(given);
    act(() => {
      result.current.chooseKind('margin');
    });
    expect(result.current.marginType).toBe('standard');
    expect(result.current.direction).toBe('long');
    expect(result.current.leverage).toBe(1);
    expect(result.current.accounts).toEqual(['specific']);
    expect(result.current.account).toBe('specific');
    expect(result.current.nisaHidden).toBe(true);
    const fields = result.current.fields;
    expect(fields).toEqual([
      'kind',
      'marginType',
      'side',
      'account',
      'collateralRate',
      'marginFigures',
      'priceType',
      'price',
      'quantity',
      'dayTrade',
    ]);
    // a 100% collateral rate holds the whole value: ¥300,500 for 100 shares at the ask
    expect(result.current.figures.collateral).toBe(30_050_000);
    expect(result.current.repayDeadline).toMatch(/6 months/);
    act(() => {
      result.current.setLeverage(3);
      result.current.setDirection('short');
      result.current.setMarginType('general');
    });
    expect(result.current.repayDeadline).toBe(i18n.t('ticket.repayGeneral'));
    placedOnce();
    await act(() => result.current.submit());
    expect(bodySent()).toEqual({
      code: '7203',
      direction: 'short',
      price_type: 'market',
      quantity: 100,
      leverage: 3,
      day_trade: false,
      margin_type: 'general',
      account: 'specific',
    });
    // the confirm dialog names the trade and says the amount of the position it opens
    const [rows, notice] = given.confirmOrder.mock.calls[0] ?? [];
    expect(rows).toContainEqual([i18n.t('trading.direction'), 'Short sell']);
    expect(rows).toContainEqual([i18n.t('ticket.collateralRate'), '33%']);
    expect(notice).toBe(i18n.t('ticket.marginConfirm', { amount: '¥299,900', collateral: '¥99,967' }));
    // back to cash: a buy at leverage 1 again, and NISA is offered again
    act(() => {
      result.current.chooseKind('cash');
    });
    expect(result.current.leverage).toBe(1);
    expect(result.current.direction).toBe('long');
    expect(result.current.accounts).toEqual(['specific', 'nisa']);
  });
});
