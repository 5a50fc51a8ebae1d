import { useTranslation } from 'react-i18next';
import { useReconnecting } from '@kabuto/client/read-retry';

/** A line under the navigation bar while the app retries reads the server does not answer (ADR 0032). */
export function ReconnectingBanner() {
  const { t } = useTranslation();
  const reconnecting = useReconnecting();
  if (!reconnecting) return null;
  return (
    <div className="reconnecting-banner" role="status" data-testid="reconnecting">
      {t('connection.reconnecting')}
    </div>
  );
}
