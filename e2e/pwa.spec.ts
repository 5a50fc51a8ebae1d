import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { route } from './support/app.js';

/**
 * The installable app (issue 21, ADR 0039): the manifest, the service worker, the app opening offline with
 * its offline banner and no price, and a deployed version offered to the user rather than applied under them.
 */
const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, '../apps/web/dist');
test.use({ serviceWorkers: 'allow' });

const STOCK = route('/subPackages/index/gupiaoDetail/gupiaoDetail?code=7203');

interface Manifest {
  name: string;
  short_name: string;
  start_url: string;
  scope: string;
  display: string;
  lang: string;
  theme_color: string;
  icons: { src: string; sizes: string; type: string; purpose: string }[];
}

/** A PNG's width and height, read from its IHDR chunk. */
function pngSize(bytes: Buffer): string {
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return `${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`;
}

/** The registration's workers and the page's controller, for a failure's message. */
async function workerStates(page: Page): Promise<string> {
  try {
    return await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      const worker = (w: ServiceWorker | null | undefined) => (w ? `${w.state} ${w.scriptURL}` : 'none');
      return JSON.stringify({
        installing: worker(registration?.installing),
        waiting: worker(registration?.waiting),
        active: worker(registration?.active),
        controller: worker(navigator.serviceWorker.controller),
        readyState: document.readyState,
      });
    });
  } catch (error) {
    return `not readable (${String(error)})`;
  }
}

/** Opens a page and waits until the service worker controls it (its first load installs it). */
async function openControlled(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, {
    timeout: 30_000,
  });
}

test('the manifest is linked, served as application/manifest+json, and describes an installable app', async ({
  page,
  request,
}) => {
  await page.goto(route('/pages/index/index'));
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/japan1/manifest.webmanifest');
  const response = await request.get('/japan1/manifest.webmanifest');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toMatch(/^application\/manifest\+json/);
  const manifest = (await response.json()) as Manifest;
  expect(manifest).toMatchObject({
    short_name: 'Kabuto',
    start_url: '/japan1/',
    scope: '/japan1/',
    display: 'standalone',
    lang: 'ja',
    theme_color: '#ffffff',
  });
  expect(manifest.name.length).toBeGreaterThan(0);
  const icons = manifest.icons.map((i) => `${i.sizes} ${i.purpose}`).sort();
  expect(icons).toEqual(['192x192 any', '192x192 maskable', '512x512 any', '512x512 maskable']);
  for (const icon of manifest.icons) {
    const file = await request.get(new URL(icon.src, `http://x/japan1/manifest.webmanifest`).pathname);
    expect(file.status(), icon.src).toBe(200);
    expect(file.headers()['content-type']).toBe('image/png');
    expect(pngSize(await file.body())).toBe(icon.sizes);
  }
  const worker = await request.get('/japan1/sw.js');
  expect(worker.headers()['cache-control']).toBe('no-cache');
  expect(worker.headers()['content-type']).toContain('javascript');
});

test('after a first visit the app opens offline: the shell, the offline banner, and no price', async ({
  page,
  context,
}) => {
  await openControlled(page, STOCK);
  await expect(page.getByTestId('last-price')).toHaveText(/\d/);
  await expect(page.getByTestId('offline')).toHaveCount(0);

  // offline without a reload: what the page holds is marked with the time it came from the server
  await context.setOffline(true);
  await expect(page.getByTestId('offline')).toHaveText(
    /オフラインです。表示中の株価・残高は\d{1,2}:\d{2}時点のもの/,
  );

  // offline, reloaded: the shell comes from the worker's cache; the prices cannot, and are not shown
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByTestId('offline')).toHaveText(
    'オフラインです。通信が回復するまで株価や残高は表示できません',
  );
  await expect(page.getByTestId('last-price')).toHaveCount(0);
  // the API is never answered from a cache
  const api = await page.evaluate(async () => {
    try {
      const r = await fetch('/api/health');
      return `answered ${r.status}`;
    } catch {
      return 'failed';
    }
  });
  expect(api).toBe('failed');

  await context.setOffline(false);
  await expect(page.getByTestId('offline')).toHaveCount(0);
  await expect(page.getByTestId('last-price')).toHaveText(/\d/, { timeout: 20_000 });

  // the worker's code sees the page's navigation only: the browser's routes answered the shell's files from
  // its cache and the API from the network (service-worker.js, ROUTES)
  const sources = await page.evaluate(() => {
    const kind = (path: string) =>
      path.startsWith('/japan1/assets/') ? 'shell file' : path.startsWith('/api/') ? 'API' : 'other';
    const seen = new Set<string>();
    for (const entry of performance.getEntriesByType('navigation')) {
      seen.add(
        `page ${String((entry as PerformanceEntry & { workerFinalSourceType?: string }).workerFinalSourceType)}`,
      );
    }
    for (const entry of performance.getEntriesByType('resource')) {
      const source = (entry as PerformanceEntry & { workerFinalSourceType?: string }).workerFinalSourceType;
      const what = kind(new URL(entry.name).pathname);
      // what failed while offline was answered by nothing
      const answered = (entry as PerformanceEntry & { responseStatus?: number }).responseStatus !== 0;
      if (what !== 'other' && answered) seen.add(`${what} ${String(source)}`);
    }
    return [...seen].sort();
  });
  expect(sources).toEqual(['API network', 'page fetch-event', 'shell file cache']);
});

/**
 * Serves a new version of the service worker (its BUILD version changed) while `flow` runs, then puts the
 * build's files back. The compressed copies would be sent instead of the file, so they are set aside.
 */
async function withNewVersion(version: string, flow: () => Promise<void>): Promise<void> {
  const sw = join(dist, 'sw.js');
  const original = readFileSync(sw, 'utf8');
  const copies = ['sw.js.br', 'sw.js.gz'].map((f) => join(dist, f)).filter((f) => existsSync(f));
  try {
    for (const copy of copies) renameSync(copy, `${copy}.e2e`);
    const current = /"version":"([0-9a-f]+)"/.exec(original)?.[1];
    expect(current).toBeDefined();
    writeFileSync(sw, original.replace(`"version":"${current ?? ''}"`, `"version":"${version}"`));
    await flow();
  } finally {
    writeFileSync(sw, original);
    for (const copy of copies) if (existsSync(`${copy}.e2e`)) renameSync(`${copy}.e2e`, copy);
  }
}

/**
 * The deployed version is found, offered and not applied; the user taps Reload (`tap`), and the page reloads
 * into it: the new worker serves it and the old version's cache is gone.
 */
async function offeredThenApplied(page: Page, version: string, tap: () => Promise<void>): Promise<void> {
  await openControlled(page, STOCK);
  await withNewVersion(version, async () => {
    await page.evaluate(() => {
      (window as unknown as { beforeUpdate: boolean }).beforeUpdate = true;
    });
    await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      await registration?.update();
    });
    const prompt = page.getByTestId('update-ready');
    await expect(prompt).toContainText('アプリの新しいバージョンがあります', { timeout: 60_000 });
    // offered, not applied: the page is the same document
    expect(await page.evaluate(() => 'beforeUpdate' in window)).toBe(true);
    await tap();
    try {
      await page.waitForFunction(() => !('beforeUpdate' in window), undefined, { timeout: 20_000 });
    } catch (error) {
      throw new Error(`the page did not reload after the tap; the workers: ${await workerStates(page)}`, {
        cause: error,
      });
    }
    await expect(page.getByTestId('update-ready')).toHaveCount(0);
    await expect
      .poll(async () => page.evaluate(async () => window.caches.keys()))
      .toEqual([`kabuto-shell-${version}`]);
    // nothing waits any more
    expect(
      await page.evaluate(
        async () => ((await navigator.serviceWorker.getRegistration())?.waiting ?? null) === null,
      ),
    ).toBe(true);
  });
}

const reloadButton = (page: Page) =>
  page.getByTestId('update-ready').getByRole('button', { name: '再読み込み' });

test('a newly deployed version is offered, and applied only when the user taps Reload', async ({ page }) => {
  test.setTimeout(120_000);
  await offeredThenApplied(page, 'e2e-next', async () => {
    await reloadButton(page).click();
  });
});

test('the new version is applied when the tap itself starts a burst of requests', async ({ page }) => {
  // Without the worker's static routes, requests that reached the old worker while the new one was told to
  // skip waiting left the new one `installed` for good in Chromium: this flow failed three runs in three. The
  // one above failed so in four CI runs of five, most likely because the tap, the page's first touch there,
  // started the overlays' prefetch.
  test.setTimeout(120_000);
  await offeredThenApplied(page, 'e2e-parked', async () => {
    // half a second of requests from the tap on, as a first touch's prefetch makes
    await page.evaluate(() => {
      const files = Array.from(
        document.querySelectorAll<HTMLScriptElement | HTMLLinkElement>('script[src], link[href]'),
        (e) => (e instanceof HTMLScriptElement ? e.src : e.href),
      );
      const burst = () => {
        for (const file of files) void fetch(file).catch(() => undefined);
        for (let i = 0; i < 5; i++) void fetch('/api/health').catch(() => undefined);
      };
      const start = () => {
        const timer = window.setInterval(burst, 5);
        window.setTimeout(() => {
          window.clearInterval(timer);
        }, 500);
      };
      window.addEventListener('pointerdown', start, { capture: true, once: true });
    });
    await reloadButton(page).click();
  });
});
