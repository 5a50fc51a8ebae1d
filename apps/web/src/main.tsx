import { startApp } from '@kabuto/client/start-app';
import { App } from './app/app';
import { installPriceColors } from './app/price-colors';
import { installServiceWorker } from './app/pwa/pwa';
import { installRootFontSize } from './app/root-font-size';
import { initI18n } from './shared/i18n/i18n';
import './app/styles.css';

// Toast and Dialog need the shim only when one is shown, after a tap or an answer from the server: its code
// (antd-mobile's legacy renderer and the async-function runtime it brings, about 5 KiB) is fetched now, beside
// the page's own, and stays out of the first load (issue 21).
void import('./app/antd-react-19').then(({ installAntdReact19Shim }) => {
  installAntdReact19Shim();
});
installRootFontSize();
installPriceColors();
void startApp(App, initI18n);
installServiceWorker();
