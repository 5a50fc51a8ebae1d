import { i18n } from '../i18n/i18n';
import { navigateTo } from '../navigation/nav';
import { PAGE_PATHS } from '../navigation/routes';
import { dialog } from './overlays';

/** Asks before logging out, then opens the logout page. */
export async function confirmLogout(): Promise<void> {
  const ok = await dialog.confirm({
    content: i18n.t('logout.confirm'),
    confirmText: i18n.t('common.ok'),
    cancelText: i18n.t('common.cancel'),
  });
  if (ok) navigateTo(PAGE_PATHS.logout);
}
