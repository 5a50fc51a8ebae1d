import { createHashRouter, matchRoutes, type RouteObject } from 'react-router';
import { createNavigator } from '@/shared/navigation/navigation';
import { installNavigator } from '@/shared/navigation/nav';
import { PAGE_PATHS, ROUTE_TABLE, TAB_PATHS } from '@/shared/navigation/routes';
import { PageLoading } from '@/shared/ui/page-loading';
import { AppLayout, preloadShellEffects } from './layout/app-layout';
import { RouteError } from './route-error';
import type { RouteHandle } from './route-handle';

/** Pages are loaded per route (lazy) so that the first screen stays small. */
function page(
  path: string,
  titleKey: string,
  load: () => Promise<React.ComponentType>,
  extra: Omit<RouteHandle, 'titleKey'> = {},
): RouteObject {
  return {
    path,
    handle: { titleKey, ...extra } satisfies RouteHandle,
    lazy: async () => ({ Component: await load() }),
  };
}

const loadLoading = () => import('@/features/loading/components/loading-page').then((m) => m.LoadingPage);

export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    errorElement: <RouteError />,
    hydrateFallbackElement: <PageLoading />,
    children: [
      page(PAGE_PATHS.entry, 'titles.loading', loadLoading, { noBack: true }),
      page(PAGE_PATHS.loading, 'titles.loading', loadLoading, { noBack: true }),
      // The five tabs, in the specification's order.
      page(TAB_PATHS.home, 'titles.home', () =>
        import('@/features/home/components/home-page').then((m) => m.HomePage),
      ),
      page(TAB_PATHS.market, 'titles.market', () =>
        import('@/features/market/components/market-page').then((m) => m.MarketPage),
      ),
      page(TAB_PATHS.trade, 'titles.trade', () =>
        import('@/features/trade/components/trade-page').then((m) => m.TradePage),
      ),
      page(TAB_PATHS.news, 'titles.news', () =>
        import('@/features/news/components/news-page').then((m) => m.NewsPage),
      ),
      page(TAB_PATHS.user, 'titles.user', () =>
        import('@/features/account/components/user-page').then((m) => m.UserPage),
      ),
      page(PAGE_PATHS.login, 'titles.login', () =>
        import('@/features/auth/components/login-page').then((m) => m.LoginPage),
      ),
      page(PAGE_PATHS.register, 'titles.register', () =>
        import('@/features/auth/components/register-page').then((m) => m.RegisterPage),
      ),
      page(
        PAGE_PATHS.logout,
        'titles.logout',
        () => import('@/features/auth/components/logout-page').then((m) => m.LogoutPage),
        { noBack: true },
      ),
      page(PAGE_PATHS.settings, 'titles.settings', () =>
        import('@/features/settings/components/settings-page').then((m) => m.SettingsPage),
      ),
      page(PAGE_PATHS.switchLanguage, 'titles.switchLanguage', () =>
        import('@/features/settings/components/switch-language-page').then((m) => m.SwitchLanguagePage),
      ),
      page(PAGE_PATHS.passkeys, 'titles.passkeys', () =>
        import('@/features/passkeys/components/passkeys-page').then((m) => m.PasskeysPage),
      ),
      page(PAGE_PATHS.sessions, 'titles.sessions', () =>
        import('@/features/sessions/components/sessions-page').then((m) => m.SessionsPage),
      ),
      page(PAGE_PATHS.changePassword, 'titles.changePassword', () =>
        import('@/features/account/components/change-password-page').then((m) => m.ChangePasswordPage),
      ),
      page(PAGE_PATHS.transactionPassword, 'titles.transactionPassword', () =>
        import('@/features/account/components/transaction-password-page').then(
          (m) => m.TransactionPasswordPage,
        ),
      ),
      page(PAGE_PATHS.userAgreement, 'titles.userAgreement', () =>
        import('@/features/legal/components/user-agreement-page').then((m) => m.UserAgreementPage),
      ),
      page(PAGE_PATHS.webview, 'titles.webview', () =>
        import('@/features/webview/components/webview-page').then((m) => m.WebviewPage),
      ),
      page(PAGE_PATHS.search, 'titles.search', () =>
        import('@/features/search/components/search-page').then((m) => m.SearchPage),
      ),
      page(PAGE_PATHS.stockDetail, 'titles.stockDetail', () =>
        import('@/features/stock-detail/components/stock-detail-page').then((m) => m.StockDetailPage),
      ),
      page(PAGE_PATHS.details, 'titles.details', () =>
        import('@/features/news/components/news-details-page').then((m) => m.NewsDetailsPage),
      ),
      page(PAGE_PATHS.orders, 'titles.orders', () =>
        import('@/features/orders/components/orders-page').then((m) => m.OrdersPage),
      ),
      page(PAGE_PATHS.orderDetail, 'titles.orderDetail', () =>
        import('@/features/orders/components/order-detail-page').then((m) => m.OrderDetailPage),
      ),
      page(PAGE_PATHS.followProducts, 'products.title', () =>
        import('@/features/products/components/products-page').then((m) => m.ProductsPage),
      ),
      page(PAGE_PATHS.followRecords, 'products.recordsTitle', () =>
        import('@/features/products/components/records-page').then((m) => m.ProductRecordsPage),
      ),
      page(PAGE_PATHS.dividends, 'dividends.title', () =>
        import('@/features/dividends/components/dividends-page').then((m) => m.DividendsPage),
      ),
      page(PAGE_PATHS.ipo, 'ipo.title', () =>
        import('@/features/ipo/components/ipo-page').then((m) => m.IpoPage),
      ),
      page(PAGE_PATHS.blockTrade, 'ipo.blockTradeTitle', () =>
        import('@/features/ipo/components/ipo-page').then((m) => m.BlockTradePage),
      ),
      page(PAGE_PATHS.tax, 'tax.title', () =>
        import('@/features/tax/components/tax-page').then((m) => m.TaxPage),
      ),
      page(PAGE_PATHS.transactionLog, 'titles.transactionLog', () =>
        import('@/features/ledger/components/transaction-log-page').then((m) => m.TransactionLogPage),
      ),
      page(PAGE_PATHS.pts, 'titles.pts', () =>
        import('@/features/pts/components/pts-page').then((m) => m.PtsPage),
      ),
      page(PAGE_PATHS.dayTrade, 'titles.dayTrade', () =>
        import('@/features/day-trade/components/day-trade-page').then((m) => m.DayTradePage),
      ),
      page(PAGE_PATHS.realName, 'titles.realName', () =>
        import('@/features/funds/components/real-name-page').then((m) => m.RealNamePage),
      ),
      page(PAGE_PATHS.bankAccount, 'titles.bankAccount', () =>
        import('@/features/funds/components/bank-account-page').then((m) => m.BankAccountPage),
      ),
      page(PAGE_PATHS.accountLog, 'titles.accountLog', () =>
        import('@/features/funds/components/account-log-page').then((m) => m.AccountLogPage),
      ),
      page(PAGE_PATHS.recharge, 'titles.recharge', () =>
        import('@/features/funds/components/recharge-page').then((m) => m.RechargePage),
      ),
      page(PAGE_PATHS.withdrawal, 'titles.withdrawal', () =>
        import('@/features/funds/components/withdrawal-page').then((m) => m.WithdrawalPage),
      ),
      page(PAGE_PATHS.loans, 'loans.titles.apply', () =>
        import('@/features/loans/components/loans-page').then((m) => m.LoansPage),
      ),
      page(PAGE_PATHS.loanRecords, 'loans.titles.records', () =>
        import('@/features/loans/components/loan-records-page').then((m) => m.LoanRecordsPage),
      ),
      page(PAGE_PATHS.loanAgreement, 'loans.titles.agreement', () =>
        import('@/features/loans/components/loan-agreement-page').then((m) => m.LoanAgreementPage),
      ),
      page(PAGE_PATHS.message, 'titles.message', () =>
        import('@/features/messages/components/message-page').then((m) => m.MessagePage),
      ),
      page(PAGE_PATHS.confirm, 'confirmPurchase.title', () =>
        import('@/features/ipo/components/confirm-page').then((m) => m.ConfirmPage),
      ),
      page(PAGE_PATHS.customerService, 'titles.customerService', () =>
        import('@/features/customer-service/components/customer-service-page').then(
          (m) => m.CustomerServicePage,
        ),
      ),
    ],
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

/**
 * Starts loading the code of the page a hash URL opens, without waiting for the router: the app's first page
 * is then fetched while the catalogues load, not after the first render asks for it (one round trip less
 * before the first paint on a phone; issue 21). The router's own call later finds the module loaded.
 */
export function preloadPage(hash: string): void {
  // every page is drawn inside the layout, whose own lazy part is fetched with the page's code
  preloadShellEffects();
  const path = hash.replace(/^#/, '').split('?')[0] || '/';
  for (const { route } of matchRoutes(routes, path) ?? []) {
    if (typeof route.lazy === 'function') void route.lazy().catch(() => undefined);
  }
}
