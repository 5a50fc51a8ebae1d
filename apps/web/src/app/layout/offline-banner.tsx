import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '@/shared/format/format';
import { useLocale } from '@/shared/i18n/use-locale';
import { useOnline } from '../pwa/pwa';

/** When the newest answer the page holds came from the server (0: none yet). */
function useLastAnswerAt(): number {
  const client = useQueryClient();
  const subscribe = useCallback(
    (onChange: () => void) => client.getQueryCache().subscribe(onChange),
    [client],
  );
  return useSyncExternalStore(subscribe, () =>
    client
      .getQueryCache()
      .getAll()
      .reduce((newest, query) => Math.max(newest, query.state.dataUpdatedAt), 0),
  );
}

/**
 * A line under the navigation bar while the device has no network (issue 21): the app shell opens from the
 * service worker's cache, but prices and balances never do. Whatever the page still shows from before is
 * marked with the time it came from the server, and is not presented as current.
 */
export function OfflineBanner() {
  const { t } = useTranslation();
  const locale = useLocale();
  const online = useOnline();
  const lastAnswerAt = useLastAnswerAt();
  if (online) return null;
  return (
    <div className="reconnecting-banner offline-banner" role="status" data-testid="offline">
      {lastAnswerAt === 0
        ? t('connection.offline')
        : t('connection.offlineAsOf', { time: formatTime(new Date(lastAnswerAt), locale) })}
    </div>
  );
}
