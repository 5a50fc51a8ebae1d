import { DotLoading } from 'antd-mobile';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { switchTab } from '@/shared/navigation/nav';
import { TAB_PATHS } from '@/shared/navigation/routes';

const LOADING_MS = 600;

/** The entry page (# / and /subPackages/indexLoading/indexLoading): a short splash, then home. */
export function LoadingPage() {
  const { t } = useTranslation();
  useEffect(() => {
    const timer = setTimeout(() => {
      switchTab(TAB_PATHS.home);
    }, LOADING_MS);
    return () => {
      clearTimeout(timer);
    };
  }, []);
  return (
    <div className="loading-page" role="status" aria-live="polite">
      <div className="loading-page__logo" aria-hidden="true">
        兜
      </div>
      <p className="loading-page__name">{t('common.appName')}</p>
      <p className="loading-page__tagline">{t('loading.tagline')}</p>
      <DotLoading color="primary" />
      <span className="visually-hidden">{t('common.loading')}</span>
    </div>
  );
}
