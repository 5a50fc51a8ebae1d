import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/shared/ui/empty-state';

/** /pages/record/record: nothing to list yet. */
export function NewsPage() {
  const { t } = useTranslation();
  return (
    <>
      <h1 className="page-heading">{t('titles.news')}</h1>
      <EmptyState description={t('news.intro')} />
    </>
  );
}
