import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/shared/ui/empty-state';

/** /pages/market/market: nothing to list yet. */
export function MarketPage() {
  const { t } = useTranslation();
  return (
    <>
      <EmptyState description={t('market.intro')} />
    </>
  );
}
