import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useMatches } from 'react-router';
import { TAB_ORDER } from '@/shared/navigation/routes';
import { isRouteHandle } from '../route-handle';
import { AppNavBar } from './nav-bar';
import { OfflineBanner } from './offline-banner';
import { ReconnectingBanner } from './reconnecting-banner';
import { AppTabBar } from './tab-bar';
import { UpdateBanner } from './update-banner';

/**
 * The live events and the stale-quotes line (shell-effects.tsx), their own chunk. The boot script starts it
 * beside the first page's code (pages.ts's preloadPage), so the layout finds it loading or loaded.
 */
const ShellEffects = lazy(() => import('./shell-effects'));

/** Navigation bar on every page, the page in <main>, and the tab bar on tab pages. */
export function AppLayout() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const matches = useMatches();
  const handle = matches.map((m) => m.handle).findLast(isRouteHandle);
  const isTab = TAB_ORDER.some((p) => p === pathname);
  const title = handle === undefined ? t('common.appName') : t(handle.titleKey);
  return (
    <div className={`app-shell${isTab ? ' app-shell--tabs' : ''}`}>
      <AppNavBar title={title} showBack={!isTab && handle?.noBack !== true} />
      <OfflineBanner />
      <UpdateBanner />
      <ReconnectingBanner />
      <Suspense fallback={null}>
        <ShellEffects />
      </Suspense>
      <main className="app-main" id="main">
        <Outlet />
      </main>
      {isTab && <AppTabBar activePath={pathname} />}
    </div>
  );
}
