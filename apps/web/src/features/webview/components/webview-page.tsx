import { Button, ErrorBlock } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from '@/shared/navigation/router';
import { webviewTarget } from '../webview-url';

/**
 * /subPackages/webview/webview?url=<encoded>: an allowed page in an iframe under the navigation bar; any
 * other address is not framed: a warning names its host and a button opens it outside the app.
 */
export function WebviewPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const target = webviewTarget(params.get('url'), window.location.origin);
  if (target.kind === 'invalid') {
    return <ErrorBlock status="default" title={t('webview.invalidUrl')} description="" />;
  }
  if (target.kind === 'outside') {
    return (
      <section
        className="webview-outside"
        data-testid="webview-outside"
        aria-labelledby="webview-outside-title"
      >
        <h2 id="webview-outside-title">{t('webview.outsideTitle')}</h2>
        <p>{t('webview.outsideBody', { host: target.host })}</p>
        <p className="webview-outside__url">{target.url}</p>
        <Button
          block
          color="primary"
          onClick={() => {
            window.open(target.url, '_blank', 'noopener,noreferrer');
          }}
        >
          {t('webview.openExternal')}
        </Button>
      </section>
    );
  }
  return (
    <div className="webview">
      <iframe
        className="webview__frame"
        src={target.url}
        title={t('titles.webview')}
        referrerPolicy="no-referrer"
        sandbox="allow-scripts allow-same-origin allow-forms allow-popups"
      />
      <a className="webview__external" href={target.url} target="_blank" rel="noopener noreferrer">
        {t('webview.openExternal')}
      </a>
    </div>
  );
}
