import { createElement, StrictMode, type ComponentType } from 'react';
import { createRoot } from 'react-dom/client';

/** Both front ends' start: the catalogues first, then the app in #root under StrictMode. */
export async function startApp(App: ComponentType, initI18n: () => Promise<void>): Promise<void> {
  const container = document.getElementById('root');
  if (container === null) throw new Error('#root is missing');
  await initI18n();
  createRoot(container).render(createElement(StrictMode, null, createElement(App)));
}
