// @vitest-environment happy-dom
import type { RouteObject } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PAGE_PATHS, TAB_PATHS } from '@/shared/navigation/routes';
import { preloadPage, routes } from './router';

/** How many times the layout's lazy shell effects were loaded (the module stands in for them). */
const shellEffects = vi.hoisted(() => ({ loads: 0 }));
vi.mock('./layout/shell-effects', () => {
  shellEffects.loads += 1;
  return { default: () => null };
});

const pages = routes[0]?.children ?? [];

/** Replaces each page's loader with a spy that resolves to nothing, and gives the spies back by path. */
function spyOnPages(): Map<string, ReturnType<typeof vi.fn>> {
  const spies = new Map<string, ReturnType<typeof vi.fn>>();
  for (const route of pages) {
    const spy = vi.fn(() => Promise.resolve({}));
    spies.set(route.path ?? '', spy);
    route.lazy = spy;
  }
  return spies;
}

const originals = pages.map((route) => route.lazy);
afterEach(() => {
  pages.forEach((route, i) => {
    route.lazy = originals[i];
  });
});

describe('preloadPage: the first page is fetched before the router asks for it', () => {
  it('loads only the page the hash opens', () => {
    const spies = spyOnPages();
    preloadPage(`#${PAGE_PATHS.login}`);
    expect(spies.get(PAGE_PATHS.login)).toHaveBeenCalledTimes(1);
    const others = [...spies].filter(([path, spy]) => path !== PAGE_PATHS.login && spy.mock.calls.length > 0);
    expect(others).toEqual([]);
  });

  it('ignores the query string of the hash', () => {
    const spies = spyOnPages();
    preloadPage(`#${PAGE_PATHS.stockDetail}?code=7203`);
    expect(spies.get(PAGE_PATHS.stockDetail)).toHaveBeenCalledTimes(1);
  });

  it('opens the entry page for an empty hash, and nothing for an unknown path', () => {
    const spies = spyOnPages();
    preloadPage('');
    expect(spies.get(PAGE_PATHS.entry)).toHaveBeenCalledTimes(1);
    preloadPage('#/no/such/page');
    expect([...spies.values()].reduce((n, spy) => n + spy.mock.calls.length, 0)).toBe(1);
  });

  it('swallows a failed load (the router shows the error when it loads the page itself)', async () => {
    const spies = spyOnPages();
    const failing = vi.fn(() => Promise.reject(new Error('offline')));
    const home = pages.find((route) => route.path === TAB_PATHS.home) as RouteObject;
    home.lazy = failing;
    preloadPage(`#${TAB_PATHS.home}`);
    await Promise.resolve();
    expect(failing).toHaveBeenCalledTimes(1);
    expect(spies.get(TAB_PATHS.home)).not.toHaveBeenCalled();
  });

  it("starts the layout's shell effects with the page, not once the layout has rendered", async () => {
    spyOnPages();
    preloadPage(`#${TAB_PATHS.market}`);
    await vi.dynamicImportSettled();
    expect(shellEffects.loads).toBe(1);
  });
});
