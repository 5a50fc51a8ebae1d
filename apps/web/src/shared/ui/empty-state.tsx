import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { NoDataPicture } from './no-data-picture';
import { useLocale } from '@/shared/i18n/use-locale';

/** An empty list: the per-language "no data" picture, with an optional explanation below. */
export function EmptyState({ description, children }: { description?: string; children?: ReactNode }) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <div className="empty-state" data-testid="empty-state">
      <NoDataPicture locale={locale} text={t('common.noData')} />
      {description !== undefined && <p className="empty-state__text">{description}</p>}
      {children}
    </div>
  );
}
