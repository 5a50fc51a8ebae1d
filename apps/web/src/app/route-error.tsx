import { ErrorBlock } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router';

/** A page that failed to load (a lazy chunk, an exception) shows an area that reloads on click. */
export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  if (notFound) {
    return (
      <main className="app-main app-main--bare">
        <ErrorBlock
          status="empty"
          title={t('common.pageNotFound')}
          description={<a href="#/pages/index/index">{t('common.goHome')}</a>}
        />
      </main>
    );
  }
  console.error(error);
  return (
    <main className="app-main app-main--bare">
      <button
        type="button"
        className="reload-area"
        onClick={() => {
          window.location.reload();
        }}
      >
        <ErrorBlock status="default" title={t('common.pageLoadFailed')} description="" />
      </button>
    </main>
  );
}
