/**
 * The loader every dynamic `import()` of the build goes through, in place of Vite's own (build/preload-helper.ts
 * puts it there; issue 21, ADR 0060). It does what Vite's does: before the import runs, the chunks it will need
 * are announced with `<link rel="modulepreload">` so that they download side by side instead of one level of
 * imports after another, and its stylesheets are applied and waited for, so nothing is shown unstyled.
 *
 * What differs is when the links go in. Vite's helper appends every one in the task that asks for the import.
 * Each append starts a request in that task, about a millisecond each in Chromium here, and the boot script's
 * two first imports announce some thirty chunks each: two tasks of 45-50 ms, four times that on Lighthouse's
 * simulated phone, where every task over 50 ms counts as blocking time. Here the first `LINKS_PER_TASK` links go
 * in at once and the rest in tasks of their own, each short enough to block nothing, while the import itself is
 * under way: the chunks still start downloading within a few milliseconds, well before the import's own chunk has
 * arrived and named them.
 *
 * Also unlike Vite's: no CSP nonce (the app's policy allows its own origin's scripts and styles, and sets none),
 * and only an absolute base (vite.config.ts's `/japan1/`).
 */

/** How many links go in per task: about 6 ms of the main thread here, 24 ms on the simulated phone. */
export const LINKS_PER_TASK = 6;

/** The URLs already announced or present in the document; filled from the document on first use. */
let known: Set<string> | undefined;
/** The script links still to be appended, in the order the imports named them. */
const waiting: string[] = [];
let flushScheduled = false;

function knownUrls(): Set<string> {
  if (known === undefined) {
    known = new Set();
    for (const link of document.getElementsByTagName('link')) known.add(link.href);
  }
  return known;
}

function appendScriptLink(href: string): void {
  const link = document.createElement('link');
  link.rel = 'modulepreload';
  link.crossOrigin = '';
  link.href = href;
  document.head.appendChild(link);
}

function flush(): void {
  for (const href of waiting.splice(0, LINKS_PER_TASK)) appendScriptLink(href);
  if (waiting.length > 0) setTimeout(flush, 0);
  else flushScheduled = false;
}

/** Appends the first links now, unless earlier ones are still going in: then these follow them. */
function announceScripts(): void {
  if (flushScheduled || waiting.length === 0) return;
  flushScheduled = true;
  flush();
}

/** Applies a stylesheet; resolves once it has loaded, rejects if it cannot be. */
function applyStylesheet(href: string): Promise<void> {
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.crossOrigin = '';
  link.href = href;
  const loaded = new Promise<void>((resolve, reject) => {
    link.addEventListener('load', () => {
      resolve();
    });
    link.addEventListener('error', () => {
      reject(new Error(`Unable to preload CSS for ${href}`));
    });
  });
  document.head.appendChild(link);
  return loaded;
}

/** Stylesheets asked for and not loaded yet: a second import needing one waits for the same load. */
const stylesheets = new Map<string, Promise<void>>();

/** What Vite's loader does with a failed chunk: tells the page (`vite:preloadError`), which may take it over. */
function reportFailure(error: unknown): void {
  const event = new Event('vite:preloadError', { cancelable: true }) as Event & { payload?: unknown };
  event.payload = error;
  window.dispatchEvent(event);
  if (!event.defaultPrevented) throw error;
}

/**
 * Runs `load` (the `import()` itself) once the stylesheets among `deps` are applied, having announced the
 * scripts among them. `deps` are the build's file names under the base (`assets/x-hash.js`), as Vite writes them.
 */
export function preload<T>(load: () => Promise<T>, deps?: readonly string[]): Promise<T> {
  const styles: Promise<void>[] = [];
  if (deps !== undefined && deps.length > 0) {
    const urls = knownUrls();
    for (const dep of deps) {
      const href = new URL(import.meta.env.BASE_URL + dep, document.baseURI).href;
      const pending = stylesheets.get(href);
      if (pending !== undefined) {
        styles.push(pending);
        continue;
      }
      if (urls.has(href)) continue;
      urls.add(href);
      if (href.endsWith('.css')) {
        const applied = applyStylesheet(href).finally(() => stylesheets.delete(href));
        stylesheets.set(href, applied);
        styles.push(applied);
      } else {
        waiting.push(href);
      }
    }
    announceScripts();
  }
  const ready = styles.length === 0 ? Promise.resolve([]) : Promise.allSettled(styles);
  return ready.then((results) => {
    for (const result of results) if (result.status === 'rejected') reportFailure(result.reason);
    return load().catch((error: unknown) => {
      reportFailure(error);
      // reached only when the page took the failure over (preventDefault), as with Vite's loader
      return undefined as T;
    });
  });
}

/** For tests: forgets what was announced. */
export function resetPreloadsForTest(): void {
  known = undefined;
  waiting.length = 0;
  flushScheduled = false;
  stylesheets.clear();
}
