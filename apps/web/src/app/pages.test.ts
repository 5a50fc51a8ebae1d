// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PAGE_PATHS, ROUTE_TABLE, TAB_PATHS } from '@/shared/navigation/routes';
import { loadPage, PAGES, pageAt, preloadPage, type PageEntry } from './pages';

/** How many times the layout's lazy shell effects were loaded (the module stands in for them). */
const shellEffects = vi.hoisted(() => ({ loads: 0 }));
vi.mock('./layout/shell-effects', () => {
  shellEffects.loads += 1;
  return { default: () => null };
});
/** The same for the signed-in user's live events. */
const userEvents = vi.hoisted(() => ({ loads: 0 }));
vi.mock('./layout/user-events', () => {
  userEvents.loads += 1;
  return { default: () => null };
});

/** Replaces each page's loader with a spy that resolves to nothing, and gives the spies back by path. */
function spyOnPages(): Map<string, ReturnType<typeof vi.fn>> {
  const spies = new Map<string, ReturnType<typeof vi.fn>>();
  for (const entry of PAGES as PageEntry[]) {
    const spy = vi.fn(() => Promise.resolve(() => null));
    spies.set(entry.path, spy);
    entry.load = spy;
  }
  return spies;
}

/** A contract loader for the tests that are not about it. */
const noContract = () => Promise.resolve();

const originals = PAGES.map((entry) => entry.load);
afterEach(() => {
  (PAGES as PageEntry[]).forEach((entry, i) => {
    entry.load = originals[i] as PageEntry['load'];
  });
});

describe('pageAt: the page a hash URL opens', () => {
  it('finds every page of the route table, with or without a query', () => {
    for (const entry of PAGES) {
      expect(pageAt(`#${entry.path}`)).toBe(entry);
      expect(pageAt(`#${entry.path}?code=7203`)).toBe(entry);
    }
  });

  it('compares as the router does: case-insensitive, a trailing slash ignored; empty opens the entry page', () => {
    expect(pageAt(`#${PAGE_PATHS.stockDetail.toLowerCase()}/`)?.path).toBe(PAGE_PATHS.stockDetail);
    expect(pageAt('')?.path).toBe(PAGE_PATHS.entry);
    expect(pageAt('#')?.path).toBe(PAGE_PATHS.entry);
    expect(pageAt('#/no/such/page')).toBeUndefined();
  });

  it('has a page for every path of the navigation table', () => {
    const paths = new Set(PAGES.map((entry) => entry.path));
    for (const path of Object.values(TAB_PATHS)) expect(paths).toContain(path);
    for (const path of Object.values(PAGE_PATHS)) expect(paths).toContain(path);
    for (const path of [...ROUTE_TABLE.tabs, ...ROUTE_TABLE.pages]) expect(pageAt(`#${path}`)).toBeDefined();
  });
});

describe('preloadPage: the first page is fetched before the router asks for it', () => {
  it('loads only the page the hash opens', () => {
    const spies = spyOnPages();
    preloadPage(`#${PAGE_PATHS.login}`, { loadContract: noContract, signedIn: false });
    expect(spies.get(PAGE_PATHS.login)).toHaveBeenCalledTimes(1);
    const others = [...spies].filter(([path, spy]) => path !== PAGE_PATHS.login && spy.mock.calls.length > 0);
    expect(others).toEqual([]);
  });

  it('ignores the query string of the hash', () => {
    const spies = spyOnPages();
    preloadPage(`#${PAGE_PATHS.stockDetail}?code=7203`, { loadContract: noContract, signedIn: false });
    expect(spies.get(PAGE_PATHS.stockDetail)).toHaveBeenCalledTimes(1);
  });

  it('opens the entry page for an empty hash, and nothing for an unknown path', () => {
    const spies = spyOnPages();
    preloadPage('', { loadContract: noContract, signedIn: false });
    expect(spies.get(PAGE_PATHS.entry)).toHaveBeenCalledTimes(1);
    preloadPage('#/no/such/page', { loadContract: noContract, signedIn: false });
    expect([...spies.values()].reduce((n, spy) => n + spy.mock.calls.length, 0)).toBe(1);
  });

  it('swallows a failed load (the router shows the error when it loads the page itself)', async () => {
    spyOnPages();
    const home = PAGES.find((entry) => entry.path === TAB_PATHS.home) as PageEntry;
    const failing = vi.fn(() => Promise.reject(new Error('offline')));
    home.load = failing;
    preloadPage(`#${TAB_PATHS.home}`, { loadContract: noContract, signedIn: false });
    await Promise.resolve();
    expect(failing).toHaveBeenCalledTimes(1);
  });

  it("starts the layout's shell effects with the page, not once the layout has rendered", async () => {
    spyOnPages();
    preloadPage(`#${TAB_PATHS.market}`, { loadContract: noContract, signedIn: false });
    await vi.dynamicImportSettled();
    expect(shellEffects.loads).toBe(1);
  });

  it("starts the live events' code only for a stored session", async () => {
    spyOnPages();
    preloadPage(`#${TAB_PATHS.market}`, { loadContract: noContract, signedIn: false });
    await vi.dynamicImportSettled();
    expect(userEvents.loads).toBe(0);
    preloadPage(`#${TAB_PATHS.market}`, { loadContract: noContract, signedIn: true });
    await vi.dynamicImportSettled();
    expect(userEvents.loads).toBe(1);
  });
});

describe("the contract's messages: the first screens do not wait for them (ADR 0059)", () => {
  const firstScreens = [
    PAGE_PATHS.entry,
    PAGE_PATHS.loading,
    TAB_PATHS.home,
    TAB_PATHS.market,
    PAGE_PATHS.login,
    PAGE_PATHS.stockDetail,
  ];

  it('marks exactly the pages a visitor most often opens first', () => {
    expect(PAGES.filter((entry) => entry.firstScreen === true).map((entry) => entry.path)).toEqual(
      firstScreens,
    );
  });

  it("a first-screen page's code comes without them; any other page's waits for them", async () => {
    spyOnPages();
    let release = () => {};
    const contract = vi.fn(() => new Promise<void>((resolve) => (release = resolve)));
    const home = pageAt(`#${TAB_PATHS.home}`) as PageEntry;
    await expect(loadPage(home, contract)).resolves.toBeTypeOf('function');
    expect(contract).not.toHaveBeenCalled();

    let loaded = false;
    const ledger = loadPage(pageAt(`#${PAGE_PATHS.transactionLog}`) as PageEntry, contract).then(() => {
      loaded = true;
    });
    await vi.dynamicImportSettled();
    expect(contract).toHaveBeenCalledOnce();
    expect(loaded).toBe(false);
    release();
    await ledger;
    expect(loaded).toBe(true);
  });

  it('preloadPage starts them beside the code of a page that needs them only', () => {
    spyOnPages();
    const contract = vi.fn(() => Promise.resolve());
    preloadPage(`#${PAGE_PATHS.login}`, { loadContract: contract, signedIn: false });
    expect(contract).not.toHaveBeenCalled();
    preloadPage(`#${PAGE_PATHS.withdrawal}`, { loadContract: contract, signedIn: true });
    expect(contract).toHaveBeenCalledOnce();
  });
});
