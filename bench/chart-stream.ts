/**
 * Benchmark: the stock detail page (chart included) in Chromium while its stock ticks 10 times a second,
 * for DURATION seconds (default 600). Reports the longest main-thread task (PerformanceObserver
 * 'longtask', which sees tasks over 50 ms) and the JS heap after a forced garbage collection, sampled
 * every 30 s, so growth shows as a slope.
 *   npm run build && npm run bench:chart     (DURATION=600 PERIOD=1m CODE=7203 to change)
 * TRACE=1 also runs the CDP sampling profiler over the whole run and prints, for every busy stretch of the
 * main thread over 40 ms, the functions it spent its time in; and takes a heap snapshot at the start and at
 * the end and prints what grew (objects by constructor, count and bytes).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type CDPSession } from 'playwright-core';

const DURATION = Number(process.env['DURATION'] ?? 600);
const CODE = process.env['CODE'] ?? '7203';
const PERIOD = process.env['PERIOD'];
const TRACE = process.env['TRACE'] === '1';
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
    `http://127.0.0.1:${PORT}/japan1/#/subPackages/index/gupiaoDetail/gupiaoDetail?code=${CODE}${PERIOD === undefined ? '' : `&period=${PERIOD}`}`,
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
  const startCounts = TRACE ? await heapCounts(cdp) : null;
  if (TRACE) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
    await cdp.send('Profiler.start');
  }
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
  if (TRACE && startCounts !== null) {
    const { profile } = (await cdp.send('Profiler.stop')) as { profile: CpuProfile };
    reportBusyStretches(profile);
    await cdp.send('HeapProfiler.collectGarbage');
    reportGrowth(startCounts, await heapCounts(cdp));
  }
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

// ---- TRACE=1 helpers ----

interface CpuProfile {
  nodes: {
    id: number;
    parent?: number;
    children?: number[];
    callFrame: { functionName: string; url: string; lineNumber: number };
  }[];
  samples: number[];
  timeDeltas: number[];
}

/** Busy stretches (consecutive non-idle samples) over 40 ms, each with its heaviest functions. */
function reportBusyStretches(profile: CpuProfile): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (id: number) => {
    const f = byId.get(id)?.callFrame;
    if (f === undefined) return '?';
    const file = f.url.split('/').at(-1) ?? '';
    return `${f.functionName || '(anonymous)'} ${file}:${f.lineNumber + 1}`;
  };
  const stretches: { ms: number; self: Map<string, number>; total: Map<string, number> }[] = [];
  let current: (typeof stretches)[number] | null = null;
  let busyMs = 0;
  for (let i = 0; i < profile.samples.length; i += 1) {
    const id = profile.samples[i] ?? 0;
    const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const name = byId.get(id)?.callFrame.functionName;
    if (name === '(idle)') {
      if (current !== null && current.ms > 40) stretches.push(current);
      current = null;
      continue;
    }
    busyMs += dt;
    current ??= { ms: 0, self: new Map(), total: new Map() };
    current.ms += dt;
    const self = label(id);
    current.self.set(self, (current.self.get(self) ?? 0) + dt);
    const seen = new Set<string>();
    for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
      const l = label(n);
      if (seen.has(l)) continue;
      seen.add(l);
      current.total.set(l, (current.total.get(l) ?? 0) + dt);
    }
  }
  if (current !== null && current.ms > 40) stretches.push(current);
  const top = (m: Map<string, number>, k: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, k)
      .map(([l, ms]) => `${ms.toFixed(1)} ms ${l}`);
  console.log(`\n[trace] main thread busy (non-idle samples): ${(busyMs / 1000).toFixed(1)} s`);
  console.log(`[trace] busy stretches over 40 ms: ${stretches.length}`);
  for (const s of stretches.sort((a, b) => b.ms - a.ms).slice(0, 5)) {
    console.log(`  stretch of ${s.ms.toFixed(0)} ms; self: ${top(s.self, 6).join(' | ')}`);
    console.log(`    total: ${top(s.total, 14).join(' | ')}`);
  }
}

type Counts = Map<string, { count: number; bytes: number }>;

/** Objects in a heap snapshot, by kind and constructor (strings by kind only). */
async function heapCounts(cdp: CDPSession): Promise<Counts> {
  const chunks: string[] = [];
  const onChunk = (e: { chunk: string }) => chunks.push(e.chunk);
  cdp.on('HeapProfiler.addHeapSnapshotChunk', onChunk);
  await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  cdp.off('HeapProfiler.addHeapSnapshotChunk', onChunk);
  const snap = JSON.parse(chunks.join('')) as {
    snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
    nodes: number[];
    strings: string[];
  };
  const fields = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[0];
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f)) as [
    number,
    number,
    number,
  ];
  const counts: Counts = new Map();
  for (let i = 0; i < snap.nodes.length; i += fields.length) {
    const type = types[snap.nodes[i + typeAt] ?? 0] ?? '?';
    const name = snap.strings[snap.nodes[i + nameAt] ?? 0] ?? '';
    const key = type.includes('string') || type === 'number' ? type : `${type}: ${name.slice(0, 70)}`;
    const c = counts.get(key) ?? { count: 0, bytes: 0 };
    c.count += 1;
    c.bytes += snap.nodes[i + sizeAt] ?? 0;
    counts.set(key, c);
  }
  return counts;
}

function reportGrowth(before: Counts, after: Counts): void {
  const rows = [...after].map(([key, a]) => {
    const b = before.get(key) ?? { count: 0, bytes: 0 };
    return { key, count: a.count - b.count, bytes: a.bytes - b.bytes, now: a.count };
  });
  const total = rows.reduce((s, r) => s + r.bytes, 0);
  console.log(`\n[trace] heap snapshot, end minus start: ${(total / 1024).toFixed(0)} KiB`);
  for (const r of rows.sort((x, y) => y.bytes - x.bytes).slice(0, 25)) {
    console.log(
      `  ${(r.bytes / 1024).toFixed(1).padStart(8)} KiB ${String(r.count).padStart(7)} objects (now ${r.now})  ${r.key}`,
    );
  }
}
