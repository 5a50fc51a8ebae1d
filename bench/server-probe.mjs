// Loaded into a benchmark's server process (`node --import ./server-probe.mjs`): watches the event loop's
// delay, the garbage collector's pauses, and how long the server itself takes over each POST request
// (from its 'request' event to the end of its answer), so that a benchmark can tell time spent in the
// server from time spent on the way or in the load generator. On SIGUSR2 it writes what it saw since the
// last signal to PROBE_FILE (JSON) and starts again, so the benchmark reads its measured stretch only.
import { writeFileSync } from 'node:fs';
import { Server } from 'node:http';
import { PerformanceObserver, createHistogram, monitorEventLoopDelay, performance } from 'node:perf_hooks';

const file = process.env.PROBE_FILE;
const delay = monitorEventLoopDelay({ resolution: 5 });
delay.enable();
let gc = { count: 0, totalMs: 0, maxMs: 0 };
// microseconds a POST took in the server
const posts = createHistogram();
const emit = Server.prototype.emit;
Server.prototype.emit = function (event, ...args) {
  if (event === 'request' && args[0]?.method === 'POST') {
    const start = performance.now();
    args[1]?.once('finish', () => posts.record(Math.max(1, Math.round((performance.now() - start) * 1000))));
  }
  return emit.call(this, event, ...args);
};
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
        postCount: posts.count,
        postP50: Math.round(posts.percentile(50) / 10) / 100,
        postP99: Math.round(posts.percentile(99) / 10) / 100,
        postMax: Math.round(posts.max / 10) / 100,
      }),
    );
  }
  delay.reset();
  posts.reset();
  gc = { count: 0, totalMs: 0, maxMs: 0 };
});
