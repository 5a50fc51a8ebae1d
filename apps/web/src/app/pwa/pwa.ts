import { useSyncExternalStore } from 'react';
import { afterLoad } from '../after-load';
import { createUpdateFlow, UPDATE_CHECK_MS, type UpdateState, type WorkerContainer } from './update';

/** The one update flow of the page: the browser's service workers in a production build, none otherwise. */
const container: WorkerContainer | undefined =
  import.meta.env.PROD && 'serviceWorker' in navigator ? navigator.serviceWorker : undefined;
const flow = createUpdateFlow(container, `${import.meta.env.BASE_URL}sw.js`, import.meta.env.BASE_URL, () => {
  window.location.reload();
});

/** Registers the service worker after the page's load (it never competes with the first paint). */
export function installServiceWorker(): void {
  if (container === undefined) return;
  const start = () => {
    flow.start().catch((error: unknown) => {
      // no worker (a private window, a browser setting): the app works online as before
      console.warn('service worker not registered', error);
    });
  };
  afterLoad(start);
  window.setInterval(() => void flow.check().catch(() => undefined), UPDATE_CHECK_MS);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') void flow.check().catch(() => undefined);
  });
}

export function useUpdateReady(): boolean {
  return useSyncExternalStore(flow.subscribe, () => flow.getState().ready);
}
export const applyUpdate = (): void => {
  flow.apply();
};
export type { UpdateState };

function subscribeOnline(onChange: () => void): () => void {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

/** Whether the browser has a network (false when it knows it has none: airplane mode, no signal). */
export function useOnline(): boolean {
  return useSyncExternalStore(subscribeOnline, () => navigator.onLine);
}
