import { useEffect, type ReactNode } from 'react';
import { tContract } from '../i18n/i18n';
import { redirectTo } from '../navigation/nav';
import { PAGE_PATHS } from '../navigation/routes';
import { useUserInfo } from '../session/user-info-query';
import { LoginPrompt } from './login-prompt';
import { PageLoading } from './page-loading';
import { showToast } from './overlays';

/**
 * Pages that move money (deposit, withdrawal, bank accounts) need a passed real-name verification: an
 * unverified user is told so and sent to the real-name page. Browsing needs none. Waits for the server's
 * answer when only the stored copy of the user info is known, so that a just-approved user is let in.
 */
export function RequireVerified({ children }: { children: ReactNode }) {
  const { userInfo, loggedIn, isPlaceholderData, isFetching } = useUserInfo();
  const settled = userInfo !== null && !(isPlaceholderData && isFetching);
  const status = settled ? userInfo.real_name_status : null;
  const verified = status === 'verified';
  useEffect(() => {
    if (status === null || status === 'verified') return;
    showToast(tContract(status === 'pending' ? 'errors.IDENTITY_PENDING' : 'errors.IDENTITY_REQUIRED'), 2000);
    redirectTo(PAGE_PATHS.realName);
  }, [status]);
  if (!loggedIn) return <LoginPrompt />;
  if (!verified) return <PageLoading />;
  return <>{children}</>;
}
