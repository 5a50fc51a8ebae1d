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

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(BUILD.shell.map((url) => new Request(url, { cache: 'reload' })))),
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
  if (event.data && event.data.type === 'SKIP_WAITING') void self.skipWaiting();
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
