import { createElement, startTransition, StrictMode, type ComponentType } from 'react';
import { createRoot } from 'react-dom/client';

/**
 * Both front ends' start: the catalogues first, then the app in #root under StrictMode. The first render is a
 * transition, so React renders it in slices that yield to the browser between them instead of one long task
 * (issue 21: on a phone that task blocked input for over a second); only the commit is one piece.
 */
export async function startApp(App: ComponentType, initI18n: () => Promise<void>): Promise<void> {
  const container = document.getElementById('root');
  if (container === null) throw new Error('#root is missing');
  await initI18n();
  const root = createRoot(container);
  startTransition(() => {
    root.render(createElement(StrictMode, null, createElement(App)));
  });
}
