/**
 * The installable app's page side (issue 21, ADR 0039): registers the service worker (dist/sw.js) once the
 * page has loaded, notices when a new version has installed and waits, and applies it only when the user
 * asks (the new worker takes over, then the page reloads). Never on its own: a user in the middle of an
 * order keeps the page they are on.
 */

export interface UpdateState {
  /** A new version has installed and waits for the user's go-ahead. */
  readonly ready: boolean;
}

/** The service-worker container's part this module uses (a fake one in tests). */
export interface WorkerContainer {
  readonly controller: unknown;
  readonly register: (url: string, options: { scope: string }) => Promise<WorkerRegistration>;
  addEventListener(type: 'controllerchange', listener: () => void): void;
}
export interface WaitingWorker {
  postMessage(message: unknown): void;
}
export interface InstallingWorker {
  readonly state: string;
  addEventListener(type: 'statechange', listener: () => void): void;
}
export interface WorkerRegistration {
  readonly waiting: WaitingWorker | null;
  readonly installing: InstallingWorker | null;
  addEventListener(type: 'updatefound', listener: () => void): void;
  readonly update: () => Promise<unknown>;
}

/** How often an open page asks the server whether a new version was deployed. */
export const UPDATE_CHECK_MS = 30 * 60 * 1000;

/**
 * How long a tap on Reload waits for the new version to take over before the page reloads anyway. Chromium
 * parks a waiting worker that was told to skip waiting while the page's requests reached the old one at that
 * moment (seen in CI, and brought about by a burst of requests at the tap, 2026-11-27): it stays `installed`,
 * and no later message moves it. The worker's static routes keep the page's requests away from it
 * (sw/service-worker.js); should one still park it, a navigation activates a waiting worker whose
 * skip-waiting flag is set, and the reloaded page is served by the new version.
 */
export const APPLY_FALLBACK_MS = 3000;

export interface UpdateFlow {
  readonly getState: () => UpdateState;
  readonly subscribe: (listener: () => void) => () => void;
  /** Resolves once registered (or at once where service workers are not available). */
  readonly start: () => Promise<void>;
  /**
   * Asks the waiting version to take over; the page reloads when it has, or after APPLY_FALLBACK_MS at the
   * latest (the reload then applies it).
   */
  readonly apply: () => void;
  /** Asks the server for a new version now (also done every UPDATE_CHECK_MS and when the page is shown). */
  readonly check: () => Promise<void>;
}

export function createUpdateFlow(
  container: WorkerContainer | undefined,
  url: string,
  scope: string,
  reload: () => void,
): UpdateFlow {
  let state: UpdateState = { ready: false };
  let registration: WorkerRegistration | null = null;
  let applying = false;
  let reloaded = false;
  let fallback: ReturnType<typeof setTimeout> | undefined;
  const reloadOnce = () => {
    if (reloaded) return;
    reloaded = true;
    clearTimeout(fallback);
    reload();
  };
  const listeners = new Set<() => void>();
  const set = (next: UpdateState) => {
    state = next;
    for (const l of listeners) l();
  };
  // a worker that installs while another controls the page is a new version (the first install is not)
  const watch = (reg: WorkerRegistration) => {
    if (reg.waiting !== null && container?.controller) set({ ready: true });
    reg.addEventListener('updatefound', () => {
      const installing = reg.installing;
      installing?.addEventListener('statechange', () => {
        if (installing.state === 'installed' && container?.controller) set({ ready: true });
      });
    });
  };
  return {
    getState: () => state,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    start: async () => {
      if (container === undefined) return;
      // the page reloads only after the user asked for the new version, never when a worker merely changes
      container.addEventListener('controllerchange', () => {
        if (applying) reloadOnce();
      });
      registration = await container.register(url, { scope });
      watch(registration);
    },
    apply: () => {
      const waiting = registration?.waiting ?? null;
      if (waiting === null) {
        // offered, and no longer waiting: another tab applied it, so it already serves this page's next load
        if (state.ready) reloadOnce();
        return;
      }
      if (applying) return;
      applying = true;
      waiting.postMessage({ type: 'SKIP_WAITING' });
      // the new version normally takes over within milliseconds; if Chromium parked it, the reload applies it
      fallback = setTimeout(reloadOnce, APPLY_FALLBACK_MS);
    },
    check: async () => {
      await registration?.update();
    },
  };
}
