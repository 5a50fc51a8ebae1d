import { startApp } from '@kabuto/client/start-app';
import { afterLoadAtFirstUse } from './app/after-load';
import { App } from './app/app';
import { installPriceColors } from './app/price-colors';
import { installServiceWorker } from './app/pwa/pwa';
import { installRootFontSize } from './app/root-font-size';
import { contractReady, initI18n } from './shared/i18n/i18n';
import './app/styles.css';

// What follows a tap or an answer from the server is fetched at the first touch or key, or a few seconds after
// the load, never beside the first screen's code and data (issue 21): the code of dialogs and toasts (antd-mobile's
// Dialog and Toast, react-spring, the React 19 shim; shared/ui/overlays.ts), and the contract's messages (errors,
// validation, ledger and message kinds), unless the page opened waits for them with its code (app/pages.ts,
// ADR 0059). The components that show those messages render again when they arrive.
afterLoadAtFirstUse(() => {
  void import('./shared/ui/overlays').then(({ prefetchOverlays }) => {
    prefetchOverlays();
  });
  void contractReady().catch(() => undefined);
}, 3000);
installRootFontSize();
installPriceColors();
void startApp(App, () => initI18n({ contract: 'later' }));
installServiceWorker();
