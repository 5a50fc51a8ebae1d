import { Alert } from 'antd';
import { useLocale } from '@/shared/locale';
import { useReconnecting } from '@kabuto/client/read-retry';

/** A notice above the page while the console retries reads the server does not answer (ADR 0034). */
export function ReconnectingAlert() {
  const { t } = useLocale();
  const reconnecting = useReconnecting();
  if (!reconnecting) return null;
  return (
    <Alert
      type="warning"
      showIcon
      banner
      role="status"
      data-testid="reconnecting"
      message={t('common.reconnecting')}
      style={{ marginBottom: 16 }}
    />
  );
}
