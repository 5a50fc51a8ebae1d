/**
 * The app's history: the page is in the address's hash (`#/pages/index/index?tab=x`), as the
 * specification's runtime and every link shared so far have it, so the server only ever serves index.html.
 * The browser's own history holds the entries: a push is `history.pushState`, a back step (the browser's
 * button, or navigateBack's `go(-1)`) its `popstate`.
 */

/**
 * Where the app is: the page's path and its query (`?…`, or ''). Each navigation makes a new object, even to
 * the same address, so two visits are told apart by identity.
 */
export interface Location {
  pathname: string;
  search: string;
}

export interface HashHistory {
  location: () => Location;
  /** `to`: a path with its query, e.g. `/pages/index/index?tab=x`; `?tab=y` keeps the current path. */
  navigate: (to: string, options?: { replace?: boolean }) => void;
  go: (delta: number) => void;
  /** Calls `listener` after each change of location; answers the function that stops it. */
  listen: (listener: () => void) => () => void;
  /** The `href` of a link to `to`. */
  href: (to: string) => string;
  dispose: () => void;
}

/** The path and query of a hash (`#/a?b=1`, `#a`, `''`); a second `#` and what follows are not part of either. */
export function parseHash(hash: string): { pathname: string; search: string } {
  const path = (hash.startsWith('#') ? hash.slice(1) : hash).split('#', 1)[0] ?? '';
  const at = path.indexOf('?');
  const pathname = at === -1 ? path : path.slice(0, at);
  const search = at === -1 ? '' : path.slice(at);
  return {
    pathname: pathname === '' ? '/' : pathname.startsWith('/') ? pathname : `/${pathname}`,
    search: search === '?' ? '' : search,
  };
}

export function createHashHistory(win: Window = window): HashHistory {
  const listeners = new Set<() => void>();
  const read = (): Location => parseHash(win.location.hash);
  let location = read();

  const emit = () => {
    for (const listener of [...listeners]) listener();
  };

  // a back or forward step, an address typed in the bar, or a plain `<a href="#…">` followed
  const onPop = () => {
    location = read();
    emit();
  };
  win.addEventListener('popstate', onPop);

  const resolve = (to: string): string => {
    const current = location.pathname;
    return to.startsWith('?') ? `${current}${to}` : to.startsWith('/') ? to : `/${to}`;
  };

  return {
    location: () => location,
    navigate(to, options = {}) {
      const url = `#${resolve(to)}`;
      if (options.replace === true) win.history.replaceState(null, '', url);
      else win.history.pushState(null, '', url);
      location = read();
      emit();
    },
    go(delta) {
      win.history.go(delta);
    },
    listen(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    href: (to) => `#${resolve(to)}`,
    dispose() {
      win.removeEventListener('popstate', onPop);
      listeners.clear();
    },
  };
}
