import { ZOperator } from '@kabuto/contract';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createConsoleApi, type ConsoleApiDeps } from './api-client';
import { ApiError, CLIENT_CODES } from '@kabuto/client/api-error';

const operator = {
  id: 1,
  username: 'admin',
  display_name: 'Administrator',
  role: 'administrator',
  must_change_password: false,
  active: true,
  locked_until: null,
  created_at: '2026-11-23T00:00:00.000Z',
};

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

function setup(response: Response | (() => Promise<Response>), token: string | null = 'tok-1') {
  const fetchMock = vi.fn<typeof fetch>(() =>
    typeof response === 'function' ? response() : Promise.resolve(response),
  );
  const deps = {
    fetch: fetchMock,
    baseUrl: '/api/console',
    getLang: () => 'en' as const,
    getToken: () => token,
    notify: vi.fn<(message: string) => void>(),
    texts: () => ({ timeout: 'Timed out', network: 'Network error', badResponse: 'Bad answer' }),
    onUnauthenticated: vi.fn<(msg: string) => void>(),
    onPasswordChangeRequired: vi.fn<() => void>(),
    timeoutMs: 50,
  } satisfies ConsoleApiDeps;
  return { api: createConsoleApi(deps), deps, fetchMock };
}

describe('console API client', () => {
  it('sends the bearer token and lang, and answers the parsed data of a success envelope', async () => {
    const { api, fetchMock } = setup(json(200, { code: 1, msg: 'OK', data: operator }));
    const me = await api.request({
      path: '/me',
      query: { status: 'pending', user_id: undefined },
      schema: ZOperator,
    });
    expect(me.username).toBe('admin');
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/console/me?status=pending&lang=en');
    expect((init?.headers as Record<string, string>).authorization).toBe('Bearer tok-1');
    expect(init?.method).toBe('GET');
  });

  it('sends a JSON body with PUT and POST', async () => {
    const { api, fetchMock } = setup(json(200, { code: 1, msg: 'OK', data: {} }));
    await api.request({
      method: 'PUT',
      path: '/settings/withdrawal',
      body: { min_yen: 1 },
      schema: z.object({}),
    });
    const init = fetchMock.mock.calls[0]?.[1];
    expect(init?.method).toBe('PUT');
    expect(init?.body).toBe('{"min_yen":1}');
    expect((init?.headers as Record<string, string>)['content-type']).toBe('application/json');
  });

  it('sends no authorization header without a token', async () => {
    const { api, fetchMock } = setup(json(200, { code: 1, msg: 'OK', data: {} }), null);
    await api.request({ path: '/login', body: {}, schema: z.object({}) });
    expect((fetchMock.mock.calls[0]?.[1]?.headers as Record<string, string>).authorization).toBeUndefined();
  });

  it('rejects a failure envelope with the server’s localized msg and shows it', async () => {
    const { api, deps } = setup(json(409, { code: 1341, msg: 'Already reviewed', data: null }));
    const error = await api
      .request({ path: '/identity/1/approve', body: {}, schema: z.object({}) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 1341, msg: 'Already reviewed', status: 409 });
    expect(deps.notify).toHaveBeenCalledWith('Already reviewed');
    expect(deps.onUnauthenticated).not.toHaveBeenCalled();
  });

  it('leaves showing the failure to the caller when asked', async () => {
    const { api, deps } = setup(json(401, { code: 1401, msg: 'Wrong user name or password', data: null }));
    const error = await api
      .request({ path: '/login', body: {}, schema: z.object({}), notify: false })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 1401, msg: 'Wrong user name or password' });
    expect(deps.notify).not.toHaveBeenCalled();
    // A failed sign-in is HTTP 401 with its own code: not a lost session.
    expect(deps.onUnauthenticated).not.toHaveBeenCalled();
  });

  it('hands a lost session (code 401) to onUnauthenticated without a second message', async () => {
    const { api, deps } = setup(json(401, { code: 401, msg: 'Session expired', data: null }));
    const error = await api.request({ path: '/me', schema: ZOperator }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 401 });
    expect(deps.onUnauthenticated).toHaveBeenCalledWith('Session expired');
    expect(deps.notify).not.toHaveBeenCalled();
  });

  it('treats an HTTP 401 without an envelope as a lost session', async () => {
    const { api, deps } = setup(new Response('nope', { status: 401 }));
    await expect(api.request({ path: '/me', schema: ZOperator })).rejects.toMatchObject({ code: 401 });
    expect(deps.onUnauthenticated).toHaveBeenCalledTimes(1);
  });

  it('opens the password page on OPERATOR_PASSWORD_CHANGE_REQUIRED', async () => {
    const { api, deps } = setup(json(403, { code: 1403, msg: 'Change it first', data: null }));
    await expect(api.request({ path: '/identity', schema: z.unknown() })).rejects.toMatchObject({
      code: 1403,
    });
    expect(deps.onPasswordChangeRequired).toHaveBeenCalledTimes(1);
    expect(deps.notify).not.toHaveBeenCalled();
  });

  it('shows FORBIDDEN as the server wrote it', async () => {
    const { api, deps } = setup(json(403, { code: 403, msg: 'You do not have access to this', data: null }));
    await expect(api.request({ path: '/operators', schema: z.unknown() })).rejects.toMatchObject({
      code: 403,
    });
    expect(deps.notify).toHaveBeenCalledWith('You do not have access to this');
  });

  it('rejects data that does not match the schema', async () => {
    const { api, deps } = setup(json(200, { code: 1, msg: 'OK', data: { id: 'x' } }));
    await expect(api.request({ path: '/me', schema: ZOperator })).rejects.toMatchObject({
      code: CLIENT_CODES.badResponse,
    });
    expect(deps.notify).toHaveBeenCalledWith('Bad answer');
  });

  it('reports a network failure and a timeout', async () => {
    const failing = setup(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(failing.api.request({ path: '/me', schema: ZOperator })).rejects.toMatchObject({
      code: CLIENT_CODES.network,
      msg: 'Network error (Failed to fetch)',
    });
    const slow = setup(
      () =>
        new Promise<Response>((_resolve, reject) => {
          const init = slow.fetchMock.mock.calls[0]?.[1];
          init?.signal?.addEventListener('abort', () => {
            reject(new DOMException('aborted', 'AbortError'));
          });
        }),
    );
    await expect(slow.api.request({ path: '/me', schema: ZOperator })).rejects.toMatchObject({
      code: CLIENT_CODES.timeout,
    });
  });

  it('downloads a file with the bearer token and its suggested name', async () => {
    const { api, fetchMock } = setup(
      new Response('a,b\n', {
        status: 200,
        headers: {
          'content-type': 'text/csv',
          'content-disposition': 'attachment; filename="statement-7.csv"',
        },
      }),
    );
    const file = await api.fetchFile({ path: '/users/7/statement' });
    expect(file.filename).toBe('statement-7.csv');
    expect(await file.blob.text()).toBe('a,b\n');
    expect((fetchMock.mock.calls[0]?.[1]?.headers as Record<string, string>).authorization).toBe(
      'Bearer tok-1',
    );
  });

  it('reads a failed download as an envelope', async () => {
    const { api, deps } = setup(json(401, { code: 401, msg: 'Session expired', data: null }));
    await expect(api.fetchFile({ path: '/uploads/abc' })).rejects.toMatchObject({ code: 401 });
    expect(deps.onUnauthenticated).toHaveBeenCalledWith('Session expired');
  });
});
