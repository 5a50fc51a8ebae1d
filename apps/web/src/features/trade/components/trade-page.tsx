import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/shared/ui/empty-state';

/** /pages/jiaoyi/jiaoyi: nothing to list yet. */
export function TradePage() {
  const { t } = useTranslation();
  return (
    <>
      <h1 className="page-heading">{t('titles.trade')}</h1>
      <EmptyState description={t('trade.intro')} />
    </>
  );
}
