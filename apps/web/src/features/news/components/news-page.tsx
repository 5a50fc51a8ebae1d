import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/shared/ui/empty-state';

/** /pages/record/record: nothing to list yet. */
export function NewsPage() {
  const { t } = useTranslation();
  return (
    <>
      <EmptyState description={t('news.intro')} />
    </>
  );
}
