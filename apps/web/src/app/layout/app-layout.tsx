import { lazy, Suspense, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from '@/shared/navigation/router';
import { TAB_ORDER } from '@/shared/navigation/routes';
import type { RouteHandle } from '../route-handle';
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

/** Navigation bar on every page (titled from the page's entry), the page in <main>, and the tab bar on tab pages. */
export function AppLayout({
  page: handle,
  children,
}: {
  page: RouteHandle | undefined;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
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
        {children}
      </main>
      {isTab && <AppTabBar activePath={pathname} />}
    </div>
  );
}
