/**
 * Benchmark (issue 21): the phone's CPU alone. Each page is opened in Chromium (Playwright's, or CHROMIUM_PATH)
 * with the CPU slowed 4× as Lighthouse's mobile default does (`Emulation.setCPUThrottlingRate`), but with the
 * network not throttled, so that what is left is the main thread's work. Long tasks come from a
 * PerformanceObserver. TBT is their time over 50 ms from the first contentful paint until 6 s after the load
 * started. Prints the median TBT and the median longest task per page and build, over RUNS runs.
 *
 * Lighthouse's own TBT is a simulation from one trace, and on these 2-core machines consecutive medians of 3 of
 * the same build differed by up to 600 ms. This bench measures one thing with less noise, and can compare builds
 * side by side. Each build gets its own server, and the runs alternate between them.
 *
 *   npm run build && npm run bench:main-thread
 *   (RUNS=5; PAGES=home,market,stock-detail,login; BUILDS="before=/path/to/other/apps/web/dist,after=apps/web/dist"
 *   compares builds of the web app, each served by this tree's built server, paths from the repository's root;
 *   PORT=8400 is the first server's; PROFILE=1 also prints, for each load, what its four longest tasks were
 *   made of: the functions with the most time inside each, from V8's sampling profiler, long-task-profile.ts)
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startBuiltServer } from './built-server.js';
import { longTaskBreakdown, startProfile } from './long-task-profile.js';

const runs = Number(process.env['RUNS'] ?? 5);
const firstPort = Number(process.env['PORT'] ?? 8400);
const chromePath = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
/** Paths in BUILDS are taken from the repository's root. */
const root = fileURLToPath(new URL('..', import.meta.url));
const builds = (process.env['BUILDS'] ?? 'this build=apps/web/dist').split(',').map((pair) => {
  const [name, dist] = pair.split('=');
  if (name === undefined || dist === undefined) throw new Error(`BUILDS: name=path pairs, not ${pair}`);
  return { name: name.trim(), dist: resolve(root, dist.trim()) };
});
const ALL_PAGES: Record<string, string> = {
  home: '#/pages/index/index',
  market: '#/pages/market/market',
  'stock-detail': '#/subPackages/index/gupiaoDetail/gupiaoDetail?code=7203',
  login: '#/subPackages/login/login',
};
const profile = process.env['PROFILE'] === '1';
const pages = (process.env['PAGES'] ?? Object.keys(ALL_PAGES).join(',')).split(',').map((p) => p.trim());
for (const page of pages)
  if (!(page in ALL_PAGES)) throw new Error(`PAGES: ${Object.keys(ALL_PAGES).join(', ')}`);

/** One page load: TBT from the first contentful paint, and the longest task, in ms. */
interface Load {
  tbt: number;
  longest: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

const dataDirs: string[] = [];
const servers: ChildProcess[] = [];
try {
  const origins = await Promise.all(
    builds.map(async ({ dist }, i) => {
      const dataDir = mkdtempSync(join(tmpdir(), 'kabuto-main-thread-'));
      dataDirs.push(dataDir);
      const port = firstPort + i;
      servers.push(await startBuiltServer(port, dataDir, { WEB_DIST: dist }));
      return `http://127.0.0.1:${port}`;
    }),
  );
  const browser = await chromium.launch({ executablePath: chromePath });
  const loads = new Map<string, Load[]>();
  for (let run = 0; run < runs; run++) {
    for (const [i, { name }] of builds.entries()) {
      for (const page of pages) {
        const context = await browser.newContext({ viewport: { width: 412, height: 823 }, locale: 'ja-JP' });
        const tab = await context.newPage();
        await tab.addInitScript(() => {
          const tasks: [number, number][] = [];
          (globalThis as unknown as { __longTasks: [number, number][] }).__longTasks = tasks;
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries()) tasks.push([entry.startTime, entry.duration]);
          }).observe({ type: 'longtask', buffered: true });
        });
        const cdp = await context.newCDPSession(tab);
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
        if (profile) await startProfile(cdp);
        await tab.goto(`${origins[i] ?? ''}/japan1/${ALL_PAGES[page] ?? ''}`);
        await tab.waitForTimeout(6000);
        const [tasks, fcp] = await tab.evaluate(() => [
          (globalThis as unknown as { __longTasks: [number, number][] }).__longTasks,
          performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0,
        ]);
        const tbt = tasks
          .filter(([start]) => start >= fcp)
          .reduce((sum, [, d]) => sum + Math.max(0, d - 50), 0);
        const longest = Math.max(0, ...tasks.map(([, d]) => d));
        if (profile) {
          console.log(`${page} ${name}, run ${String(run + 1)}: TBT ${tbt.toFixed(0)} ms`);
          for (const line of await longTaskBreakdown(cdp, tasks)) console.log(`  ${line}`);
        }
        const key = `${page}\u0000${name}`;
        loads.set(key, [...(loads.get(key) ?? []), { tbt, longest }]);
        await context.close();
      }
    }
  }
  await browser.close();
  console.log(
    `The main thread at 4× CPU, network not throttled, ${runs} runs per page and build (medians, ms):`,
  );
  for (const page of pages) {
    for (const { name } of builds) {
      const list = loads.get(`${page}\u0000${name}`) ?? [];
      console.log(
        `  ${page.padEnd(13)} ${name.padEnd(14)} TBT ${median(list.map((l) => l.tbt))
          .toFixed(0)
          .padStart(5)}` +
          `   longest task ${median(list.map((l) => l.longest))
            .toFixed(0)
            .padStart(4)}` +
          `   (runs: ${list.map((l) => l.tbt.toFixed(0)).join(' ')})`,
      );
    }
  }
} finally {
  for (const server of servers) server.kill();
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
}
