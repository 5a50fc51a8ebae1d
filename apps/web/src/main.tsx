import { startApp } from '@kabuto/client/start-app';
import { afterLoadAtFirstUse } from './app/after-load';
import { App } from './app/app';
import { installPriceColors } from './app/price-colors';
import { installServiceWorker } from './app/pwa/pwa';
import { installRootFontSize } from './app/root-font-size';
import { initI18n } from './shared/i18n/i18n';
import './app/styles.css';

// Dialogs and toasts follow a tap or an answer from the server: their code (antd-mobile's Dialog and Toast,
// react-spring, the React 19 shim; shared/ui/overlays.ts) is fetched at the first touch or key, or a few seconds
// after the load, never beside the first screen's code and data (issue 21).
afterLoadAtFirstUse(() => {
  void import('./shared/ui/overlays').then(({ prefetchOverlays }) => {
    prefetchOverlays();
  });
}, 3000);
installRootFontSize();
installPriceColors();
void startApp(App, initI18n);
installServiceWorker();
