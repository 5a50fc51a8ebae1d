import { Button, Result } from 'antd';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { useLocale } from '@/shared/locale';

/** A page that failed (a lazy chunk that did not load, an exception): says so and offers a reload. */
export function RouteError() {
  const { t } = useLocale();
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return <Result status="404" title="404" subTitle={t('common.notFound')} />;
  }
  console.error(error);
  return (
    <Result
      status="error"
      title={t('common.loadFailed')}
      extra={
        <Button
          onClick={() => {
            window.location.reload();
          }}
        >
          {t('common.reload')}
        </Button>
      }
    />
  );
}
