// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearEarlyReads, takeEarlyRead } from '@/shared/api/early';
import { firstReadsOf, startFirstReads } from './first-reads';

function urlsOf(hash: string, lang = 'jp'): string[] {
  const fetchSpy = vi.fn<typeof fetch>(() => new Promise<Response>(() => undefined));
  vi.stubGlobal('fetch', fetchSpy);
  startFirstReads(hash, lang, null);
  return fetchSpy.mock.calls.map(([url]) => url as string);
}

afterEach(() => {
  vi.unstubAllGlobals();
  clearEarlyReads();
  document.head.querySelectorAll('link[rel="preload"]').forEach((link) => {
    link.remove();
  });
});

describe('the first reads', () => {
  it("are the market page's clock, indices and the list of the segment its address opens", () => {
    expect(urlsOf('#/pages/market/market')).toEqual([
      '/api/market/status?lang=jp',
      '/api/market/indices?lang=jp',
      '/api/market/list?sort=gainers&limit=50&offset=0&lang=jp',
    ]);
    clearEarlyReads();
    expect(urlsOf('#/pages/market/market?tab=losers', 'en')).toContain(
      '/api/market/list?sort=losers&limit=50&offset=0&lang=en',
    );
    clearEarlyReads();
    // the watchlist and sectors segments read other things; an unknown tab opens the gainers
    expect(urlsOf('#/pages/market/market?tab=watchlist')).toHaveLength(2);
    clearEarlyReads();
    expect(urlsOf('#/pages/market/market?tab=nonsense')).toContain(
      '/api/market/list?sort=gainers&limit=50&offset=0&lang=jp',
    );
  });

  it("are a stock's quote, the clock and the bars of the address's period", () => {
    expect(urlsOf('#/subPackages/index/gupiaoDetail/gupiaoDetail?code=7203')).toEqual([
      '/api/market/stock?code=7203&lang=jp',
      '/api/market/status?lang=jp',
      '/api/market/bars?code=7203&period=intraday&limit=300&lang=jp',
    ]);
    clearEarlyReads();
    expect(urlsOf('#/subPackages/index/gupiaoDetail/gupiaoDetail?code=%207203a&period=1w')).toContain(
      '/api/market/bars?code=7203A&period=1w&limit=300&lang=jp',
    );
    clearEarlyReads();
    expect(urlsOf('#/subPackages/index/gupiaoDetail/gupiaoDetail?code=7203&period=2y')).toContain(
      '/api/market/bars?code=7203&period=intraday&limit=300&lang=jp',
    );
    expect(firstReadsOf('#/subPackages/index/gupiaoDetail/gupiaoDetail').reads).toEqual([]);
  });

  it('are none for a page whose largest paint needs no data, or for an unknown address', () => {
    expect(firstReadsOf('#/subPackages/login/login').reads).toEqual([]);
    expect(firstReadsOf('#/no/such/page').reads).toEqual([]);
    // an unknown stored language reads in the default one, as the session does
    expect(urlsOf('#/pages/index/index', 'xx')).toContain('/api/banners?lang=jp');
  });

  it("start the home page's first banner image as soon as the banners' answer names it", async () => {
    const banners = { code: 0, msg: 'ok', data: { items: [{ image_url: '/api/banners/7/image?r=3' }] } };
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>((url) =>
        Promise.resolve(
          new Response(JSON.stringify((url as string).startsWith('/api/banners') ? banners : {})),
        ),
      ),
    );
    startFirstReads('#/pages/index/index', 'jp', 'tok');
    await vi.waitFor(() => {
      const link = document.head.querySelector<HTMLLinkElement>('link[rel="preload"][as="image"]');
      expect(link?.getAttribute('href')).toBe('/api/banners/7/image?r=3');
    });
    // and the page's query still gets the whole answer, with the token it was sent with
    const taken = await takeEarlyRead('/api/banners?lang=jp', { headers: { token: 'tok' } });
    expect(await taken?.json()).toEqual(banners);
  });
});
