import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { reLaunch } from '@/shared/navigation/nav';
import { PAGE_PATHS } from '@/shared/navigation/routes';
import { PageLoading } from '@/shared/ui/page-loading';
import { showSuccess } from '@/shared/ui/overlays';
import { useLogout } from '../api/logout';

/** /subPackages/logout/logout: ends the session on the server, clears it locally and opens login. */
export function LogoutPage() {
  const { t } = useTranslation();
  const logout = useLogout();
  const started = useRef(false);
  const { mutate } = logout;

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    mutate(undefined, {
      onSettled: () => {
        showSuccess(t('logout.done'));
        reLaunch(PAGE_PATHS.login);
      },
    });
  }, [mutate, t]);

  return (
    <div className="page-center">
      <p>{t('logout.inProgress')}</p>
      <PageLoading />
    </div>
  );
}
