/**
 * Benchmark: the stock detail page (chart included) in Chromium while its stock's price moves 10 times a
 * second, for DURATION seconds (default 600). The server is bench/chart-server.ts: the real app with the
 * market simulator on a clock running RATE (10) times faster, so that every 100 ms beat is a new simulated
 * second with a new price. Reports the long main-thread tasks (PerformanceObserver 'longtask', which sees
 * tasks over 50 ms; tasks overlapping the bench's own forced GCs and heap snapshots are counted apart and
 * left out of the figure), the JS heap after a forced garbage collection, sampled every 30 s, so growth
 * shows as a slope, and how often the price on screen changed.
 *   npm run build && npm run bench:chart     (DURATION=600 PERIOD=1m CODE=3436 RATE=10 to change)
 * TRACE=1 also runs the CDP sampling profiler over the whole run and prints, for every busy stretch of the
 * main thread over 40 ms, the functions it spent its time in, samples allocations, and takes a heap snapshot
 * at the start and at the end and prints what grew (objects by constructor, count and bytes).
 * SNAPSHOT_AT=60 takes the first snapshot 60 s into the run instead (after the page's warm-up), with or
 * without TRACE: for a long run's growth without the profilers.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { chromium, type CDPSession } from 'playwright-core';

const DURATION = Number(process.env['DURATION'] ?? 600);
const CODE = process.env['CODE'] ?? '3436';
const PERIOD = process.env['PERIOD'];
const RATE = process.env['RATE'] ?? '10';
const TRACE = process.env['TRACE'] === '1';
const SNAPSHOT_AT =
  process.env['SNAPSHOT_AT'] === undefined ? (TRACE ? 0 : null) : Number(process.env['SNAPSHOT_AT']);
const serverTs = new URL('./chart-server.ts', import.meta.url).pathname;

/** Wall-clock stretches (epoch ms) in which the bench itself kept the page's main thread busy. */
const benchWindows: { from: number; to: number; what: string }[] = [];
async function instrument<T>(what: string, run: () => Promise<T>): Promise<T> {
  const from = Date.now();
  try {
    return await run();
  } finally {
    benchWindows.push({ from, to: Date.now(), what });
  }
}
/** Whether [from, to] (epoch ms) overlaps one of the bench's own stretches (with `slack` ms either side). */
const benchOverlap = (from: number, to: number, slack = 20) =>
  benchWindows.find((w) => from <= w.to + slack && to >= w.from - slack)?.what;

const server = spawn(process.execPath, ['--conditions=@kabuto/source', '--import', 'tsx', serverTs], {
  env: { ...process.env, PORT: '0', CODE, RATE, TICK_MS: '100', LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'pipe', 'inherit'],
});

try {
  const ready = await new Promise<{ port: number; start: string; rate: number; sessionLeftS: number }>(
    (resolve, reject) => {
      const lines = createInterface({ input: server.stdout });
      lines.once('line', (line) => {
        resolve(JSON.parse(line) as { port: number; start: string; rate: number; sessionLeftS: number });
      });
      server.once('exit', (code) => {
        reject(new Error(`the bench server exited (${String(code)})`));
      });
    },
  );
  const { port } = ready;
  console.log(
    `server: simulated clock from ${ready.start} at ${ready.rate}x; the session has ${ready.sessionLeftS} real seconds left`,
  );
  if (ready.sessionLeftS < DURATION + 60) {
    console.warn(`warning: the session ends before the run does (DURATION ${DURATION} s)`);
  }
  const browser = await chromium.launch({
    executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await page.addInitScript(() => {
    const w = window as unknown as {
      __longTasks: { at: number; ms: number }[];
      __priceChanges: number[];
    };
    w.__longTasks = [];
    w.__priceChanges = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        w.__longTasks.push({ at: performance.timeOrigin + entry.startTime, ms: entry.duration });
      }
    }).observe({ entryTypes: ['longtask'] });
    // Every change of the shown price (React sets the text node's value, or replaces the text). No named
    // functions in here: tsx would wrap them in a helper that does not exist in the page.
    let shown: string | null = null;
    document.addEventListener('DOMContentLoaded', () => {
      new MutationObserver(() => {
        const text = document.querySelector('[data-testid="last-price"]')?.textContent ?? null;
        if (text !== null && text !== shown) {
          if (shown !== null) w.__priceChanges.push(Date.now());
          shown = text;
        }
      }).observe(document.body, { subtree: true, characterData: true, childList: true });
    });
  });
  await page.goto(
    `http://127.0.0.1:${port}/japan1/#/subPackages/index/gupiaoDetail/gupiaoDetail?code=${CODE}${PERIOD === undefined ? '' : `&period=${PERIOD}`}`,
  );
  await page.waitForSelector('canvas');
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const metrics = async () => {
    const { metrics: list } = await cdp.send('Performance.getMetrics');
    return new Map(list.map((m) => [m.name, m.value]));
  };
  /** The JS heap after a forced GC (MiB), and the page's DOM nodes and event listeners then. */
  const heap = () =>
    instrument('forced GC', async () => {
      await cdp.send('HeapProfiler.collectGarbage');
      const usage = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
      const m = await metrics();
      return {
        mb: usage.usedSize / 1024 / 1024,
        nodes: m.get('Nodes') ?? 0,
        listeners: m.get('JSEventListeners') ?? 0,
      };
    });
  // Let the page settle (lazy chart chunk, first bars), then forget the start-up tasks.
  await page.waitForTimeout(5000);
  const samples: { t: number; mb: number; nodes: number; listeners: number }[] = [
    { t: 0, ...(await heap()) },
  ];
  const snapshot = () => instrument('heap snapshot', () => heapCounts(cdp));
  let startCounts = SNAPSHOT_AT === 0 ? await snapshot() : null;
  let snapshotAt = 0;
  const chartBars = async () => Number(await page.getByTestId('stock-chart').getAttribute('data-bars'));
  const barsAtStart = await chartBars();
  let profileStartedAt = 0;
  if (TRACE) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
    await cdp.send('Profiler.start');
    // Allocations by function, the garbage included (every object the page allocates, not only survivors).
    await cdp.send('HeapProfiler.startSampling', {
      samplingInterval: 16_384,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
    profileStartedAt = Date.now();
  }
  const metricsAtStart = await metrics();
  const started = Date.now();
  let secondsChanged = 0;
  let last = await page.getByTestId('last-price').textContent();
  let secondsSampled = 0;
  while (Date.now() - started < DURATION * 1000) {
    await page.waitForTimeout(1000);
    const now = await page.getByTestId('last-price').textContent();
    if (now !== last) secondsChanged += 1;
    last = now;
    const t = Math.round((Date.now() - started) / 1000);
    secondsSampled += 1;
    if (t % 30 === 0 || Date.now() - started >= DURATION * 1000) samples.push({ t, ...(await heap()) });
    if (SNAPSHOT_AT !== null && startCounts === null && t >= SNAPSHOT_AT) {
      startCounts = await snapshot();
      snapshotAt = t;
    }
  }
  const ended = Date.now();
  const metricsAtEnd = await metrics();
  const barsAtEnd = await chartBars();
  const seen = await page.evaluate(() => {
    const w = window as unknown as { __longTasks: { at: number; ms: number }[]; __priceChanges: number[] };
    return { longTasks: w.__longTasks, priceChanges: w.__priceChanges };
  });
  if (TRACE) {
    const { profile } = (await cdp.send('Profiler.stop')) as { profile: CpuProfile };
    const sampled = (await cdp.send('HeapProfiler.stopSampling')) as { profile: { head: AllocationNode } };
    reportAllocations(sampled.profile.head, (ended - started) / 1000);
    const saved = join(tmpdir(), `kabuto-chart-${Date.now()}.cpuprofile`);
    writeFileSync(saved, JSON.stringify(profile));
    console.log(`\n[trace] CPU profile saved to ${saved} (Chrome DevTools, Performance panel, can load it)`);
    reportBusyStretches(profile, profileStartedAt);
  }
  if (startCounts !== null) {
    await cdp.send('HeapProfiler.collectGarbage');
    console.log(`\n[snapshot] from ${snapshotAt} s into the run to its end:`);
    reportGrowth(startCounts, await heapCounts(cdp));
  }
  await browser.close();

  const inRun = seen.longTasks.filter((l) => l.at >= started && l.at <= ended);
  const ours = inRun.filter((l) => benchOverlap(l.at, l.at + l.ms) !== undefined);
  const app = inRun.filter((l) => benchOverlap(l.at, l.at + l.ms) === undefined);
  const changes = seen.priceChanges.filter((at) => at >= started && at <= ended);
  const changedSeconds = new Set(changes.map((at) => Math.floor((at - started) / 1000))).size;
  const first = samples[0]?.mb ?? 0;
  const final = samples.at(-1)?.mb ?? 0;
  const ms = (list: { ms: number }[]) =>
    list
      .map((l) => l.ms)
      .sort((a, b) => b - a)
      .slice(0, 10)
      .map((v) => v.toFixed(0))
      .join(', ');
  console.log(`\nStock ${CODE}, ${DURATION} s, price moving ~10 times a second, one run:`);
  console.log(
    `  seconds in which the shown price changed: ${changedSeconds} of ${DURATION} (changes seen: ${changes.length}, ${(changes.length / DURATION).toFixed(1)}/s); sampled once a second: ${secondsChanged} of ${secondsSampled}`,
  );
  console.log(
    `  long tasks (> 50 ms) of the page: ${app.length}; longest: ${Math.max(0, ...app.map((l) => l.ms)).toFixed(0)} ms${app.length > 0 ? ` (ms: ${ms(app)})` : ''}`,
  );
  console.log(
    `  left out, during the bench's own forced GCs / heap snapshots: ${ours.length}${ours.length > 0 ? ` (ms: ${ms(ours)})` : ''}`,
  );
  console.log(`  JS heap after GC: ${first.toFixed(1)} MiB at start, ${final.toFixed(1)} MiB at end`);
  console.log(`  bars fetched for the chart: ${barsAtStart} at start, ${barsAtEnd} at end`);
  console.log(`  samples (s: MiB): ${samples.map((s) => `${s.t}: ${s.mb.toFixed(1)}`).join(', ')}`);
  console.log(
    `  DOM nodes / JS event listeners: ${samples.map((s) => `${s.t}: ${s.nodes}/${s.listeners}`).join(', ')}`,
  );
  // Chromium's own counters over the run (CDP Performance.getMetrics): main-thread time by kind, per second.
  const delta = (name: string) => (metricsAtEnd.get(name) ?? 0) - (metricsAtStart.get(name) ?? 0);
  const seconds = (ended - started) / 1000;
  const perS = (name: string) => ((delta(name) * 1000) / seconds).toFixed(1);
  console.log(
    `  main thread per second of run (ms): tasks ${perS('TaskDuration')}, script ${perS('ScriptDuration')}, style ${perS('RecalcStyleDuration')}, layout ${perS('LayoutDuration')}; style recalcs ${(delta('RecalcStyleCount') / seconds).toFixed(1)}/s, layouts ${(delta('LayoutCount') / seconds).toFixed(1)}/s`,
  );
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

/**
 * Busy stretches (consecutive non-idle samples) over 40 ms, each with its heaviest functions. Stretches
 * that overlap the bench's own forced GCs and heap snapshots are counted apart. `startedAt` is the wall
 * clock when the profiler started (the samples' times are offsets from it, to a few ms).
 */
function reportBusyStretches(profile: CpuProfile, startedAt: number): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (id: number) => {
    const f = byId.get(id)?.callFrame;
    if (f === undefined) return '?';
    const file = f.url.split('/').at(-1) ?? '';
    return `${f.functionName || '(anonymous)'} ${file}:${f.lineNumber + 1}`;
  };
  type Stretch = { at: number; ms: number; self: Map<string, number>; total: Map<string, number> };
  const stretches: Stretch[] = [];
  let current: Stretch | null = null;
  let busyMs = 0;
  let clockUs = 0;
  const selfAll = new Map<string, number>();
  const totalAll = new Map<string, number>();
  for (let i = 0; i < profile.samples.length; i += 1) {
    const id = profile.samples[i] ?? 0;
    clockUs += profile.timeDeltas[i] ?? 0;
    const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const name = byId.get(id)?.callFrame.functionName;
    if (name === '(idle)') {
      if (current !== null && current.ms > 40) stretches.push(current);
      current = null;
      continue;
    }
    busyMs += dt;
    const own = label(id);
    selfAll.set(own, (selfAll.get(own) ?? 0) + dt);
    const counted = new Set<string>();
    for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
      const l = label(n);
      if (counted.has(l)) continue;
      counted.add(l);
      totalAll.set(l, (totalAll.get(l) ?? 0) + dt);
    }
    current ??= { at: startedAt + clockUs / 1000, ms: 0, self: new Map(), total: new Map() };
    current.ms += dt;
    current.self.set(own, (current.self.get(own) ?? 0) + dt);
    for (const l of counted) current.total.set(l, (current.total.get(l) ?? 0) + dt);
  }
  if (current !== null && current.ms > 40) stretches.push(current);
  const top = (m: Map<string, number>, k: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, k)
      .map(([l, ms]) => `${ms.toFixed(0)} ms ${l}`);
  // The profile's times line up with the wall clock only to about 0.1 s: a stretch that is mostly garbage
  // collection within 250 ms of a forced GC or a snapshot of the bench is the bench's.
  const isOurs = (s: Stretch) =>
    benchOverlap(s.at, s.at + s.ms, 250) !== undefined &&
    (s.self.get('(garbage collector) :0') ?? 0) >= 0.7 * s.ms;
  const ours = stretches.filter(isOurs);
  const app = stretches.filter((s) => !isOurs(s));
  console.log(`\n[trace] main thread busy (non-idle samples): ${(busyMs / 1000).toFixed(1)} s`);
  console.log(`[trace] whole run, self: ${top(selfAll, 12).join(' | ')}`);
  console.log(`[trace] whole run, total: ${top(totalAll, 25).join(' | ')}`);
  console.log(
    `[trace] the bench's own work (s from the profile's start: ms): ${benchWindows.map((w) => `${((w.from - startedAt) / 1000).toFixed(1)}: ${w.to - w.from}`).join(', ')}`,
  );
  console.log(
    `[trace] busy stretches over 40 ms: ${app.length} of the page; ${ours.length} during the bench's own forced GCs / snapshots (${ours.map((s) => s.ms.toFixed(0)).join(', ')} ms)`,
  );
  for (const s of app.sort((a, b) => b.ms - a.ms).slice(0, 8)) {
    const t = ((s.at - startedAt) / 1000).toFixed(1);
    console.log(`  stretch of ${s.ms.toFixed(0)} ms at ${t} s; self: ${top(s.self, 6).join(' | ')}`);
    console.log(`    total: ${top(s.total, 14).join(' | ')}`);
  }
}

interface AllocationNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: AllocationNode[];
}

/** Allocation rate over the run and the functions that allocate most (themselves, and with their callees). */
function reportAllocations(head: AllocationNode, seconds: number): void {
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  const walk = (n: AllocationNode, above: ReadonlySet<string>): number => {
    const f = n.callFrame;
    const l = `${f.functionName || '(anonymous)'} ${f.url.split('/').at(-1) ?? ''}:${f.lineNumber + 1}`;
    self.set(l, (self.get(l) ?? 0) + n.selfSize);
    const inner = new Set(above).add(l);
    let sum = n.selfSize;
    for (const c of n.children) sum += walk(c, inner);
    if (!above.has(l)) total.set(l, (total.get(l) ?? 0) + sum);
    return sum;
  };
  const all = walk(head, new Set());
  const rate = (bytes: number) => `${(bytes / 1024 / seconds).toFixed(0)} KiB/s`;
  const top = (m: Map<string, number>, k: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, k)
      .map(([l, b]) => `${rate(b)} ${l}`)
      .join(' | ');
  console.log(
    `\n[trace] allocated: ${(all / 1024 / 1024 / seconds).toFixed(2)} MiB/s (sampled, garbage included)`,
  );
  console.log(`[trace] allocations, self: ${top(self, 10)}`);
  console.log(`[trace] allocations, total: ${top(total, 16)}`);
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
  console.log(`[snapshot] end minus start: ${(total / 1024).toFixed(0)} KiB`);
  for (const r of rows.sort((x, y) => y.bytes - x.bytes).slice(0, 25)) {
    console.log(
      `  ${(r.bytes / 1024).toFixed(1).padStart(8)} KiB ${String(r.count).padStart(7)} objects (now ${r.now})  ${r.key}`,
    );
  }
}
