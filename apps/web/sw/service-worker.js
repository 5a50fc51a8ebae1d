/* The web app's service worker (issue 21, ADR 0039). Built into dist/sw.js by ./plugin.ts, which replaces the
 * BUILD line below with this build's version and the list of its files (the app shell).
 *
 * - The app shell (index.html, the hashed scripts and styles, the icons and the manifest) is cached at install,
 *   so the app opens without a network. Pages are fetched from the network first; only when it does not answer
 *   is the cached index.html served, and the app then shows its offline banner.
 * - Nothing under /api or /ws is touched: prices, balances and orders always come from the server, never from
 *   this cache.
 * - A new version installs beside the running one and waits: the page shows "a new version is available" and
 *   only the user's tap sends SKIP_WAITING, after which the page reloads. Never silently, never mid-order.
 */
// a service worker's globals (the file is not a module: browsers run it as a classic worker script)
/* global self, caches */
const BUILD = { version: 'dev', scope: '/', shell: [] };

const PREFIX = 'kabuto-shell-';
const CACHE = `${PREFIX}${BUILD.version}`;
const INDEX = `${BUILD.scope}index.html`;
const SHELL = new Set(BUILD.shell);

/**
 * The browser's own routes for what this worker's code need not see (the static routing API, Chromium 123+;
 * elsewhere the fetch handler below does the same). Only navigations start the worker: the shell's files come
 * from this version's cache (the network when one is missing), and everything else, the API included, from
 * the network. A page's requests then never reach an outgoing worker: Chromium parked the new version for
 * good when one did at the moment it was told to take over (the update flow's tap, 2026-11-27; ADR 0039).
 */
const ROUTES = [
  { condition: { requestMode: 'navigate' }, source: 'fetch-event' },
  {
    // the shell's folders and top-level files, read from the shell's list (assets/*, icons/*, index.html…)
    condition: {
      or: [
        ...new Set(
          BUILD.shell.map((url) => {
            const path = url.slice(BUILD.scope.length);
            const slash = path.indexOf('/');
            return slash === -1 ? path : `${path.slice(0, slash)}/*`;
          }),
        ),
      ].map((path) => ({ urlPattern: { pathname: `${BUILD.scope}${path}` } })),
    },
    source: { cacheName: CACHE },
  },
  { condition: { not: { requestMode: 'navigate' } }, source: 'network' },
];

self.addEventListener('install', (event) => {
  // a browser that refuses the routes leaves every request to the fetch handler, as before
  const routes =
    typeof event.addRoutes === 'function' ? event.addRoutes(ROUTES).catch(() => undefined) : undefined;
  event.waitUntil(
    Promise.all([
      caches
        .open(CACHE)
        .then((cache) => cache.addAll(BUILD.shell.map((url) => new Request(url, { cache: 'reload' })))),
      routes,
    ]),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(keys.filter((k) => k.startsWith(PREFIX) && k !== CACHE).map((k) => caches.delete(k))),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('message', (event) => {
  // kept alive until the browser has taken the request (the page reloads anyway if it parks it: update.ts)
  if (event.data && event.data.type === 'SKIP_WAITING') event.waitUntil(self.skipWaiting());
});

/** A page: the network's answer (so a deployed version is seen at once), the cached shell when offline. */
async function page(request) {
  try {
    return await fetch(request);
  } catch (error) {
    const cached = await caches.match(INDEX, { cacheName: CACHE });
    if (cached) return cached;
    throw error;
  }
}

/** A file of the shell: from the cache (its name carries its content's hash), else from the network. */
async function shellFile(request) {
  const cached = await caches.match(request, { cacheName: CACHE });
  return cached ?? fetch(request);
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || !url.pathname.startsWith(BUILD.scope)) return;
  if (request.mode === 'navigate') event.respondWith(page(request));
  else if (SHELL.has(url.pathname)) event.respondWith(shellFile(request));
});
