import { createHashRouter, type RouteObject } from 'react-router';
import { contractReady } from '@/shared/i18n/i18n';
import { createNavigator } from '@/shared/navigation/navigation';
import { installNavigator } from '@/shared/navigation/nav';
import { ROUTE_TABLE } from '@/shared/navigation/routes';
import { PageLoading } from '@/shared/ui/page-loading';
import { AppLayout } from './layout/app-layout';
import { loadPage, PAGES, type PageEntry } from './pages';
import { RouteError } from './route-error';
import type { RouteHandle } from './route-handle';

/** A page's route: its title and back arrow in the handle, its code loaded when it is first opened. */
function pageRoute(entry: PageEntry): RouteObject {
  const handle: RouteHandle = { titleKey: entry.titleKey, ...(entry.noBack === true && { noBack: true }) };
  return {
    path: entry.path,
    handle,
    // the entry's loader itself, called when the route is first opened: a page preloadPage started is not
    // fetched again; with the contract's messages unless the page is a first-screen one (ADR 0059)
    lazy: async () => ({ Component: await loadPage(entry, contractReady) }),
  };
}

export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    errorElement: <RouteError />,
    hydrateFallbackElement: <PageLoading />,
    children: PAGES.map(pageRoute),
  },
];

export function createAppRouter() {
  const router = createHashRouter(routes);
  installNavigator(
    createNavigator({
      routes: ROUTE_TABLE,
      navigate: (url, options) => {
        void router.navigate(url, { replace: options.replace === true });
      },
      back: () => {
        void router.navigate(-1);
      },
    }),
  );
  return router;
}
