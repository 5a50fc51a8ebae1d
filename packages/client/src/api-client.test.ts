import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiError, CLIENT_CODES } from './api-error.js';
import { createApiClient, type ApiClientDeps } from './api-client.js';

function setup(answer: () => Promise<Response>) {
  const deps = {
    fetch: vi.fn<typeof fetch>(answer),
    baseUrl: '/api',
    getLang: () => 'en' as const,
    getToken: (): string | null => 'tok',
    authorize: (token: string) => ({ 'x-token': token }),
    notify: vi.fn<(message: string) => void>(),
    texts: () => ({ timeout: 'slow', network: 'offline', badResponse: 'unreadable', aborted: 'stopped' }),
    onUnauthenticated: vi.fn((error: ApiError) => error),
    handledCodes: { 1403: vi.fn() },
    timeoutMs: 1000,
  } satisfies ApiClientDeps;
  return { deps, api: createApiClient(deps) };
}

const text = (status: number, body: string) => () => Promise.resolve(new Response(body, { status }));
const ZData = z.object({ n: z.number() });

describe('shared api client', () => {
  it('puts the token where the app says and parses the data', async () => {
    const { api, deps } = setup(text(200, '{"code":1,"msg":"OK","data":{"n":2}}'));
    await expect(api.request({ path: '/x', schema: ZData })).resolves.toEqual({ n: 2 });
    expect((deps.fetch.mock.calls[0]?.[1]?.headers as Record<string, string>)['x-token']).toBe('tok');
  });

  it('calls a body that is not JSON a bad response without an HTTP status, and shows it', async () => {
    const { api, deps } = setup(text(502, '<html>Bad gateway</html>'));
    await expect(api.request({ path: '/x', schema: ZData })).rejects.toMatchObject({
      code: CLIENT_CODES.badResponse,
      status: 0,
    });
    expect(deps.notify).toHaveBeenCalledWith('unreadable');
    expect(deps.onUnauthenticated).not.toHaveBeenCalled();
  });

  it('takes a 401 whose body is not JSON for a lost session, shown by the app alone', async () => {
    const { api, deps } = setup(text(401, 'nope'));
    await expect(api.request({ path: '/x', schema: ZData })).rejects.toMatchObject({ code: 401 });
    expect(deps.onUnauthenticated).toHaveBeenCalledWith(expect.any(ApiError), 'tok');
    expect(deps.notify).not.toHaveBeenCalled();
  });

  it('hands a code the app answers itself to it instead of showing it', async () => {
    const { api, deps } = setup(text(403, '{"code":1403,"msg":"Change it","data":null}'));
    await expect(api.request({ path: '/x', schema: ZData })).rejects.toMatchObject({ code: 1403 });
    expect(deps.handledCodes[1403]).toHaveBeenCalledOnce();
    expect(deps.notify).not.toHaveBeenCalled();
  });

  it('does not show a request the caller cancelled', async () => {
    const { api, deps } = setup(() => Promise.reject(new DOMException('aborted', 'AbortError')));
    const controller = new AbortController();
    controller.abort();
    await expect(api.request({ path: '/x', schema: ZData, signal: controller.signal })).rejects.toMatchObject(
      {
        code: CLIENT_CODES.aborted,
        msg: 'stopped',
      },
    );
    expect(deps.notify).not.toHaveBeenCalled();
  });

  it('reads a download that answers JSON as a failure envelope', async () => {
    const { api, deps } = setup(() =>
      Promise.resolve(
        new Response('{"code":404,"msg":"No such file","data":null}', {
          status: 404,
          headers: { 'content-type': 'application/json' },
        }),
      ),
    );
    await expect(api.fetchFile({ path: '/f' })).rejects.toMatchObject({ code: 404, msg: 'No such file' });
    expect(deps.notify).toHaveBeenCalledWith('No such file');
  });
});
