import {
  createContext,
  useContext,
  useMemo,
  type AnchorHTMLAttributes,
  type MouseEvent,
  type PointerEvent,
  type ReactNode,
} from 'react';
import type { HashHistory, Location } from './hash-history';

/**
 * What a page reads of the router (app/router.tsx): the location it is drawn for, its query and links. The
 * location is the one on screen: while the next page's code loads, the current page
 * keeps its own.
 */
interface RouterValue {
  history: HashHistory;
  location: Location;
  /** Starts loading the code of the page `to` opens, if it is not loaded yet. */
  prefetch: (to: string) => void;
}

const RouterContext = createContext<RouterValue | null>(null);

export function RouterContextProvider({ value, children }: { value: RouterValue; children: ReactNode }) {
  return <RouterContext value={value}>{children}</RouterContext>;
}

function useRouter(): RouterValue {
  const value = useContext(RouterContext);
  if (value === null) throw new Error('outside the router');
  return value;
}

/**
 * The router's prefetch, for a control that opens a page without a Link (the tab bar): called at the press,
 * it starts the page's code 50-150 ms before the click that opens it (ADR 0061's amendment).
 */
export function usePrefetch(): (to: string) => void {
  return useRouter().prefetch;
}

export function useLocation(): Location {
  return useRouter().location;
}

type SetSearchParams = (next: Record<string, string>, options?: { replace?: boolean }) => void;

/** The page's query, and a way to change it (a navigation to the same page with the new query). */
export function useSearchParams(): [URLSearchParams, SetSearchParams] {
  const { history, location } = useRouter();
  const params = useMemo(() => new URLSearchParams(location.search), [location.search]);
  const set = useMemo<SetSearchParams>(
    () => (next, options) => {
      const search = new URLSearchParams(next).toString();
      history.navigate(search === '' ? location.pathname : `${location.pathname}?${search}`, options);
    },
    [history, location.pathname],
  );
  return [params, set];
}

/**
 * A link to a page of the app: a real `<a href="#/…">` (a new tab, a copied address and a screen reader
 * all see where it leads); a plain click is pushed by the router, or handled by `onClick` if it prevents it.
 * The press (a finger down, a mouse button down) starts loading the page's code, so that a page opened for
 * the first time is often there by the click.
 */
export function Link({
  to,
  onClick,
  onPointerDown,
  ...props
}: { to: string } & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'>) {
  const { history, prefetch } = useRouter();
  const press = (event: PointerEvent<HTMLAnchorElement>) => {
    onPointerDown?.(event);
    prefetch(to);
  };
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    const plain = event.button === 0 && !event.metaKey && !event.altKey && !event.ctrlKey && !event.shiftKey;
    if (event.defaultPrevented || !plain || (props.target !== undefined && props.target !== '_self')) return;
    event.preventDefault();
    history.navigate(to);
  };
  return <a {...props} href={history.href(to)} onClick={follow} onPointerDown={press} />;
}
