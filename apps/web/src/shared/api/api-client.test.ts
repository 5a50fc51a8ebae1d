import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiError, CLIENT_CODES, fieldIssuesOf } from '@kabuto/client/api-error';
import { createWebApiClient, type WebApiDeps } from './api-client';

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function setup(fetchImpl: WebApiDeps['fetch'], expiry: { text: string | undefined } = { text: 'expired' }) {
  const deps = {
    fetch: vi.fn(fetchImpl),
    baseUrl: '/api',
    getLang: () => 'jp' as const,
    getToken: (): string | null => 'tok',
    toast: vi.fn(),
    texts: () => ({
      timeout: 'timed out',
      network: 'network',
      badResponse: 'bad',
      sessionExpired: expiry.text,
      aborted: 'cancelled',
    }),
    clearSession: vi.fn(),
    openLogin: vi.fn(),
  };
  return { deps, api: createWebApiClient(deps) };
}

const ZData = z.object({ n: z.number() });

describe('api client', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('adds lang and token and returns the parsed data', async () => {
    const { deps, api } = setup(() =>
      Promise.resolve(jsonResponse(200, { code: 1, msg: 'ok', data: { n: 3 } })),
    );
    await expect(api.request({ path: '/x', query: { user_id: 7 }, schema: ZData })).resolves.toEqual({
      n: 3,
    });
    const [url, init] = deps.fetch.mock.calls[0] ?? [];
    expect(url).toBe('/api/x?user_id=7&lang=jp');
    expect((init?.headers as Record<string, string>).token).toBe('tok');
    expect(deps.toast).not.toHaveBeenCalled();
  });

  it('sends a JSON body on POST', async () => {
    const { deps, api } = setup(() =>
      Promise.resolve(jsonResponse(200, { code: 1, msg: 'ok', data: { n: 1 } })),
    );
    await api.request({ method: 'POST', path: '/y', body: { a: 1 }, schema: ZData });
    const init = deps.fetch.mock.calls[0]?.[1];
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe('{"a":1}');
  });

  it('toasts the msg for 2000 ms and rejects with an ApiError when code is not 1', async () => {
    const { deps, api } = setup(() =>
      Promise.resolve(
        jsonResponse(409, { code: 1001, msg: 'この携帯電話番号はすでに登録されています', data: null }),
      ),
    );
    const error: unknown = await api.request({ path: '/x', schema: ZData }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 1001, status: 409, msg: 'この携帯電話番号はすでに登録されています' });
    expect(deps.toast).toHaveBeenCalledWith('この携帯電話番号はすでに登録されています', 2000);
    expect(deps.clearSession).not.toHaveBeenCalled();
  });

  it('also fails on code != 1 with HTTP 200', async () => {
    const { deps, api } = setup(() => Promise.resolve(jsonResponse(200, { code: 0, msg: 'no', data: null })));
    await expect(api.request({ path: '/x', schema: ZData })).rejects.toMatchObject({ code: 0, msg: 'no' });
    expect(deps.toast).toHaveBeenCalledWith('no', 2000);
  });

  it('exposes validation issues', async () => {
    const issues = [{ field: 'phone', rule: 'format', message: 'bad phone' }];
    const { api } = setup(() =>
      Promise.resolve(jsonResponse(400, { code: 400, msg: 'check', data: { issues } })),
    );
    const error = await api.request({ path: '/x', schema: ZData }).catch((e: unknown) => e);
    expect(fieldIssuesOf(error)).toEqual(issues);
  });

  it('on 401 clears the session, shows the expiry message and opens login after 1500 ms', async () => {
    const { deps, api } = setup(() =>
      Promise.resolve(jsonResponse(401, { code: 401, msg: 'x', data: null })),
    );
    await expect(api.request({ path: '/x', schema: ZData })).rejects.toMatchObject({
      code: 401,
      status: 401,
    });
    expect(deps.clearSession).toHaveBeenCalledOnce();
    expect(deps.toast).toHaveBeenCalledWith('expired', 2000);
    expect(deps.openLogin).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1499);
    expect(deps.openLogin).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(deps.openLogin).toHaveBeenCalledOnce();
  });

  it("shows the server's message for a 401 while the contract's messages have not arrived", async () => {
    const { deps, api } = setup(
      () => Promise.resolve(jsonResponse(401, { code: 401, msg: 'ログインしてください', data: null })),
      { text: undefined },
    );
    await expect(api.request({ path: '/x', schema: ZData })).rejects.toMatchObject({
      code: 401,
      msg: 'ログインしてください',
    });
    expect(deps.toast).toHaveBeenCalledWith('ログインしてください', 2000);
    expect(deps.clearSession).toHaveBeenCalledOnce();
  });

  it('does not end the session it has now for a 401 to a token it has let go of', async () => {
    // A logout clears the session first, then sends its token; the session is gone or another by then.
    let current: string | null = 'tok';
    const { deps, api } = setup(() => {
      current = 'new-login';
      return Promise.resolve(jsonResponse(401, { code: 401, msg: 'x', data: null }));
    });
    deps.getToken = () => current; // the client reads it on every request
    await expect(
      api.request({ method: 'POST', path: '/auth/logout', schema: ZData, notify: false, token: 'old' }),
    ).rejects.toMatchObject({ code: 401, status: 401 });
    expect((deps.fetch.mock.calls[0]?.[1]?.headers as Record<string, string>).token).toBe('old');
    // Nor does a 401 answered after the app moved on to another token, for a request sent with the old one.
    current = 'tok';
    await expect(api.request({ path: '/x', schema: ZData })).rejects.toMatchObject({ code: 401 });
    vi.advanceTimersByTime(1500);
    expect(deps.clearSession).not.toHaveBeenCalled();
    expect(deps.toast).not.toHaveBeenCalled();
    expect(deps.openLogin).not.toHaveBeenCalled();
  });

  it('schedules one redirect for several 401s', async () => {
    const { deps, api } = setup(() =>
      Promise.resolve(jsonResponse(401, { code: 401, msg: 'x', data: null })),
    );
    await Promise.allSettled([
      api.request({ path: '/a', schema: ZData }),
      api.request({ path: '/b', schema: ZData }),
    ]);
    vi.advanceTimersByTime(1500);
    expect(deps.openLogin).toHaveBeenCalledOnce();
  });

  it('treats a failed login (HTTP 401 with its own code) as a normal failure', async () => {
    const { deps, api } = setup(() =>
      Promise.resolve(jsonResponse(401, { code: 1007, msg: 'wrong', data: null })),
    );
    await expect(api.request({ path: '/x', schema: ZData })).rejects.toMatchObject({ code: 1007 });
    expect(deps.clearSession).not.toHaveBeenCalled();
    expect(deps.toast).toHaveBeenCalledWith('wrong', 2000);
  });

  it('times out after 5000 ms with the localized text', async () => {
    const { deps, api } = setup(
      (_url, init) =>
        new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => {
            reject(new DOMException('aborted', 'AbortError'));
          });
        }),
    );
    const pending = api.request({ path: '/slow', schema: ZData }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(4999);
    expect(deps.toast).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    const error = await pending;
    expect(error).toMatchObject({ code: CLIENT_CODES.timeout, msg: 'timed out', status: 0 });
    expect(deps.toast).toHaveBeenCalledWith('timed out', 2000);
  });

  it('toasts a network error and rejects', async () => {
    const { deps, api } = setup(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(api.request({ path: '/x', schema: ZData })).rejects.toMatchObject({
      code: CLIENT_CODES.network,
    });
    expect(deps.toast).toHaveBeenCalledWith('network (Failed to fetch)', 2000);
  });

  it('rejects an answer that does not match the schema', async () => {
    const { api } = setup(() => Promise.resolve(jsonResponse(200, { code: 1, msg: 'ok', data: { n: 'x' } })));
    await expect(api.request({ path: '/x', schema: ZData })).rejects.toMatchObject({
      code: CLIENT_CODES.badResponse,
    });
  });

  it('can skip the toast', async () => {
    const { deps, api } = setup(() =>
      Promise.resolve(jsonResponse(422, { code: 1003, msg: 'bad code', data: null })),
    );
    await expect(api.request({ path: '/x', schema: ZData, notify: false })).rejects.toBeInstanceOf(ApiError);
    expect(deps.toast).not.toHaveBeenCalled();
  });

  it('sends extra headers (Idempotency-Key) next to lang and token', async () => {
    const { deps, api } = setup(() =>
      Promise.resolve(jsonResponse(200, { code: 1, msg: 'ok', data: { n: 1 } })),
    );
    await api.request({
      method: 'POST',
      path: '/trade/placeOrder',
      body: { a: 1 },
      headers: { 'idempotency-key': 'k-12345678' },
      schema: ZData,
    });
    const headers = deps.fetch.mock.calls[0]?.[1]?.headers as Record<string, string>;
    expect(headers['idempotency-key']).toBe('k-12345678');
    expect(headers.token).toBe('tok');
    expect(headers['content-type']).toBe('application/json');
  });

  it('posts a raw text body with its content type', async () => {
    const { deps, api } = setup(() =>
      Promise.resolve(jsonResponse(200, { code: 1, msg: 'ok', data: { n: 1 } })),
    );
    await api.request({ path: '/v', text: { contentType: 'text/csv', value: 'a,b\n' }, schema: ZData });
    const init = deps.fetch.mock.calls[0]?.[1];
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe('a,b\n');
    expect((init?.headers as Record<string, string>)['content-type']).toBe('text/csv');
  });

  it('downloads a file with the token and its suggested name', async () => {
    const { deps, api } = setup(() =>
      Promise.resolve(
        new Response('seq,at\n', {
          status: 200,
          headers: {
            'content-type': 'text/csv; charset=utf-8',
            'content-disposition': 'attachment; filename="statement.csv"',
          },
        }),
      ),
    );
    const file = await api.fetchFile({ path: '/ledger/statement', query: { from: '2026-11-01' } });
    expect(file.filename).toBe('statement.csv');
    await expect(file.blob.text()).resolves.toBe('seq,at\n');
    const [url, init] = deps.fetch.mock.calls[0] ?? [];
    expect(url).toBe('/api/ledger/statement?from=2026-11-01&lang=jp');
    expect((init?.headers as Record<string, string>).token).toBe('tok');
  });

  it('turns a failure envelope of a download into an ApiError and a toast', async () => {
    const { deps, api } = setup(() =>
      Promise.resolve(jsonResponse(422, { code: 400, msg: 'bad date', data: null })),
    );
    await expect(api.fetchFile({ path: '/ledger/statement' })).rejects.toMatchObject({ code: 400 });
    expect(deps.toast).toHaveBeenCalledWith('bad date', 2000);
  });

  it('sends a multipart body as it is, letting the browser set its content type', async () => {
    const { deps, api } = setup(() =>
      Promise.resolve(jsonResponse(200, { code: 1, msg: 'OK', data: { n: 1 } })),
    );
    const form = new FormData();
    form.append('purpose', 'identity_front');
    await api.request({ method: 'POST', path: '/uploads', form, schema: ZData });
    const init = deps.fetch.mock.calls[0]?.[1];
    expect(init?.body).toBe(form);
    expect((init?.headers as Record<string, string>)['content-type']).toBeUndefined();
    expect((init?.headers as Record<string, string>).token).toBe('tok');
  });

  it('a request the caller cancels fails as aborted, without a toast, and is not taken for a timeout', async () => {
    const { deps, api } = setup(
      (_url, init) =>
        new Promise((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => {
            reject(new DOMException('aborted', 'AbortError'));
          });
        }),
    );
    const controller = new AbortController();
    const pending = api
      .request({ path: '/uploads', form: new FormData(), signal: controller.signal, schema: ZData })
      .catch((e: unknown) => e);
    controller.abort();
    const error = await pending;
    expect(error).toMatchObject({ code: CLIENT_CODES.aborted, msg: 'cancelled', status: 0 });
    expect(deps.toast).not.toHaveBeenCalled();
  });
});
