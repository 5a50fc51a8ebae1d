// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ja } from '@/locales/ja';
import { i18n, initI18n } from '@/shared/i18n/i18n';
import { createHashHistory, type HashHistory } from '@/shared/navigation/hash-history';
import { Link, useLocation, useSearchParams } from '@/shared/navigation/router';
import { PAGE_PATHS, TAB_PATHS } from '@/shared/navigation/routes';
import type { RouteHandle } from './route-handle';
import { AppRouter } from './router';
import { PAGES, type PageEntry } from './pages';

/**
 * The app's router through its real history, pages table and error page, with the layout replaced by a
 * frame that shows the title key it is given (the layout's own parts are tested elsewhere), and each
 * page's loader replaced by one the test resolves.
 */
const layout = vi.hoisted(() => ({ mounts: 0 }));
vi.mock('./layout/app-layout', async () => {
  const { useEffect } = await import('react');
  return {
    AppLayout: ({ page, children }: { page: RouteHandle | undefined; children: ReactNode }) => {
      useEffect(() => {
        layout.mounts += 1;
      }, []);
      return (
        <div>
          <h1>{page?.titleKey}</h1>
          <main>{children}</main>
        </div>
      );
    },
  };
});

/** Each page's loader, to resolve (or fail) by hand. */
interface Pending {
  calls: number;
  resolve: (component: () => ReactNode) => void;
  reject: (error: Error) => void;
}
const pending = new Map<string, Pending>();
const originals = PAGES.map((entry) => entry.load);

function stubPages() {
  pending.clear();
  for (const entry of PAGES as PageEntry[]) {
    const slot: Pending = { calls: 0, resolve: () => {}, reject: () => {} };
    pending.set(entry.path, slot);
    entry.load = () => {
      slot.calls += 1;
      return new Promise((resolve, reject) => {
        slot.resolve = (component) => {
          resolve(component);
        };
        slot.reject = reject;
      });
    };
  }
}
const page = (path: string) => pending.get(path) as Pending;

async function settle(action: () => void) {
  await act(async () => {
    action();
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

/** A page that shows where it is drawn and its query's `tab`, with a button that changes the query. */
function Probe({ name }: { name: string }) {
  const { pathname } = useLocation();
  const [params, setParams] = useSearchParams();
  return (
    <section>
      <p>
        {name} at {pathname} tab {params.get('tab') ?? '-'}
      </p>
      <button
        type="button"
        onClick={() => {
          setParams({ tab: 'b' }, { replace: true });
        }}
      >
        tab b
      </button>
      <Link to={PAGE_PATHS.login}>to login</Link>
    </section>
  );
}

let history: HashHistory;
function open(hash: string) {
  window.history.replaceState(null, '', hash);
  history = createHashHistory();
  return render(
    <I18nextProvider i18n={i18n}>
      <AppRouter history={history} />
    </I18nextProvider>,
  );
}

beforeAll(async () => {
  await initI18n({ contract: 'later' });
});
beforeEach(() => {
  stubPages();
  layout.mounts = 0;
});
afterEach(() => {
  cleanup();
  history.dispose();
  (PAGES as PageEntry[]).forEach((entry, i) => {
    entry.load = originals[i] as PageEntry['load'];
  });
  vi.restoreAllMocks();
});

/** Market drawn, then a press (no click) on its link to login; the link. */
async function pressOnLoginFromMarket(): Promise<HTMLElement> {
  open(`#${TAB_PATHS.market}`);
  await settle(() => {
    page(TAB_PATHS.market).resolve(() => <Probe name="market" />);
  });
  const link = screen.getByRole('link', { name: 'to login' });
  await settle(() => {
    fireEvent.pointerDown(link);
  });
  return link;
}

describe('the router', () => {
  it('draws the first page in the layout with a loading line until its code arrives', async () => {
    open(`#${TAB_PATHS.market}?tab=a`);
    expect(screen.getByRole('heading').textContent).toBe('titles.market');
    expect(screen.getByRole('status').textContent).toContain(ja.common.loading);
    await settle(() => {
      page(TAB_PATHS.market).resolve(() => <Probe name="market" />);
    });
    expect(screen.getByText(`market at ${TAB_PATHS.market} tab a`)).toBeDefined();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it("shows the address's page at once: its title and a loading line until its code arrives; a loaded page comes at once", async () => {
    open(`#${TAB_PATHS.market}`);
    await settle(() => {
      page(TAB_PATHS.market).resolve(() => <Probe name="market" />);
    });
    await settle(() => {
      fireEvent.click(screen.getByRole('link', { name: 'to login' }));
    });
    expect(window.location.hash).toBe(`#${PAGE_PATHS.login}`);
    // not the page before, whose fields the user could type into
    expect(screen.queryByText(/^market at/)).toBeNull();
    expect(screen.getByRole('heading').textContent).toBe('titles.login');
    expect(screen.getByRole('status').textContent).toContain(ja.common.loading);
    await settle(() => {
      page(PAGE_PATHS.login).resolve(() => <Probe name="login" />);
    });
    expect(screen.getByText(`login at ${PAGE_PATHS.login} tab -`)).toBeDefined();

    await settle(() => {
      history.navigate(TAB_PATHS.market);
    });
    expect(screen.getByText(`market at ${TAB_PATHS.market} tab -`)).toBeDefined();
    expect(page(TAB_PATHS.market).calls).toBe(1);
    // one layout all along (its live events and tab bar are not started again): only the page changed
    expect(layout.mounts).toBe(1);
  });

  it("starts a page's code at the press on its link, and draws it at once at the click", async () => {
    const link = await pressOnLoginFromMarket();
    expect(page(PAGE_PATHS.login).calls).toBe(1);
    // still the page pressed on: a press opens nothing
    expect(screen.getByText(/^market at/)).toBeDefined();
    await settle(() => {
      page(PAGE_PATHS.login).resolve(() => <Probe name="login" />);
    });
    // a second press loads nothing more
    fireEvent.pointerDown(link);
    fireEvent.click(link);
    // drawn in the click's own render: no loading line in between
    expect(screen.getByText(`login at ${PAGE_PATHS.login} tab -`)).toBeDefined();
    expect(screen.queryByRole('status')).toBeNull();
    expect(page(PAGE_PATHS.login).calls).toBe(1);
  });

  it('leaves a page whose prefetch failed to the click, which loads it again', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const link = await pressOnLoginFromMarket();
    await settle(() => {
      page(PAGE_PATHS.login).reject(new Error('offline'));
    });
    // the failed prefetch shows nothing: the user has not opened the page
    expect(screen.getByText(/^market at/)).toBeDefined();
    await settle(() => {
      fireEvent.click(link);
    });
    expect(page(PAGE_PATHS.login).calls).toBe(2);
    expect(screen.getByRole('status').textContent).toContain(ja.common.loading);
    await settle(() => {
      page(PAGE_PATHS.login).resolve(() => <Probe name="login" />);
    });
    expect(screen.getByText(`login at ${PAGE_PATHS.login} tab -`)).toBeDefined();
    expect(logged).not.toHaveBeenCalled();
  });

  it("changes the page's query in place: the same page, no new history entry", async () => {
    open(`#${TAB_PATHS.market}?tab=a`);
    await settle(() => {
      page(TAB_PATHS.market).resolve(() => <Probe name="market" />);
    });
    const first = screen.getByText(/^market at/);
    const length = window.history.length;
    await settle(() => {
      fireEvent.click(screen.getByRole('button', { name: 'tab b' }));
    });
    expect(window.location.hash).toBe(`#${TAB_PATHS.market}?tab=b`);
    expect(window.history.length).toBe(length);
    expect(screen.getByText(`market at ${TAB_PATHS.market} tab b`)).toBe(first);
  });

  it('follows a back step', async () => {
    open(`#${TAB_PATHS.market}`);
    await settle(() => {
      page(TAB_PATHS.market).resolve(() => <Probe name="market" />);
    });
    await settle(() => {
      history.navigate(PAGE_PATHS.login);
    });
    await settle(() => {
      page(PAGE_PATHS.login).resolve(() => <Probe name="login" />);
    });
    expect(screen.getByText(/^login at/)).toBeDefined();
    const back = new Promise((resolve) => {
      window.addEventListener('popstate', resolve, { once: true });
    });
    await settle(() => {
      history.go(-1);
    });
    await act(() => back);
    expect(screen.getByText(`market at ${TAB_PATHS.market} tab -`)).toBeDefined();
  });

  it('leaves a modified click to the browser (a new tab), and links with a real address', async () => {
    open(`#${TAB_PATHS.market}`);
    await settle(() => {
      page(TAB_PATHS.market).resolve(() => <Probe name="market" />);
    });
    const link = screen.getByRole('link', { name: 'to login' });
    expect(link.getAttribute('href')).toBe(`#${PAGE_PATHS.login}`);
    const event = new MouseEvent('click', { bubbles: true, cancelable: true, ctrlKey: true });
    link.addEventListener('click', (e) => {
      e.preventDefault();
    });
    await settle(() => {
      link.dispatchEvent(event);
    });
    expect(history.location().pathname).toBe(TAB_PATHS.market);
  });

  it('says that a path the app has not does not exist, with a link home', () => {
    open('#/no/such/page');
    expect(screen.getByText(ja.common.pageNotFound)).toBeDefined();
    expect(screen.getByRole('link', { name: ja.common.goHome }).getAttribute('href')).toBe(
      `#${TAB_PATHS.home}`,
    );
  });

  it("offers a reload when a page's code cannot be fetched", async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    open(`#${TAB_PATHS.market}`);
    await settle(() => {
      page(TAB_PATHS.market).reject(new Error('chunk failed'));
    });
    expect(screen.getByRole('button', { name: ja.common.pageLoadFailed })).toBeDefined();
    expect(logged).toHaveBeenCalled();
  });

  it('offers a reload when a page throws, and draws the next page the user opens', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    open(`#${TAB_PATHS.market}`);
    await settle(() => {
      page(TAB_PATHS.market).resolve(() => {
        throw new Error('broken page');
      });
    });
    expect(screen.getByRole('button', { name: ja.common.pageLoadFailed })).toBeDefined();
    await settle(() => {
      history.navigate(PAGE_PATHS.login);
    });
    await settle(() => {
      page(PAGE_PATHS.login).resolve(() => <Probe name="login" />);
    });
    expect(screen.getByText(`login at ${PAGE_PATHS.login} tab -`)).toBeDefined();
  });
});
