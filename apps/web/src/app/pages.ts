import type { ComponentType } from 'react';
import { PAGE_PATHS, TAB_PATHS } from '@/shared/navigation/routes';
import type { RouteHandle } from './route-handle';

/**
 * Every page of the app: its path, its title and how its code is loaded (each page its own chunk, so that the
 * first screen stays small). A module of plain data and dynamic imports, without React or the router, so that
 * the boot script can start the first page's code before the app's own has arrived (preloadPage; issue 21).
 * router.tsx builds the routes from it.
 */
export interface PageEntry extends RouteHandle {
  path: string;
  load: () => Promise<ComponentType>;
  /**
   * A page a visitor often opens first, whose first render shows no contract message (ADR 0059): its route
   * does not wait for the contract's catalogue, which then comes at the first touch or key, or three seconds
   * after the load (main.tsx). Its components that show such a message once the user acts take it through
   * `useContractText`. Every other page waits for the catalogue with its code.
   */
  firstScreen?: true;
}

function page(
  path: string,
  titleKey: string,
  load: () => Promise<ComponentType>,
  extra: Omit<PageEntry, 'path' | 'titleKey' | 'load'> = {},
): PageEntry {
  return { path, titleKey, load, ...extra };
}

const FIRST_SCREEN = { firstScreen: true } as const;

const loadLoading = () => import('@/features/loading/components/loading-page').then((m) => m.LoadingPage);

export const PAGES: readonly PageEntry[] = [
  page(PAGE_PATHS.entry, 'titles.loading', loadLoading, { noBack: true, ...FIRST_SCREEN }),
  page(PAGE_PATHS.loading, 'titles.loading', loadLoading, { noBack: true, ...FIRST_SCREEN }),
  // The five tabs, in the specification's order.
  page(
    TAB_PATHS.home,
    'titles.home',
    () => import('@/features/home/components/home-page').then((m) => m.HomePage),
    FIRST_SCREEN,
  ),
  page(
    TAB_PATHS.market,
    'titles.market',
    () => import('@/features/market/components/market-page').then((m) => m.MarketPage),
    FIRST_SCREEN,
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
  page(
    PAGE_PATHS.login,
    'titles.login',
    () => import('@/features/auth/components/login-page').then((m) => m.LoginPage),
    FIRST_SCREEN,
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
    import('@/features/account/components/transaction-password-page').then((m) => m.TransactionPasswordPage),
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
  page(
    PAGE_PATHS.stockDetail,
    'titles.stockDetail',
    () => import('@/features/stock-detail/components/stock-detail-page').then((m) => m.StockDetailPage),
    FIRST_SCREEN,
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
    import('@/features/customer-service/components/customer-service-page').then((m) => m.CustomerServicePage),
  ),
];

/** A path as the router compares it: without the query or a trailing slash, and case-insensitive. */
function normalise(path: string): string {
  return (path.replace(/\/+$/, '') || '/').toLowerCase();
}

const byPath = new Map(PAGES.map((entry) => [normalise(entry.path), entry]));

/** The page a hash URL opens ('' and '#' open the entry page), or undefined for a path the app has not. */
export function pageAt(hash: string): PageEntry | undefined {
  const path = hash.replace(/^#/, '').split('?')[0] ?? '';
  return byPath.get(normalise(path === '' ? '/' : path));
}

/** The page's code, with the contract's catalogue unless it is a first-screen page (ADR 0059). */
export function loadPage(entry: PageEntry, contractReady: () => Promise<unknown>): Promise<ComponentType> {
  if (entry.firstScreen === true) return entry.load();
  return Promise.all([entry.load(), contractReady()]).then(([component]) => component);
}

/**
 * Starts loading the code of the page a hash URL opens, and the layout's lazy part drawn on every page (the
 * stale-quotes line, layout/shell-effects.tsx, and with a session the live events, layout/user-events.tsx),
 * without waiting for the router. The boot script calls it beside its import of the app (boot.ts), so that on a
 * phone the page's code downloads while the app's libraries arrive and run, not after them. The router's own
 * call later finds the module loaded; a failed load is left to the router, which shows the error.
 * `loadContract`: the contract's messages, for a page that waits for them (loadPage).
 */
export function preloadPage(
  hash: string,
  { loadContract, signedIn }: { loadContract: () => Promise<unknown>; signedIn: boolean },
): void {
  void import('./layout/shell-effects').catch(() => undefined);
  if (signedIn) void import('./layout/user-events').catch(() => undefined);
  const entry = pageAt(hash);
  if (entry) void loadPage(entry, loadContract).catch(() => undefined);
}
