import { DotLoading } from 'antd-mobile';
import { useTranslation } from 'react-i18next';

export function PageLoading() {
  const { t } = useTranslation();
  return (
    <div className="page-loading" role="status" aria-live="polite">
      <DotLoading color="primary" />
      <span>{t('common.loading')}</span>
    </div>
  );
}
