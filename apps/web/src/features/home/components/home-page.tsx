import { NoticeBar } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useUserInfo } from '@/shared/session/user-info-query';
import { EmptyState } from '@/shared/ui/empty-state';
import { LoginPrompt } from '@/shared/ui/login-prompt';

/** /pages/index/index */
export function HomePage() {
  const { t } = useTranslation();
  const { userInfo, loggedIn } = useUserInfo();
  const unverified = loggedIn && userInfo !== null && userInfo.real_name_status !== 'verified';
  return (
    <>
      <h2 className="page-heading">{t('home.greeting')}</h2>
      <NoticeBar content={t('home.demoNotice')} color="info" wrap />
      {unverified && (
        <section className="notice-card" role="status" data-testid="real-name-prompt">
          <h2>{t('home.realNameTitle')}</h2>
          <p>{t('home.realNameBody')}</p>
        </section>
      )}
      {!loggedIn && <LoginPrompt message={t('home.loginPrompt')} />}
      <EmptyState />
    </>
  );
}
