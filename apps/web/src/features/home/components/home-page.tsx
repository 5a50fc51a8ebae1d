import type { TUserInfo } from '@kabuto/contract';
import { usePrefetchQuery, useQuery } from '@tanstack/react-query';
import { NoticeBar } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { IndexCards } from '@/domains/market/index-cards';
import { marketListQuery } from '@/domains/market/market-api';
import { SimulatedBadge } from '@/domains/market/simulated-badge';
import { StockList } from '@/domains/market/stock-list';
import { useViewer } from '@/domains/market/viewer';
import { formatMoney, formatSignedMoney } from '@/shared/format/format';
import { useLocale } from '@/shared/i18n/use-locale';
import { navigateTo, switchTab } from '@/shared/navigation/nav';
import { ordersUrl, PAGE_PATHS, TAB_PATHS, webviewUrl } from '@/shared/navigation/routes';
import { useSession } from '@/shared/session/session';
import { useUserInfo } from '@/shared/session/user-info-query';
import { EmptyState } from '@/shared/ui/empty-state';
import { LoginPrompt } from '@/shared/ui/login-prompt';
import { PageLoading } from '@/shared/ui/page-loading';
import { BelowTheFold } from '@/shared/ui/below-the-fold';
import { bannersQuery } from '../api/banners';
import { HOT_STOCKS } from '../api/home-reads';
import { HomeBanners } from './home-banners';

/** The hot stocks' list: the ten with the largest turnover. */
/**
 * /pages/index/index, led as Japanese broker apps lead it by the account summary (logged in): then the
 * real-name prompt while unverified, the banners, the shortcuts, the fraud warning, the indices and the hot
 * stocks.
 */
export function HomePage() {
  const { t } = useTranslation();
  const { userInfo, loggedIn, isPending, fetchStatus } = useUserInfo();
  const viewer = useViewer();
  const lang = useSession((s) => s.lang);
  // What waits below the summary is fetched at once, not after the wait.
  usePrefetchQuery(bannersQuery(lang));
  usePrefetchQuery(marketListQuery(viewer, HOT_STOCKS));
  const unverified = loggedIn && userInfo !== null && userInfo.real_name_status !== 'verified';
  /*
   * Signed in with no copy of the user's info yet (none stored): whether the real-name prompt shows is not
   * known, so the prompt and everything below it are drawn together once the server has answered (or failed
   * to), under the summary that already holds its place. Drawn before, they would be pushed down by the prompt
   * (ADR 0038, 2026-11-26 night). With a stored copy (the usual return to the app) nothing waits.
   */
  const waiting = loggedIn && userInfo === null && isPending && fetchStatus !== 'idle';
  return (
    <>
      <h2 className="page-heading">{t('home.greeting')}</h2>
      <NoticeBar content={t('home.demoNotice')} color="info" wrap />
      {/* while the figures load, the summary keeps its place (with dashes), so nothing below it moves */}
      {loggedIn && <AccountSummary info={userInfo} />}
      {waiting ? (
        <PageLoading />
      ) : (
        <HomeBody loggedIn={loggedIn} userInfo={userInfo} unverified={unverified} />
      )}
    </>
  );
}

/** The home page under the account summary: the real-name prompt while unverified, then the rest. */
function HomeBody({
  loggedIn,
  userInfo,
  unverified,
}: {
  loggedIn: boolean;
  userInfo: TUserInfo | null;
  unverified: boolean;
}) {
  const { t } = useTranslation();
  return (
    <>
      {unverified && userInfo !== null && (
        <section className="notice-card" role="status" data-testid="real-name-prompt">
          <h2>{t('home.realNameTitle')}</h2>
          <p>
            {userInfo.real_name_status === 'pending' ? t('home.realNamePending') : t('home.realNameBody')}
          </p>
          <a
            className="notice-card__link"
            href={`#${PAGE_PATHS.realName}`}
            onClick={(event) => {
              event.preventDefault();
              navigateTo(PAGE_PATHS.realName);
            }}
          >
            {userInfo.real_name_status === 'pending' ? t('home.realNameStatusLink') : t('home.realNameLink')}{' '}
            ›
          </a>
        </section>
      )}
      {!loggedIn && <LoginPrompt message={t('home.loginPrompt')} />}
      <HomeBanners />
      <QuickLinks loggedIn={loggedIn} />
      <ServiceLinks />
      <FraudWarning />
      <SimulatedBadge />
      <BelowTheFold>
        <IndexCards />
        <HotStocks />
      </BelowTheFold>
    </>
  );
}

/**
 * Total assets, cash and the unrealised profit and loss, from getUserInfo (the server's figures); dashes
 * while they load.
 */
function AccountSummary({ info }: { info: TUserInfo | null }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const pl = info === null ? 0 : Number(info.floating_pl);
  const money = (amount: TUserInfo['total_assets'] | undefined) =>
    amount === undefined ? '—' : formatMoney(amount, locale);
  return (
    <section
      className="home-summary"
      aria-label={t('home.summary')}
      aria-busy={info === null}
      data-testid={info === null ? 'home-summary-loading' : 'home-summary'}
    >
      <div className="home-summary__total">
        <span className="home-summary__label">{t('user.totalAssets')}</span>
        <span className="home-summary__amount" data-testid="home-total-assets">
          {money(info?.total_assets)}
        </span>
      </div>
      <dl className="home-summary__grid">
        <div>
          <dt>{t('user.availableBalance')}</dt>
          <dd data-testid="home-available">{money(info?.available_balance)}</dd>
        </div>
        <div>
          <dt>{t('user.floatingPl')}</dt>
          <dd
            data-testid="home-floating-pl"
            className={pl > 0 ? 'price-rise' : pl < 0 ? 'price-fall' : undefined}
          >
            {info === null ? '—' : formatSignedMoney(info.floating_pl, locale)}
          </dd>
        </div>
      </dl>
    </section>
  );
}

/** The known script of investment fraud, and where to report it: the FSA's counselling office. */
function FraudWarning() {
  const { t } = useTranslation();
  return (
    <aside className="fraud-warning home-fraud" role="note" data-testid="home-fraud-warning">
      <strong>{t('home.fraudTitle')}</strong>
      <p>{t('home.fraudBody')}</p>
      <a
        href={`#${webviewUrl(FSA_COUNSELLING)}`}
        onClick={(event) => {
          event.preventDefault();
          navigateTo(webviewUrl(FSA_COUNSELLING));
        }}
      >
        {t('home.fraudLink')} ›
      </a>
    </aside>
  );
}

/** 金融庁 金融サービス利用者相談室 (the FSA's counselling office for financial services users). */
const FSA_COUNSELLING = 'https://www.fsa.go.jp/receipt/soudansitu/';

function HotStocks() {
  const { t } = useTranslation();
  const viewer = useViewer();
  const { data, isPending } = useQuery(marketListQuery(viewer, HOT_STOCKS));
  return (
    <section className="home-section" aria-labelledby="hot-stocks-title">
      <div className="home-section__head">
        <h2 id="hot-stocks-title" className="home-section__title">
          {t('market.hotStocks')}
        </h2>
        <span className="home-section__hint">{t('market.hotStocksHint')}</span>
      </div>
      {isPending ? (
        <PageLoading />
      ) : data === undefined || data.items.length === 0 ? (
        <EmptyState />
      ) : (
        <StockList rows={data.items} label={t('market.hotStocks')} testId="hot-stocks" />
      )}
      <a
        className="home-section__more"
        href={`#${TAB_PATHS.market}`}
        onClick={(event) => {
          event.preventDefault();
          switchTab(TAB_PATHS.market);
        }}
      >
        {t('market.toMarket')} ›
      </a>
    </section>
  );
}

/** The account links (logged in) and the trade screens (PTS, day trade) for everyone. */
function QuickLinks({ loggedIn }: { loggedIn: boolean }) {
  const { t } = useTranslation();
  return (
    <LinkGrid
      label={t('home.quickLinks')}
      links={[
        ...(loggedIn
          ? ([
              [ordersUrl(), t('home.ordersLink')],
              [PAGE_PATHS.transactionLog, t('home.transactionLogLink')],
              [PAGE_PATHS.recharge, t('home.rechargeLink')],
              [PAGE_PATHS.withdrawal, t('home.withdrawalLink')],
            ] as const)
          : []),
        [PAGE_PATHS.pts, t('home.ptsLink')],
        [PAGE_PATHS.dayTrade, t('home.dayTradeLink')],
        [PAGE_PATHS.customerService, t('home.customerServiceLink')],
      ]}
    />
  );
}

/** The offerings, products, dividends and loans, each named by its page's title, for everyone. */
function ServiceLinks() {
  const { t } = useTranslation();
  return (
    <LinkGrid
      label={t('home.services')}
      testId="service-links"
      links={[
        [PAGE_PATHS.ipo, t('ipo.title')],
        [PAGE_PATHS.blockTrade, t('ipo.blockTradeTitle')],
        [PAGE_PATHS.followProducts, t('products.title')],
        [PAGE_PATHS.dividends, t('dividends.title')],
        [PAGE_PATHS.loans, t('loans.titles.apply')],
      ]}
    />
  );
}

function LinkGrid({
  label,
  links,
  testId,
}: {
  label: string;
  links: readonly (readonly [string, string])[];
  testId?: string;
}) {
  return (
    <nav className="quick-links" aria-label={label} data-testid={testId}>
      {links.map(([to, text]) => (
        <a
          key={to}
          className="quick-links__item"
          href={`#${to}`}
          onClick={(event) => {
            event.preventDefault();
            navigateTo(to);
          }}
        >
          {text}
        </a>
      ))}
    </nav>
  );
}
