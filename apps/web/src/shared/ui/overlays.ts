import type { DialogAlertProps, DialogConfirmProps, DialogShowProps } from 'antd-mobile';
import type * as OverlaysModule from './overlays-impl';

/**
 * antd-mobile's imperative overlays, Dialog and Toast, fetched on first use (issue 21). With them come their
 * mask, react-spring and antd-mobile's React 19 shim, about 14 KiB gzipped that no first screen shows: a
 * dialog or a toast follows a tap or an answer from the server. `prefetchOverlays` fetches them once the first
 * page has painted, so that a slow line does not hold the first one.
 *
 * The app's one way to show them: every confirm, alert, step-up dialog and toast goes through here.
 */
type Overlays = typeof OverlaysModule;

let loading: Promise<Overlays> | undefined;

function loadOverlays(): Promise<Overlays> {
  if (loading === undefined) {
    const pending = import('./overlays-impl');
    loading = pending;
    // a fetch that failed (offline) is tried again by the next overlay
    pending.catch(() => {
      if (loading === pending) loading = undefined;
    });
  }
  return loading;
}

/** Starts fetching the overlays' code without showing anything. */
export function prefetchOverlays(): void {
  loadOverlays().catch(() => undefined);
}

export const dialog = {
  /** antd-mobile's Dialog.confirm: true when confirmed. */
  confirm: (props: DialogConfirmProps): Promise<boolean> =>
    loadOverlays().then(({ Dialog }) => Dialog.confirm(props)),
  /** antd-mobile's Dialog.alert: settles when dismissed. */
  alert: (props: DialogAlertProps): Promise<void> => loadOverlays().then(({ Dialog }) => Dialog.alert(props)),
  /** antd-mobile's Dialog.show; the props' own callbacks say how it ended. */
  show: (props: DialogShowProps): Promise<void> =>
    loadOverlays().then(({ Dialog }) => {
      Dialog.show(props);
    }),
};

/** The one toast of the app. Failure toasts last 2000 ms, others 1500 ms (specification §9). */
export function showToast(message: string, durationMs = 1500): void {
  loadOverlays().then(
    ({ Toast }) => {
      Toast.show({ content: message, duration: durationMs });
    },
    () => undefined,
  );
}

export function showSuccess(message: string, durationMs = 1500): void {
  loadOverlays().then(
    ({ Toast }) => {
      Toast.show({ icon: 'success', content: message, duration: durationMs });
    },
    () => undefined,
  );
}
