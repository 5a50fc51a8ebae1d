// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from 'antd';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '@/shared/i18n';
import { sessionStore } from '@/shared/session';
import { ReviewActions, type Outcome } from './review-actions';

/**
 * One console review action through the real component, API client and catalogues, with only `fetch`
 * replaced: the buttons, the confirmation, the request that goes out, and a refusal shown in the dialog.
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
  authorization: string | null;
  body: unknown;
}

/** Replaces fetch with one answer; answers what was sent. */
function answer(status: number, payload: unknown): Sent[] {
  const sent: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn<typeof fetch>((input, init) => {
      const headers = new Headers(init?.headers);
      sent.push({
        url: new URL(
          typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
          'http://console.test',
        ),
        method: init?.method ?? 'GET',
        authorization: headers.get('authorization'),
        body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : null,
      });
      return Promise.resolve(
        new Response(JSON.stringify(payload), { status, headers: { 'content-type': 'application/json' } }),
      );
    }),
  );
  return sent;
}

function renderActions(secondOf: string | null = null) {
  const onDecided = vi.fn<(outcome: Outcome) => void>();
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <App>
        <ReviewActions
          kind="withdrawals"
          id={7}
          onDecided={onDecided}
          secondApproval={secondOf !== null}
          firstApprover={secondOf}
        />
      </App>
    </QueryClientProvider>,
  );
  return { onDecided, user: userEvent.setup() };
}

const operator = (username: string) => ({
  code: 1,
  msg: 'OK',
  data: {
    id: 3,
    username,
    display_name: username,
    role: 'administrator',
    must_change_password: false,
    active: true,
    locked_until: null,
    created_at: '2026-11-24T00:00:00Z',
  },
});

describe('the second approval of two', () => {
  it('is not offered to the operator who gave the first: they are told another operator must give it', async () => {
    answer(200, operator('alice'));
    renderActions('alice');
    expect(
      await screen.findByText('You gave the first approval: the second must come from another operator.'),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Reject' })).toBeTruthy();
  });

  it('is offered to any other operator', async () => {
    answer(200, operator('bob'));
    renderActions('alice');
    await waitFor(() => {
      expect(screen.getByRole('button', { name: 'Approve' })).toBeTruthy();
    });
    expect(screen.queryByText(/You gave the first approval/)).toBeNull();
  });
});

describe('a console review action', () => {
  it('approves after the confirmation: the request names the item, carries the token, and the outcome is reported', async () => {
    const sent = answer(200, { code: 1, msg: 'OK', data: { id: 7, status: 'approved' } });
    const { onDecided, user } = renderActions();

    await user.click(screen.getByRole('button', { name: 'Approve' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Approve this request?')).toBeTruthy();
    expect(sent).toHaveLength(0);

    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() => {
      expect(onDecided).toHaveBeenCalledWith('approved');
    });
    expect(sent).toHaveLength(1);
    expect(sent[0]?.method).toBe('POST');
    expect(sent[0]?.url.pathname).toBe('/api/console/withdrawals/7/approve');
    expect(sent[0]?.url.searchParams.get('lang')).toBe('en');
    expect(sent[0]?.authorization).toBe('Bearer operator-token');
    expect(sent[0]?.body).toEqual({});
  });

  it('rejects only with a reason, and shows the server’s refusal in the dialog', async () => {
    const refusal = 'This request has already been reviewed.';
    const sent = answer(409, { code: 1341, msg: refusal, data: null });
    const { onDecided, user } = renderActions();

    await user.click(screen.getByRole('button', { name: 'Reject' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    // No reason: the form says so and nothing is sent.
    await waitFor(() => {
      expect(within(dialog).getByRole('textbox', { name: 'Reason' }).getAttribute('aria-invalid')).toBe(
        'true',
      );
    });
    expect(sent).toHaveLength(0);

    await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Name differs');
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain(refusal);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.url.pathname).toBe('/api/console/withdrawals/7/reject');
    expect(sent[0]?.body).toEqual({ reason: 'Name differs' });
    expect(onDecided).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog')).toBe(dialog);
  });
});
