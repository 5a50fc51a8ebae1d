import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { marketStatusQuery } from '@/shared/market-clock/market-status';

/** Says that prices are simulated (and, in always-open mode, that the market is kept open for the demo). */
export function SimulatedBadge({ className }: { className?: string }) {
  const { t } = useTranslation();
  const { data: status } = useQuery(marketStatusQuery());
  if (status !== undefined && !status.simulated) return null;
  return (
    <p
      className={`simulated-badge${className === undefined ? '' : ` ${className}`}`}
      data-testid="simulated-badge"
      title={t('market.simulatedHint')}
    >
      <span className="simulated-badge__label">{t('market.simulated')}</span>
      {status?.always_open === true && (
        <span className="simulated-badge__clock" data-testid="always-open-badge">
          {t('market.alwaysOpen')}
        </span>
      )}
    </p>
  );
}
