// Loaded into a benchmark's server process with PG_PROBE=1 (bench/orders.ts): how long each statement
// took on node-postgres (by prepared-statement name, or the text's first words) and how long a
// transaction waited for one of the pool's connections. On SIGUSR2 it writes what it saw since the last
// signal to PG_PROBE_FILE (one line per statement) and starts again. It wraps pg's Client.prototype.query
// and Pool.prototype.connect, so it sees the server's statements only when the server uses the same pg
// module (the workspace's hoisted one).
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createHistogram, performance } from 'node:perf_hooks';

const require = createRequire(new URL('../apps/server/package.json', import.meta.url));
const pg = require('pg');
const file = process.env.PG_PROBE_FILE;
const histograms = new Map();
const record = (key, ms) => {
  let histogram = histograms.get(key);
  if (!histogram) {
    histogram = createHistogram();
    histograms.set(key, histogram);
  }
  histogram.record(Math.max(1, Math.round(ms * 1000)));
};
const timed = (key, result) => {
  const start = performance.now();
  if (result && typeof result.then === 'function') {
    result.then(
      () => record(key, performance.now() - start),
      () => undefined,
    );
  }
  return result;
};

const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (config, values, callback) {
  const text = typeof config === 'string' ? config : (config?.name ?? config?.text ?? '?');
  const key = text.replace(/\s+/g, ' ').trim().split(' ').slice(0, 3).join(' ').slice(0, 48);
  return timed(key, query.call(this, config, values, callback));
};
const connect = pg.Pool.prototype.connect;
pg.Pool.prototype.connect = function (callback) {
  return timed('(waiting for a pool connection)', connect.call(this, callback));
};

process.on('SIGUSR2', () => {
  if (file) {
    const ms = (us) => (us / 1000).toFixed(2);
    const lines = [...histograms]
      .filter(([, h]) => h.count > 0)
      .sort((a, b) => b[1].count - a[1].count)
      .map(
        ([key, h]) =>
          `${key.padEnd(50)} ${String(h.count).padStart(6)}  ${ms(h.percentile(50))} / ${ms(h.percentile(99))} / ${ms(h.max)}`,
      );
    writeFileSync(file, lines.join('\n'));
  }
  for (const histogram of histograms.values()) histogram.reset();
});
