// Loaded into a benchmark's server process (`node --import ./server-probe.mjs`): watches the event loop's
// delay, the garbage collector's pauses, and how long the server itself takes over each POST request
// (from its 'request' event to the end of its answer), so that a benchmark can tell time spent in the
// server from time spent on the way or in the load generator. On SIGUSR2 it writes what it saw since the
// last signal to PROBE_FILE (JSON), with the times of its slow POSTs and longer GC pauses, and starts again, so the benchmark reads its measured stretch only.
import { writeFileSync } from 'node:fs';
import { Server } from 'node:http';
import { PerformanceObserver, createHistogram, monitorEventLoopDelay, performance } from 'node:perf_hooks';

const file = process.env.PROBE_FILE;
const delay = monitorEventLoopDelay({ resolution: 5 });
delay.enable();
let gc = { count: 0, totalMs: 0, maxMs: 0 };
// [wall-clock ms (timeOrigin + now) at the start, ms] of POSTs over 20 ms and of GC pauses over 4 ms, so that
// the benchmark can line them up with its slow orders
let slowPosts = [];
let gcPauses = [];
// microseconds a POST took in the server
const posts = createHistogram();
const emit = Server.prototype.emit;
Server.prototype.emit = function (event, ...args) {
  if (event === 'request' && args[0]?.method === 'POST') {
    const start = performance.now();
    args[1]?.once('finish', () => {
      const took = performance.now() - start;
      posts.record(Math.max(1, Math.round(took * 1000)));
      if (took > 20 && slowPosts.length < 10_000) slowPosts.push([performance.timeOrigin + start, took]);
    });
  }
  return emit.call(this, event, ...args);
};
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    gc.count += 1;
    gc.totalMs += entry.duration;
    gc.maxMs = Math.max(gc.maxMs, entry.duration);
    if (entry.duration > 4 && gcPauses.length < 10_000)
      gcPauses.push([performance.timeOrigin + entry.startTime, entry.duration]);
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
        slowPosts,
        gcPauses,
      }),
    );
  }
  delay.reset();
  posts.reset();
  gc = { count: 0, totalMs: 0, maxMs: 0 };
  slowPosts = [];
  gcPauses = [];
});
