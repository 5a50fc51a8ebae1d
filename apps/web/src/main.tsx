import { startApp } from '@kabuto/client/start-app';
import { App } from './app/app';
import { preloadPage } from './app/router';
import { installAntdReact19Shim } from './app/antd-react-19';
import { installPriceColors } from './app/price-colors';
import { installServiceWorker } from './app/pwa/pwa';
import { installRootFontSize } from './app/root-font-size';
import { initI18n } from './shared/i18n/i18n';
import './app/styles.css';

installAntdReact19Shim();
installRootFontSize();
installPriceColors();
preloadPage(window.location.hash);
void startApp(App, initI18n);
installServiceWorker();
