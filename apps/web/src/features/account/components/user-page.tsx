import { maskPhone, type TUserInfo } from '@kabuto/contract';
import { Badge, List } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { formatMoney, formatSignedMoney } from '@/shared/format/format';
import { useUnreadCount } from '@/shared/messages/messages-api';
import { ordersUrl, PAGE_PATHS } from '@/shared/navigation/routes';
import { useUserInfo } from '@/shared/session/user-info-query';
import { confirmLogout } from '@/shared/ui/confirm-logout';
import { LoginPrompt } from '@/shared/ui/login-prompt';
import { MenuButton, MenuLink } from '@/shared/ui/menu-item';
import { PageLoading } from '@/shared/ui/page-loading';
import { useLocale } from '@/shared/i18n/use-locale';
import { BrokerageCard } from './brokerage-card';

/** /pages/user/user: the account summary from getUserInfo and the account menu. */
export function UserPage() {
  const { t } = useTranslation();
  const { userInfo, loggedIn, isFetching } = useUserInfo();

  if (!loggedIn) return <LoginPrompt />;
  if (userInfo === null) return <PageLoading />;
  return (
    <>
      <AccountSummary info={userInfo} refreshing={isFetching} />
      <BrokerageCard />
      <AccountMenu />
      <p className="visually-hidden" aria-live="polite">
        {isFetching ? t('user.refreshing') : ''}
      </p>
    </>
  );
}

function AccountSummary({ info, refreshing }: { info: TUserInfo; refreshing: boolean }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const pl = info.floating_pl;
  const plClass = pl > 0 ? 'price-rise' : pl < 0 ? 'price-fall' : '';
  return (
    <section className="account-card" aria-label={t('titles.user')} aria-busy={refreshing}>
      <div className="account-card__head">
        <div>
          <div className="account-card__label">{t('user.phone')}</div>
          <div className="account-card__phone" data-testid="user-phone">
            {maskPhone(info.phone)}
          </div>
        </div>
        <div className="account-card__status">
          {t('user.realName')}: {t(`realNameStatus.${info.real_name_status}`)}
        </div>
      </div>
      <div className="account-card__total">
        <div className="account-card__label">{t('user.totalAssets')}</div>
        <div className="account-card__amount" data-testid="total-assets">
          {formatMoney(info.total_assets, locale)}
        </div>
      </div>
      <dl className="account-card__grid">
        <div>
          <dt>{t('user.availableBalance')}</dt>
          <dd data-testid="available-balance">{formatMoney(info.available_balance, locale)}</dd>
        </div>
        <div>
          <dt>{t('user.usedFunds')}</dt>
          <dd data-testid="used-funds">{formatMoney(info.used_funds, locale)}</dd>
        </div>
        <div>
          <dt>{t('user.floatingPl')}</dt>
          <dd data-testid="floating-pl" className={plClass}>
            {formatSignedMoney(pl, locale)}
          </dd>
        </div>
        <div>
          <dt>{t('user.creditScore')}</dt>
          <dd data-testid="credit-score">{info.credit_score}</dd>
        </div>
        <div>
          <dt>{t('user.invitationCode')}</dt>
          <dd data-testid="invitation-code">{info.invitation_code}</dd>
        </div>
      </dl>
    </section>
  );
}

function AccountMenu() {
  const { t } = useTranslation();
  const unread = useUnreadCount();
  return (
    <nav aria-label={t('user.menuLabel')}>
      <List>
        <MenuLink to={PAGE_PATHS.recharge}>{t('user.rechargeMenu')}</MenuLink>
        <MenuLink to={PAGE_PATHS.withdrawal}>{t('user.withdrawalMenu')}</MenuLink>
        <MenuLink to={PAGE_PATHS.bankAccount}>{t('user.bankAccountMenu')}</MenuLink>
        <MenuLink to={PAGE_PATHS.realName}>{t('user.realNameMenu')}</MenuLink>
        <MenuLink
          to={PAGE_PATHS.message}
          extra={
            unread > 0 ? (
              <span
                data-testid="unread-badge"
                data-count={unread}
                role="status"
                aria-label={t('messages.unreadCount', { n: unread })}
              >
                <Badge content={unread > 99 ? '99+' : unread} />
              </span>
            ) : undefined
          }
        >
          {t('user.messageMenu')}
        </MenuLink>
        <MenuLink to={PAGE_PATHS.customerService}>{t('user.customerServiceMenu')}</MenuLink>
        <MenuLink to={ordersUrl()}>{t('user.ordersMenu')}</MenuLink>
        <MenuLink to={PAGE_PATHS.transactionLog}>{t('user.transactionLogMenu')}</MenuLink>
        <MenuLink to={PAGE_PATHS.followRecords}>{t('products.recordsTitle')}</MenuLink>
        <MenuLink to={PAGE_PATHS.dividends}>{t('dividends.title')}</MenuLink>
        <MenuLink to={PAGE_PATHS.loanRecords}>{t('loans.titles.records')}</MenuLink>
        <MenuLink to={PAGE_PATHS.tax}>{t('tax.menu')}</MenuLink>
        <MenuLink to={PAGE_PATHS.settings}>{t('titles.settings')}</MenuLink>
        <MenuLink to={PAGE_PATHS.changePassword}>{t('settings.changePassword')}</MenuLink>
        <MenuLink to={PAGE_PATHS.transactionPassword}>{t('settings.transactionPassword')}</MenuLink>
        <MenuLink to={PAGE_PATHS.switchLanguage}>{t('settings.language')}</MenuLink>
        <MenuLink to={PAGE_PATHS.userAgreement}>{t('settings.userAgreement')}</MenuLink>
        <MenuButton onClick={() => void confirmLogout()}>{t('settings.logout')}</MenuButton>
      </List>
    </nav>
  );
}
