import type { RouteTable } from './routes';

/**
 * The specification's navigation rules, free of the DOM and of the router so that they can be tested:
 * a plain navigate or redirect to a tab page is refused, switching tab to a non-tab page is refused,
 * an unknown page is refused and a repeated navigation to the same URL within the throttle is locked.
 * Every function returns null on success or the Error it refused with (also logged): these are
 * developer errors, not messages for users.
 */
export const NAVIGATION_LOCK_MS = 350;

export interface NavigateOptions {
  replace?: boolean;
}

export interface NavigatorDeps {
  routes: RouteTable;
  navigate: (url: string, options: NavigateOptions) => void;
  back: () => void;
  now?: () => number;
  log?: (error: Error) => void;
  lockMs?: number;
}

export interface Navigator {
  navigateTo: (url: string) => Error | null;
  redirectTo: (url: string) => Error | null;
  switchTab: (url: string) => Error | null;
  reLaunch: (url: string) => Error | null;
  navigateBack: () => void;
}

/** The path part of a URL such as "/subPackages/webview/webview?url=…", with a leading slash. */
export function pathOf(url: string): string {
  const path = url.split(/[?#]/, 1)[0] ?? '';
  return path.startsWith('/') ? path : `/${path}`;
}

function normalise(url: string): string {
  return url.startsWith('/') ? url : `/${url}`;
}

export function createNavigator(deps: NavigatorDeps): Navigator {
  const now = deps.now ?? (() => Date.now());
  const lockMs = deps.lockMs ?? NAVIGATION_LOCK_MS;
  const log =
    deps.log ??
    ((error: Error) => {
      console.error(error);
    });
  const isTab = (path: string) => deps.routes.tabs.includes(path);
  const exists = (path: string) => isTab(path) || deps.routes.pages.includes(path);
  let last: { url: string; at: number } | null = null;

  function fail(message: string): Error {
    const error = new Error(message);
    log(error);
    return error;
  }

  function locked(url: string): Error | null {
    const at = now();
    if (last !== null && last.url === url && at - last.at < lockMs) return fail(`${url} locked`);
    last = { url, at };
    return null;
  }

  function notFound(url: string, path: string): Error | null {
    return exists(path) ? null : fail(`page "${url}" is not found`);
  }

  return {
    navigateTo(rawUrl) {
      const url = normalise(rawUrl);
      const path = pathOf(url);
      const missing = notFound(url, path);
      if (missing) return missing;
      if (isTab(path)) return fail('can not navigateTo a tabbar page');
      const lock = locked(url);
      if (lock) return lock;
      deps.navigate(url, {});
      return null;
    },
    redirectTo(rawUrl) {
      const url = normalise(rawUrl);
      const path = pathOf(url);
      const missing = notFound(url, path);
      if (missing) return missing;
      if (isTab(path)) return fail('can not redirectTo a tabbar page');
      deps.navigate(url, { replace: true });
      return null;
    },
    switchTab(rawUrl) {
      const url = normalise(rawUrl);
      const path = pathOf(url);
      const missing = notFound(url, path);
      if (missing) return missing;
      if (!isTab(path)) return fail('can not switch to no-tabBar page');
      // Tabs take no query string (as in the specification's runtime).
      deps.navigate(path, { replace: true });
      return null;
    },
    reLaunch(rawUrl) {
      const url = normalise(rawUrl);
      const missing = notFound(url, pathOf(url));
      if (missing) return missing;
      deps.navigate(url, { replace: true });
      return null;
    },
    navigateBack() {
      deps.back();
    },
  };
}
