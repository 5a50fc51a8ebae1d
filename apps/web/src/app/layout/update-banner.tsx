import { useTranslation } from 'react-i18next';
import { applyUpdate, useUpdateReady } from '../pwa/pwa';

/**
 * A new version of the app has been deployed and installed in the background (issue 21, ADR 0039): the user
 * is told and reloads when they choose, so an order being entered is never lost to a silent reload.
 */
export function UpdateBanner() {
  const { t } = useTranslation();
  const ready = useUpdateReady();
  if (!ready) return null;
  return (
    <div className="update-banner" role="status" data-testid="update-ready">
      <span>{t('connection.updateReady')}</span>
      <button type="button" className="update-banner__reload" onClick={applyUpdate}>
        {t('connection.updateReload')}
      </button>
    </div>
  );
}
