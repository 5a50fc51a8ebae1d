// @vitest-environment happy-dom
import { sen, type TMarketStatus, type TQuote } from '@kabuto/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen } from '@testing-library/react';
import type { ComponentProps } from 'react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '@/shared/api/query-client';
import { i18n, initI18n } from '@/shared/i18n/i18n';
import { marketStatusKey } from '@/shared/market-clock/market-status';
import { sessionStore } from '@/shared/session/session';
import type * as SegmentedModule from '@/shared/ui/segmented';
import { taxAccountKeys } from '../tax-accounts-api';
import { OrderTicketForm } from './order-ticket-view';
import { brokerageOf, quoteOf, rules, stock } from './ticket-fixtures';
import { useOrderTicket, type TicketDialogs } from './use-order-ticket';

/**
 * Issue 21: a quote tick renders again only the order ticket's price cells. The kit's controls (the
 * segmented choices and the number fields) are counted through a wrapper of the real ones; the figures are
 * read from the page.
 */
const renders = { segmented: 0, stepper: 0 };
vi.mock('@/shared/ui/segmented', async (importOriginal) => {
  const real = await importOriginal<typeof SegmentedModule>();
  return {
    ...real,
    Segmented: <T extends string | number>(props: ComponentProps<typeof real.Segmented<T>>) => {
      renders.segmented += 1;
      return <real.Segmented {...props} />;
    },
    StepperField: (props: ComponentProps<typeof real.StepperField>) => {
      renders.stepper += 1;
      return <real.StepperField {...props} />;
    },
  };
});

/** The quote at `yen`, a tick either side, stamped now (so that no staleness note comes and goes). */
const quoteAt = (yen: number): TQuote =>
  quoteOf({
    last: sen(yen * 100),
    bid: sen(yen * 100 - 100),
    ask: sen(yen * 100 + 100),
    time: new Date().toISOString(),
  });
const status: TMarketStatus = {
  phase: 'morning',
  continuous: true,
  pts_open: false,
  always_open: true,
  simulated: true,
  trading_date: '2026-11-24',
  next_open: '2026-11-25T00:00:00.000Z',
  server_time: new Date().toISOString(),
  stale_after_ms: 60_000,
};
const brokerage = brokerageOf('specific');

const dialogs: TicketDialogs = {
  confirmOrder: () => Promise.resolve(false),
  confirm: () => Promise.resolve(false),
  alert: () => Promise.resolve(),
};

function Harness({ quote }: { quote: TQuote }) {
  const ticket = useOrderTicket({ stock, quote, rules, dialogs });
  return <OrderTicketForm ticket={ticket} variant="full" label="order" className="order-form" />;
}

beforeAll(async () => {
  sessionStore.setLang('en');
  await initI18n();
});

beforeEach(() => {
  queryClient.clear();
  queryClient.setQueryData(marketStatusKey(), status);
  vi.stubGlobal(
    'fetch',
    vi.fn(() =>
      Promise.resolve(
        new Response(JSON.stringify({ code: 1, msg: 'OK', data: null }), {
          headers: { 'content-type': 'application/json' },
        }),
      ),
    ),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The form at ¥3,000, and a tick to another price (the quote streamed in, as the stock page passes it). */
function renderForm() {
  const at = (yen: number) => (
    <QueryClientProvider client={queryClient}>
      <I18nextProvider i18n={i18n}>
        <Harness quote={quoteAt(yen)} />
      </I18nextProvider>
    </QueryClientProvider>
  );
  const { rerender } = render(at(3000));
  return (yen: number) => {
    rerender(at(yen));
  };
}

const textOf = (testId: string) => screen.getByTestId(testId).textContent;

describe('order ticket: a quote tick renders only the price cells', () => {
  it('a market order: five ticks change the estimate and render no control again', () => {
    const tick = renderForm();
    const before = { ...renders };
    expect(before.segmented).toBeGreaterThan(0);
    const totals = [textOf('fig-total')];
    for (const yen of [3010, 3020, 3030, 3040, 3050]) {
      tick(yen);
      totals.push(textOf('fig-total'));
    }
    // the estimate followed the ask (last + ¥1) on each tick: 100 shares × ¥3,011 … ¥3,051
    expect(totals.slice(1)).toEqual(['¥301,100', '¥302,100', '¥303,100', '¥304,100', '¥305,100']);
    expect(renders).toEqual(before);
  });

  it('a limit order with an account choice: ticks render no control again; a choice renders its own', async () => {
    queryClient.setQueryData(taxAccountKeys.brokerage(null), brokerage);
    const tick = renderForm();
    act(() => {
      screen.getByRole('radio', { name: 'Limit' }).click();
    });
    await screen.findByTestId('order-price');
    const before = { ...renders };
    for (const yen of [3010, 3020, 3030]) {
      tick(yen);
    }
    expect(renders).toEqual(before);
    // a user's choice does render the controls again: the counter can see a render
    act(() => {
      screen.getByRole('radio', { name: 'Margin' }).click();
    });
    expect(renders.segmented).toBeGreaterThan(before.segmented);
  });
});
