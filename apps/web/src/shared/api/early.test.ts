import { exchange, readJson } from '@kabuto/client/http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearEarlyReads, EARLY_READ_TTL_MS, startEarlyRead, takeEarlyRead, withEarlyReads } from './early';

const URL_A = '/api/market/list?sort=gainers&limit=50&offset=0&lang=jp';

function jsonResponse(body: unknown): Response {
  return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
}

function fakeFetch(body: unknown = { code: 0, msg: 'ok', data: { items: [] } }) {
  return vi.fn<typeof fetch>(() => Promise.resolve(jsonResponse(body)));
}

function deps(fetchImpl: typeof fetch, at = 1_000) {
  return { fetch: fetchImpl, now: () => at };
}

afterEach(() => {
  clearEarlyReads();
});

describe('early reads', () => {
  it('answer the same GET once, with the answer the network gave, and send it as the client would', async () => {
    const early = fakeFetch({ code: 0, msg: 'ok', data: { n: 1 } });
    startEarlyRead(URL_A, 'tok', undefined, deps(early, Date.now()));
    expect(early).toHaveBeenCalledWith(URL_A, {
      method: 'GET',
      headers: { accept: 'application/json', token: 'tok' },
    });

    const network = fakeFetch({ code: 0, msg: 'ok', data: { n: 2 } });
    const client = withEarlyReads(network);
    const init = { method: 'GET', headers: { accept: 'application/json', token: 'tok' } };
    const first = await client(URL_A, init);
    expect(await readJson(first)).toEqual({ code: 0, msg: 'ok', data: { n: 1 } });
    expect(network).not.toHaveBeenCalled();

    // a second ask (a refetch) goes to the server
    const second = await client(URL_A, init);
    expect(await readJson(second)).toEqual({ code: 0, msg: 'ok', data: { n: 2 } });
    expect(network).toHaveBeenCalledTimes(1);
  });

  it('are not used for another token, another method, another URL or after their time', () => {
    const at = 5_000;
    startEarlyRead(URL_A, null, undefined, deps(fakeFetch(), at));
    expect(takeEarlyRead(URL_A, { headers: { token: 'signed-in-since' } }, () => at)).toBeUndefined();
    // a refused read is dropped: the session moved on
    expect(takeEarlyRead(URL_A, undefined, () => at)).toBeUndefined();

    startEarlyRead(URL_A, 'tok', undefined, deps(fakeFetch(), at));
    expect(takeEarlyRead(URL_A, { headers: {} }, () => at)).toBeUndefined();

    startEarlyRead(URL_A, null, undefined, deps(fakeFetch(), at));
    expect(takeEarlyRead(URL_A, { method: 'POST' }, () => at)).toBeUndefined();

    startEarlyRead(URL_A, null, undefined, deps(fakeFetch(), at));
    expect(takeEarlyRead(`${URL_A}&x=1`, undefined, () => at)).toBeUndefined();
    expect(takeEarlyRead(URL_A, undefined, () => at + EARLY_READ_TTL_MS + 1)).toBeUndefined();

    startEarlyRead(URL_A, '', undefined, deps(fakeFetch(), at));
    expect(takeEarlyRead(URL_A, { headers: { token: '' } }, () => at + EARLY_READ_TTL_MS)).toBeDefined();
  });

  it("still end with the client's timeout when the server does not answer", async () => {
    const hanging = vi.fn<typeof fetch>(() => new Promise<Response>(() => undefined));
    startEarlyRead(URL_A, null, undefined, { fetch: hanging, now: () => Date.now() });
    const network = fakeFetch();
    const texts = () => ({ timeout: 'timed out', network: 'offline', badResponse: 'bad' });
    const outcome = exchange(
      { fetch: withEarlyReads(network), texts },
      { url: URL_A, init: { method: 'GET', headers: {} }, timeoutMs: 20, read: readJson },
    );
    await expect(outcome).rejects.toMatchObject({ msg: 'timed out', status: 0 });
    expect(network).not.toHaveBeenCalled();
  });

  it('pass on a failed early read to the page that takes it, and warn no one when nobody does', async () => {
    const failing = vi.fn<typeof fetch>(() => Promise.reject(new TypeError('Failed to fetch')));
    startEarlyRead(URL_A, null, undefined, deps(failing));
    await expect(takeEarlyRead(URL_A, undefined, () => 1_000)).rejects.toThrow('Failed to fetch');
    // an untaken failure: vitest fails the run on an unhandled rejection
    startEarlyRead(`${URL_A}&unused=1`, null, undefined, deps(failing));
    await new Promise((resolve) => setTimeout(resolve, 0));
  });

  it('show a successful answer to a peek and leave the body whole for the page', async () => {
    const body = { code: 0, msg: 'ok', data: { items: [{ image_url: '/api/banners/1/image?r=1' }] } };
    const peek = vi.fn();
    startEarlyRead('/api/banners?lang=jp', null, peek, deps(fakeFetch(body)));
    const taken = await takeEarlyRead('/api/banners?lang=jp', undefined, () => 1_000);
    expect(await readJson(taken as Response)).toEqual(body);
    await vi.waitFor(() => {
      expect(peek).toHaveBeenCalledWith(body);
    });

    // a peek that throws, or an answer that is not JSON, is its own business
    startEarlyRead(
      '/api/banners?lang=fr',
      null,
      () => {
        throw new Error('peek failed');
      },
      deps(fakeFetch(body)),
    );
    const notJson = vi.fn<typeof fetch>(() => Promise.resolve(new Response('<html>')));
    startEarlyRead('/api/banners?lang=es', null, peek, deps(notJson));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(peek).toHaveBeenCalledTimes(1);

    const refused = vi.fn();
    const notFound = vi.fn<typeof fetch>(() => Promise.resolve(new Response('{}', { status: 404 })));
    startEarlyRead('/api/banners?lang=en', null, refused, deps(notFound));
    await takeEarlyRead('/api/banners?lang=en', undefined, () => 1_000);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(refused).not.toHaveBeenCalled();
  });
});
