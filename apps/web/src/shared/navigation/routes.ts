/** Page paths exactly as the specification writes them (hash routes under /japan1/). */
export const TAB_PATHS = {
  home: '/pages/index/index',
  market: '/pages/market/market',
  trade: '/pages/jiaoyi/jiaoyi',
  news: '/pages/record/record',
  user: '/pages/user/user',
} as const;

export const PAGE_PATHS = {
  entry: '/',
  loading: '/subPackages/indexLoading/indexLoading',
  login: '/subPackages/login/login',
  register: '/subPackages/register/register',
  logout: '/subPackages/logout/logout',
  settings: '/subPackages/seting/seting',
  changePassword: '/subPackages/changePassword/changePassword',
  /** Settings → passkeys (issue 22; no route in the spec; ours). */
  passkeys: '/subPackages/passkeys/passkeys',
  /** Settings → signed-in devices (issue 22; ours). */
  sessions: '/subPackages/passkeys/sessions',
  transactionPassword: '/subPackages/transactionPassions/transactionPassions',
  switchLanguage: '/subPackages/switchLanguage/switchLanguage',
  userAgreement: '/subPackages/deal/userDeal',
  webview: '/subPackages/webview/webview',
  search: '/subPackages/search/search',
  stockDetail: '/subPackages/index/gupiaoDetail/gupiaoDetail',
  orders: '/subPackages/order/order',
  orderDetail: '/subPackages/jiaoyi/jiaoyiDetail/jiaoyiDetail',
  transactionLog: '/subPackages/transactionLog/transactionLog',
  /** The PTS (pre-market) trade screen: stock list and application list (no route in the spec; ours). */
  pts: '/subPackages/index/pts/pts',
  /** The day (spot) trade screen of specification §2: day-trade margin. */
  dayTrade: '/subPackages/index/rinei/index',
  realName: '/subPackages/real_name/real_name',
  bankAccount: '/subPackages/bankAccount/bankAccount',
  accountLog: '/subPackages/bankAccount/accountLog',
  recharge: '/subPackages/recharge/recharge',
  withdrawal: '/subPackages/withdrawal/withdrawal',
  message: '/subPackages/message/message',
  customerService: '/subPackages/customerService/customerService',
  /** Tax, NISA and the annual trade report (issue 23; no route in the spec; ours). */
  tax: '/subPackages/tax/tax',
  /** IPO applications and winning history (issue 16). */
  ipo: '/subPackages/index/ipo/ipo',
  /** Off-auction distributions (立会外分売), the specification's "block trades" (issue 16). */
  blockTrade: '/subPackages/index/dadan/dadan',
  /** Dividends: upcoming and received (issue 17). */
  dividends: '/subPackages/index/hongli/hongli',
  /** Follow-up products (published model-portfolio funds) and their records (issue 17). */
  followProducts: '/subPackages/index/gendan/gendan',
  followRecords: '/subPackages/index/gendan/record',
  /** Credit loans, their records and the loan agreement (issue 18). */
  loans: '/subPackages/index/rongzi/rongzi',
  loanRecords: '/subPackages/index/rongzi/record',
  loanAgreement: '/subPackages/deal/loanDeal',
  /** An article's details, and the confirm page (issue 19). */
  details: '/subPackages/details/details',
  confirm: '/subPackages/confirm/confirm',
} as const;

/** The webview page showing an address (the deposit URL of getCzhiurl, a help page...). */
export const webviewUrl = (url: string) => `${PAGE_PATHS.webview}?url=${encodeURIComponent(url)}`;

/** The stock detail page of a code. */
export const stockDetailUrl = (code: string) => `${PAGE_PATHS.stockDetail}?code=${encodeURIComponent(code)}`;

/** The order detail page of an order number. */
export const orderDetailUrl = (orderNo: string) =>
  `${PAGE_PATHS.orderDetail}?order_no=${encodeURIComponent(orderNo)}`;

/** The orders page on one of its tabs. */
export type OrdersTab = 'holding' | 'closed' | 'pending' | 'ipo';
export const ordersUrl = (tab: OrdersTab = 'holding') => `${PAGE_PATHS.orders}?tab=${tab}`;

export type TabPath = (typeof TAB_PATHS)[keyof typeof TAB_PATHS];
export type PagePath = (typeof PAGE_PATHS)[keyof typeof PAGE_PATHS];

/** Tabs in the specification's order. */
export const TAB_ORDER: readonly TabPath[] = [
  TAB_PATHS.home,
  TAB_PATHS.market,
  TAB_PATHS.trade,
  TAB_PATHS.news,
  TAB_PATHS.user,
];

export const ROUTE_TABLE = {
  tabs: TAB_ORDER,
  pages: Object.values(PAGE_PATHS),
} satisfies RouteTable;

export interface RouteTable {
  /** Paths of tab pages. */
  readonly tabs: readonly string[];
  /** Paths of every other registered page. */
  readonly pages: readonly string[];
}
