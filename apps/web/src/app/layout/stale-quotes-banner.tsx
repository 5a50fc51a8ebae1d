import { useTranslation } from 'react-i18next';
import { useQuotesStale } from '@/shared/realtime/realtime';

/**
 * A line under the navigation bar while the server's live stream is interrupted (its Redis lost): the prices
 * on screen stay, but may be out of date, and the user is told so until the stream resumes (ADR 0032).
 */
export function StaleQuotesBanner() {
  const { t } = useTranslation();
  const stale = useQuotesStale();
  if (!stale) return null;
  return (
    <div className="reconnecting-banner" role="status" data-testid="quotes-stale">
      {t('connection.quotesStale')}
    </div>
  );
}
