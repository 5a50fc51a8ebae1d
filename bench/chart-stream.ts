/**
 * Benchmark: the stock detail page (chart included) in Chromium while its stock ticks 10 times a second,
 * for DURATION seconds (default 600). Reports the longest main-thread task (PerformanceObserver
 * 'longtask', which sees tasks over 50 ms) and the JS heap after a forced garbage collection, sampled
 * every 30 s, so growth shows as a slope.
 *   npm run build && npm run bench:chart     (DURATION=600 PERIOD=1m CODE=7203 to change)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const DURATION = Number(process.env['DURATION'] ?? 600);
const CODE = process.env['CODE'] ?? '7203';
const PORT = 18401;
const mainJs = new URL('../apps/server/dist/main.js', import.meta.url).pathname;

const server = spawn(process.execPath, [mainJs], {
  env: {
    ...process.env,
    PORT: String(PORT),
    HOST: '127.0.0.1',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'kabuto-bench-chart-')),
    DATABASE_URL: '',
    REDIS_URL: '',
    MARKET_CLOCK: 'always-open',
    // Every symbol ticks on every beat, ten beats a second: 10 ticks/s for the stock on screen.
    MARKET_TICK_MS: '100',
    MARKET_TICK_FRACTION: '1',
    LOG_LEVEL: 'warn',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});

try {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${PORT}/api/health`)).ok) break;
    } catch {
      if (i > 300) throw new Error('server did not start');
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const browser = await chromium.launch({
    executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await page.addInitScript(() => {
    const w = window as unknown as { __longTasks: number[] };
    w.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.__longTasks.push(entry.duration);
    }).observe({ entryTypes: ['longtask'] });
  });
  await page.goto(
    `http://127.0.0.1:${PORT}/japan1/#/subPackages/index/gupiaoDetail/gupiaoDetail?code=${CODE}`,
  );
  await page.waitForSelector('canvas');
  const cdp = await page.context().newCDPSession(page);
  const heap = async () => {
    await cdp.send('HeapProfiler.collectGarbage');
    const usage = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
    return usage.usedSize / 1024 / 1024;
  };
  // Let the page settle (lazy chart chunk, first bars), then forget the start-up tasks.
  await page.waitForTimeout(5000);
  await page.evaluate(() => {
    (window as unknown as { __longTasks: number[] }).__longTasks = [];
  });
  const samples: { t: number; mb: number }[] = [{ t: 0, mb: await heap() }];
  const firstPrice = await page.getByTestId('last-price').textContent();
  let changes = 0;
  let last = firstPrice;
  const started = Date.now();
  while (Date.now() - started < DURATION * 1000) {
    await page.waitForTimeout(1000);
    const now = await page.getByTestId('last-price').textContent();
    if (now !== last) changes += 1;
    last = now;
    const t = Math.round((Date.now() - started) / 1000);
    if (t % 30 === 0 || Date.now() - started >= DURATION * 1000) samples.push({ t, mb: await heap() });
  }
  const longTasks = await page.evaluate(() => (window as unknown as { __longTasks: number[] }).__longTasks);
  await browser.close();
  const first = samples[0]?.mb ?? 0;
  const final = samples.at(-1)?.mb ?? 0;
  console.log(`\nStock ${CODE}, ${DURATION} s at 10 ticks/s, one run:`);
  console.log(`  seconds in which the shown price changed: ${changes} of ${DURATION}`);
  console.log(
    `  long tasks (> 50 ms): ${longTasks.length}; longest: ${Math.max(0, ...longTasks).toFixed(0)} ms`,
  );
  console.log(`  JS heap after GC: ${first.toFixed(1)} MiB at start, ${final.toFixed(1)} MiB at end`);
  console.log(`  samples (s: MiB): ${samples.map((s) => `${s.t}: ${s.mb.toFixed(1)}`).join(', ')}`);
} finally {
  server.kill('SIGTERM');
}
