import { ErrorBlock } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { safeWebUrl } from '../webview-url';

/** /subPackages/webview/webview?url=<encoded>: the page in an iframe under the navigation bar. */
export function WebviewPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const url = safeWebUrl(params.get('url'));
  if (url === null) {
    return <ErrorBlock status="default" title={t('webview.invalidUrl')} description="" />;
  }
  return (
    <div className="webview">
      <iframe
        className="webview__frame"
        src={url}
        title={t('titles.webview')}
        referrerPolicy="no-referrer"
        sandbox="allow-scripts allow-same-origin allow-forms allow-popups"
      />
      <a className="webview__external" href={url} target="_blank" rel="noopener noreferrer">
        {t('webview.openExternal')}
      </a>
    </div>
  );
}
