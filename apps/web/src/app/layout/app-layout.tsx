import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useMatches } from 'react-router';
import { useMessageEvents } from '@/shared/messages/messages-api';
import { TAB_ORDER } from '@/shared/navigation/routes';
import { useTradingEvents } from '@/domains/trading/use-trading-events';
import { isRouteHandle } from '../route-handle';
import { AppNavBar } from './nav-bar';
import { OfflineBanner } from './offline-banner';
import { ReconnectingBanner } from './reconnecting-banner';
import { StaleQuotesBanner } from './stale-quotes-banner';
import { AppTabBar } from './tab-bar';
import { UpdateBanner } from './update-banner';

/** Navigation bar on every page, the page in <main>, and the tab bar on tab pages. */
export function AppLayout() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const matches = useMatches();
  useTradingEvents();
  useMessageEvents();
  const handle = matches.map((m) => m.handle).findLast(isRouteHandle);
  const isTab = TAB_ORDER.some((p) => p === pathname);
  const title = handle === undefined ? t('common.appName') : t(handle.titleKey);
  return (
    <div className={`app-shell${isTab ? ' app-shell--tabs' : ''}`}>
      <AppNavBar title={title} showBack={!isTab && handle?.noBack !== true} />
      <OfflineBanner />
      <UpdateBanner />
      <ReconnectingBanner />
      <StaleQuotesBanner />
      <main className="app-main" id="main">
        <Outlet />
      </main>
      {isTab && <AppTabBar activePath={pathname} />}
    </div>
  );
}
