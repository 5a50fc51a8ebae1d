import '@ant-design/v5-patch-for-react-19';
import { startApp } from '@kabuto/client/start-app';
import { App } from './app/app';
import { initI18n } from './shared/i18n';
import './app/styles.css';

void startApp(App, initI18n);
