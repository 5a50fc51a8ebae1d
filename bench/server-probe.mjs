// Loaded into a benchmark's server process (`node --import ./server-probe.mjs`): watches the event loop's
// delay and the garbage collector's pauses. On SIGUSR2 it writes what it saw since the last signal to
// PROBE_FILE (JSON) and starts again, so the benchmark can read the figures of its measured stretch only.
import { writeFileSync } from 'node:fs';
import { PerformanceObserver, monitorEventLoopDelay } from 'node:perf_hooks';

const file = process.env.PROBE_FILE;
const delay = monitorEventLoopDelay({ resolution: 5 });
delay.enable();
let gc = { count: 0, totalMs: 0, maxMs: 0 };
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    gc.count += 1;
    gc.totalMs += entry.duration;
    gc.maxMs = Math.max(gc.maxMs, entry.duration);
  }
}).observe({ entryTypes: ['gc'] });

process.on('SIGUSR2', () => {
  if (file) {
    const ms = (ns) => Math.round(ns / 1e4) / 100;
    writeFileSync(
      file,
      JSON.stringify({
        delayP50: ms(delay.percentile(50)),
        delayP99: ms(delay.percentile(99)),
        delayMax: ms(delay.max),
        gcCount: gc.count,
        gcTotalMs: Math.round(gc.totalMs),
        gcMaxMs: Math.round(gc.maxMs * 10) / 10,
      }),
    );
  }
  delay.reset();
  gc = { count: 0, totalMs: 0, maxMs: 0 };
});
