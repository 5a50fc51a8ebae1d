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

/** The live events and the stale-quotes line, loaded after the first paint (shell-effects.tsx). */
const loadShellEffects = () => import('./shell-effects');
const ShellEffects = lazy(loadShellEffects);

/**
 * Starts loading the shell effects beside the first page's code (router.tsx's preloadPage), instead of once
 * the layout has rendered: one round trip fewer before the page is complete on a slow line (issue 21).
 */
export function preloadShellEffects(): void {
  void loadShellEffects().catch(() => undefined);
}

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
