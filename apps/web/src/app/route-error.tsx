import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The message of a failed route, drawn without antd-mobile's ErrorBlock: its illustrations weigh several KiB
 * and this page is part of every first load, since it must show even when no other chunk can be fetched.
 */
function ErrorMessage({ title, description }: { title: string; description?: ReactNode }) {
  return (
    <div className="route-error">
      <p className="route-error__title">{title}</p>
      {description !== undefined && <p className="route-error__description">{description}</p>}
    </div>
  );
}

/**
 * A path the app has not links to home; a page that failed to load (a lazy chunk, an exception) shows an
 * area that reloads on click.
 */
export function RouteError({ notFound = false }: { notFound?: boolean }) {
  const { t } = useTranslation();
  if (notFound) {
    return (
      <main className="app-main app-main--bare">
        <ErrorMessage
          title={t('common.pageNotFound')}
          description={<a href="#/pages/index/index">{t('common.goHome')}</a>}
        />
      </main>
    );
  }
  return (
    <main className="app-main app-main--bare">
      <button
        type="button"
        className="reload-area"
        onClick={() => {
          window.location.reload();
        }}
      >
        <ErrorMessage title={t('common.pageLoadFailed')} />
      </button>
    </main>
  );
}
