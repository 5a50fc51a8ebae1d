import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  APPLY_FALLBACK_MS,
  createUpdateFlow,
  type InstallingWorker,
  type WaitingWorker,
  type WorkerContainer,
  type WorkerRegistration,
} from './update';

/** A browser's service-worker container, driven by hand: installs, waits, takes over. */
function fakeBrowser(options: { controlled: boolean; waiting?: boolean }) {
  const posted: unknown[] = [];
  const waitingWorker: WaitingWorker = { postMessage: (m) => posted.push(m) };
  const onControllerChange: (() => void)[] = [];
  const onUpdateFound: (() => void)[] = [];
  const installing: InstallingWorker & { state: string; fire: () => void; listeners: (() => void)[] } = {
    state: 'installing',
    listeners: [],
    addEventListener(_type, listener) {
      this.listeners.push(listener);
    },
    fire() {
      for (const l of this.listeners) l();
    },
  };
  const registration: WorkerRegistration & {
    waiting: WaitingWorker | null;
    installing: InstallingWorker | null;
  } = {
    waiting: options.waiting === true ? waitingWorker : null,
    installing: null,
    addEventListener: (_type, listener) => onUpdateFound.push(listener),
    update: vi.fn(async () => undefined),
  };
  const container: WorkerContainer & { controller: unknown } = {
    controller: options.controlled ? {} : null,
    register: vi.fn(async () => registration),
    addEventListener: (_type, listener) => onControllerChange.push(listener),
  };
  return {
    container,
    registration,
    posted,
    /** The server has a new sw.js: it installs and then waits. */
    newVersionInstalls() {
      registration.installing = installing;
      for (const l of onUpdateFound) l();
      installing.state = 'installed';
      registration.waiting = waitingWorker;
      registration.installing = null;
      installing.fire();
    },
    takeOver() {
      for (const l of onControllerChange) l();
    },
  };
}

describe('the update flow', () => {
  it('registers the worker under the app base and offers nothing on a first install', async () => {
    const browser = fakeBrowser({ controlled: false });
    const reload = vi.fn();
    const flow = createUpdateFlow(browser.container, '/japan1/sw.js', '/japan1/', reload);
    await flow.start();
    expect(browser.container.register).toHaveBeenCalledWith('/japan1/sw.js', { scope: '/japan1/' });
    browser.newVersionInstalls();
    expect(flow.getState().ready).toBe(false);
    expect(reload).not.toHaveBeenCalled();
  });

  it('offers a new version that installed while the page runs, and reloads only once the user asks', async () => {
    const browser = fakeBrowser({ controlled: true });
    const reload = vi.fn();
    const flow = createUpdateFlow(browser.container, '/japan1/sw.js', '/japan1/', reload);
    const seen: boolean[] = [];
    flow.subscribe(() => seen.push(flow.getState().ready));
    await flow.start();
    expect(flow.getState().ready).toBe(false);
    browser.newVersionInstalls();
    expect(flow.getState().ready).toBe(true);
    expect(seen).toEqual([true]);
    // another tab applying the update changes this page's worker: this page does not reload by itself
    browser.takeOver();
    expect(reload).not.toHaveBeenCalled();
    expect(browser.posted).toEqual([]);
    flow.apply();
    expect(browser.posted).toEqual([{ type: 'SKIP_WAITING' }]);
    expect(reload).not.toHaveBeenCalled();
    browser.takeOver();
    expect(reload).toHaveBeenCalledTimes(1);
  });

  describe('when the new version does not take over after the tap', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    /** A page offered a new version, on fake timers, whose user has tapped Reload once. */
    async function tappedReload() {
      vi.useFakeTimers();
      const browser = fakeBrowser({ controlled: true });
      const reload = vi.fn();
      const flow = createUpdateFlow(browser.container, '/japan1/sw.js', '/japan1/', reload);
      await flow.start();
      browser.newVersionInstalls();
      flow.apply();
      return { browser, reload, flow };
    }

    it('reloads once after APPLY_FALLBACK_MS: the navigation applies a version Chromium parked', async () => {
      const { browser, reload, flow } = await tappedReload();
      // a second tap while waiting sends nothing more
      flow.apply();
      expect(browser.posted).toEqual([{ type: 'SKIP_WAITING' }]);
      vi.advanceTimersByTime(APPLY_FALLBACK_MS - 1);
      expect(reload).not.toHaveBeenCalled();
      vi.advanceTimersByTime(1);
      expect(reload).toHaveBeenCalledTimes(1);
      // the take-over coming late does not reload the page a second time
      browser.takeOver();
      expect(reload).toHaveBeenCalledTimes(1);
    });

    it('does not reload a second time when the take-over came first', async () => {
      const { browser, reload } = await tappedReload();
      browser.takeOver();
      expect(reload).toHaveBeenCalledTimes(1);
      vi.advanceTimersByTime(APPLY_FALLBACK_MS * 2);
      expect(reload).toHaveBeenCalledTimes(1);
    });
  });

  it('reloads at once when the version offered was applied from another tab meanwhile', async () => {
    const browser = fakeBrowser({ controlled: true });
    const reload = vi.fn();
    const flow = createUpdateFlow(browser.container, '/japan1/sw.js', '/japan1/', reload);
    await flow.start();
    browser.newVersionInstalls();
    // the other tab's tap: the waiting version takes over every tab, this one does not reload by itself
    browser.registration.waiting = null;
    browser.takeOver();
    expect(reload).not.toHaveBeenCalled();
    expect(flow.getState().ready).toBe(true);
    // this tab's tap: nothing waits any more, so the page reloads into the version now serving it
    flow.apply();
    expect(browser.posted).toEqual([]);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('does not reload on a tap when no version was offered', async () => {
    const browser = fakeBrowser({ controlled: true });
    const reload = vi.fn();
    const flow = createUpdateFlow(browser.container, '/japan1/sw.js', '/japan1/', reload);
    await flow.start();
    flow.apply();
    expect(reload).not.toHaveBeenCalled();
  });

  it('offers a version that was already waiting when the page opened', async () => {
    const browser = fakeBrowser({ controlled: true, waiting: true });
    const flow = createUpdateFlow(browser.container, '/japan1/sw.js', '/japan1/', vi.fn());
    await flow.start();
    expect(flow.getState().ready).toBe(true);
  });

  it('does nothing without service workers, and asks the server for a new version on check()', async () => {
    const none = createUpdateFlow(undefined, '/japan1/sw.js', '/japan1/', vi.fn());
    await none.start();
    await none.check();
    none.apply();
    expect(none.getState().ready).toBe(false);
    const browser = fakeBrowser({ controlled: true });
    const flow = createUpdateFlow(browser.container, '/japan1/sw.js', '/japan1/', vi.fn());
    await flow.start();
    await flow.check();
    expect(browser.registration.update).toHaveBeenCalledTimes(1);
  });
});
