import { useTranslation } from 'react-i18next';
import { useStaleSeconds } from '@/shared/market-clock/staleness';

/** The visible "delayed" label of a stale quote. */
export function StaleMarker() {
  const { t } = useTranslation();
  const seconds = useStaleSeconds();
  const label = t('market.staleLabel', { seconds });
  return (
    <span className="stale-marker" role="status" aria-label={label} title={label} data-testid="stale-marker">
      {t('market.stale')}
    </span>
  );
}
