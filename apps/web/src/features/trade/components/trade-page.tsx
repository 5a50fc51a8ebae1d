import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/shared/ui/empty-state';

/** /pages/jiaoyi/jiaoyi: nothing to list yet. */
export function TradePage() {
  const { t } = useTranslation();
  return (
    <>
      <EmptyState description={t('trade.intro')} />
    </>
  );
}
