import { Spin } from 'antd';
import { useLocale } from './locale';

/** The spinner of a page whose data or code is on its way. */
export function PageLoading() {
  const { t } = useLocale();
  return (
    <div style={{ padding: 80, textAlign: 'center' }}>
      <Spin size="large" aria-label={t('common.loading')} />
    </div>
  );
}
