// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LINKS_PER_TASK, preload, resetPreloadsForTest } from './preload';

/** The links the loader appends, caught instead of put in the document (happy-dom would try to fetch them). */
let appended: HTMLLinkElement[];

beforeEach(() => {
  vi.useFakeTimers();
  resetPreloadsForTest();
  appended = [];
  vi.spyOn(document.head, 'appendChild').mockImplementation(<T extends Node>(node: T): T => {
    appended.push(node as unknown as HTMLLinkElement);
    return node;
  });
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const base = import.meta.env.BASE_URL;
const href = (file: string) => new URL(base + file, document.baseURI).href;
const scripts = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => `assets/chunk-${String(from + i)}.js`);

describe('preload', () => {
  it('announces a few chunks at once and the rest in later tasks, in order, without holding the import', async () => {
    const deps = scripts(LINKS_PER_TASK * 2 + 1);
    const load = vi.fn(() => Promise.resolve('module'));
    const result = preload(load, deps);
    expect(appended.map((l) => l.href)).toEqual(deps.slice(0, LINKS_PER_TASK).map(href));
    expect(appended.every((l) => l.rel === 'modulepreload' && l.crossOrigin === '')).toBe(true);
    await expect(result).resolves.toBe('module');
    expect(load).toHaveBeenCalledTimes(1);
    vi.advanceTimersToNextTimer();
    expect(appended).toHaveLength(LINKS_PER_TASK * 2);
    vi.advanceTimersToNextTimer();
    expect(appended.map((l) => l.href)).toEqual(deps.map(href));
    vi.runAllTimers();
    expect(appended).toHaveLength(deps.length);
  });

  it('announces a chunk once, across imports, and never one the document already links', async () => {
    // as index.html or an earlier load left it (innerHTML: the caught appendChild would keep it out)
    document.body.innerHTML = `<link rel="modulepreload" href="${href('assets/already.js')}">`;
    await preload(() => Promise.resolve(1), ['assets/a.js', 'assets/already.js']);
    await preload(() => Promise.resolve(2), ['assets/a.js', 'assets/b.js']);
    vi.runAllTimers();
    expect(appended.map((l) => l.href)).toEqual([href('assets/a.js'), href('assets/b.js')]);
    document.body.innerHTML = '';
  });

  it('a later import queues behind the earlier one without a second timer chain', () => {
    void preload(() => Promise.resolve(1), scripts(LINKS_PER_TASK + 1));
    void preload(() => Promise.resolve(2), scripts(2, 100));
    expect(appended).toHaveLength(LINKS_PER_TASK);
    vi.advanceTimersToNextTimer();
    expect(appended.map((l) => l.href)).toEqual(
      [...scripts(LINKS_PER_TASK + 1), ...scripts(2, 100)].map(href),
    );
  });

  it('runs the import only once its stylesheets have loaded, and a second import waits for the same load', async () => {
    const first = vi.fn(() => Promise.resolve('first'));
    const second = vi.fn(() => Promise.resolve('second'));
    const one = preload(first, ['assets/page.css', 'assets/page.js']);
    const two = preload(second, ['assets/page.css']);
    const sheet = appended.find((l) => l.rel === 'stylesheet');
    expect(sheet?.href).toBe(href('assets/page.css'));
    expect(appended.filter((l) => l.rel === 'stylesheet')).toHaveLength(1);
    await Promise.resolve();
    expect(first).not.toHaveBeenCalled();
    expect(second).not.toHaveBeenCalled();
    sheet?.dispatchEvent(new Event('load'));
    await expect(one).resolves.toBe('first');
    await expect(two).resolves.toBe('second');
    // loaded: a third import needs nothing more
    await expect(preload(() => Promise.resolve('third'), ['assets/page.css'])).resolves.toBe('third');
    expect(appended.filter((l) => l.rel === 'stylesheet')).toHaveLength(1);
  });

  it('reports a stylesheet that fails as vite:preloadError and rejects, unless the page takes it over', async () => {
    const seen: unknown[] = [];
    const listener = (event: Event) => {
      seen.push((event as Event & { payload?: unknown }).payload);
    };
    window.addEventListener('vite:preloadError', listener);
    const load = vi.fn(() => Promise.resolve('module'));
    const result = preload(load, ['assets/broken.css']);
    appended[0]?.dispatchEvent(new Event('error'));
    await expect(result).rejects.toThrow(`Unable to preload CSS for ${href('assets/broken.css')}`);
    expect(load).not.toHaveBeenCalled();
    expect(seen).toHaveLength(1);

    const takeOver = (event: Event) => {
      event.preventDefault();
    };
    window.addEventListener('vite:preloadError', takeOver);
    const again = preload(load, ['assets/other.css']);
    appended[1]?.dispatchEvent(new Event('error'));
    await expect(again).resolves.toBe('module');
    window.removeEventListener('vite:preloadError', takeOver);
    window.removeEventListener('vite:preloadError', listener);
  });

  it('reports an import that fails the same way', async () => {
    const payloads: unknown[] = [];
    const listener = (event: Event) => {
      payloads.push((event as Event & { payload?: unknown }).payload);
    };
    window.addEventListener('vite:preloadError', listener);
    const failure = new TypeError('Failed to fetch dynamically imported module');
    await expect(preload(() => Promise.reject(failure), [])).rejects.toBe(failure);
    expect(payloads).toEqual([failure]);
    window.removeEventListener('vite:preloadError', listener);
  });
});
