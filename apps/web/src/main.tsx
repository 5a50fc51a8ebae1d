import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { installAntdReact19Shim } from './app/antd-react-19';
import { installPriceColors } from './app/price-colors';
import { installRootFontSize } from './app/root-font-size';
import { initI18n } from './shared/i18n/i18n';
import './app/styles.css';

installAntdReact19Shim();
installRootFontSize();
installPriceColors();

const container = document.getElementById('root');
if (container === null) throw new Error('#root is missing');

void initI18n().then(() => {
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
