import {
  Component,
  useCallback,
  useEffect,
  useState,
  useSyncExternalStore,
  type ComponentType,
  type ErrorInfo,
  type ReactNode,
} from 'react';
import { contractReady } from '@/shared/i18n/i18n';
import { createHashHistory, type HashHistory, type Location } from '@/shared/navigation/hash-history';
import { createNavigator } from '@/shared/navigation/navigation';
import { installNavigator } from '@/shared/navigation/nav';
import { RouterContextProvider } from '@/shared/navigation/router';
import { ROUTE_TABLE } from '@/shared/navigation/routes';
import { PageLoading } from '@/shared/ui/page-loading';
import { AppLayout } from './layout/app-layout';
import { loadPage, pageAt, type PageEntry } from './pages';
import { RouteError } from './route-error';

/**
 * The app's router (ADR 0061): the page of the address's hash (pages.ts), its code loaded when it is first
 * opened, drawn in the layout. The screen always shows the page of the address: until a page's code has
 * arrived, the layout with its title and a loading line (the page before it is not left on screen to be
 * typed into). A path the app has not, a page whose code cannot be fetched and a page that throws show
 * RouteError.
 */

type View = { kind: 'page'; entry: PageEntry; Page: ComponentType } | { kind: 'notFound' };

/** Each page's code once loaded, drawn at once on the next visit. */
type Loaded = Map<PageEntry, ComponentType>;

/** The view of a location when it needs nothing loaded: a loaded page, or a path the app has not. */
function viewNow(location: Location, loaded: Loaded): View | undefined {
  const entry = pageAt(location.pathname);
  if (entry === undefined) return { kind: 'notFound' };
  const Page = loaded.get(entry);
  return Page === undefined ? undefined : { kind: 'page', entry, Page };
}

/** A page that throws while drawn shows RouteError until the user goes elsewhere. */
class PageBoundary extends Component<
  { location: Location; children: ReactNode },
  { location: Location; failed: boolean }
> {
  override state = { location: this.props.location, failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  static getDerivedStateFromProps(
    props: { location: Location },
    state: { location: Location; failed: boolean },
  ) {
    return props.location === state.location ? null : { location: props.location, failed: false };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    // the page's own error, for the developer tools
    console.error(error, info.componentStack);
  }

  override render() {
    return this.state.failed ? <RouteError /> : this.props.children;
  }
}

export function AppRouter({ history }: { history: HashHistory }) {
  const requested = useSyncExternalStore(history.listen, history.location);
  const [loaded] = useState<Loaded>(() => new Map());
  // a page's code has arrived: draw again
  const [, setArrivals] = useState(0);
  const [failedAt, setFailedAt] = useState<Location | null>(null);
  const ready = viewNow(requested, loaded);
  const failed = failedAt === requested;
  const waiting = ready === undefined && !failed;

  useEffect(() => {
    const entry = pageAt(requested.pathname);
    if (!waiting || entry === undefined) return;
    let current = true;
    loadPage(entry, contractReady).then(
      (Page) => {
        loaded.set(entry, Page);
        if (current) setArrivals((n) => n + 1);
      },
      (error: unknown) => {
        console.error(error);
        if (current) setFailedAt(requested);
      },
    );
    return () => {
      current = false;
    };
  }, [requested, waiting, loaded]);

  // a page about to be opened (a press on its link or tab): its code, kept for the click's draw
  const prefetch = useCallback(
    (to: string) => {
      const entry = pageAt(to);
      if (entry === undefined || loaded.has(entry)) return;
      loadPage(entry, contractReady).then(
        (Page) => {
          loaded.set(entry, Page);
        },
        () => undefined, // the click's own load shows the failure
      );
    },
    [loaded],
  );

  if (failed || ready?.kind === 'notFound') return <RouteError notFound={!failed} />;
  // one tree whether the page is drawn or loading: the layout (its live events, banners, tab bar) stays
  // mounted from page to page, and only <main>'s content changes
  return (
    <RouterContextProvider value={{ history, location: requested, prefetch }}>
      <PageBoundary location={requested}>
        <AppLayout page={ready?.entry ?? pageAt(requested.pathname)}>
          {ready === undefined ? <PageLoading /> : <ready.Page />}
        </AppLayout>
      </PageBoundary>
    </RouterContextProvider>
  );
}

/** The app's history, with the navigator (navigateTo, switchTab…) installed on it. */
export function createAppHistory(): HashHistory {
  const history = createHashHistory();
  installNavigator(
    createNavigator({
      routes: ROUTE_TABLE,
      navigate: (url, options) => {
        history.navigate(url, { replace: options.replace === true });
      },
      back: () => {
        history.go(-1);
      },
    }),
  );
  return history;
}
