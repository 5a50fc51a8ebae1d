/**
 * The server for `npm run bench:chart`, started in its own process: the real app (Fastify, the built web
 * app, PGlite, in-process realtime) with the market simulator on a clock that runs RATE times faster than
 * the wall clock (default 10), in Tokyo mode, inside an afternoon session. The simulator prices to the
 * second, so at 10× with a 100 ms beat every beat is a new simulated second and carries a new quote (time,
 * volume, turnover, and the price whenever the simulated tape moved that second). With
 * MARKET_CLOCK=always-open a virtual second lasts about 4.4 real seconds, so the price hardly moved.
 *
 * Nothing here changes the product: it builds the app with buildApp's injectable clock and market options.
 * The same clock is the app's, so the market status (continuous session, server time) agrees with the
 * quotes. Side effects of the speed-up: a minute bar forms every 6 real seconds (60 / RATE), and sessions
 * and expiries age RATE times faster (the bench does not log in).
 *
 * Env: PORT (default 0: any), CODE (default 3436: the only stock that ticks), RATE (default 10), TICK_MS
 * (default 100), START (ISO instant, default 2026-11-20 12:40:00.5 Tokyo: a fixed day, so every run sees
 * the same prices; 165 simulated minutes of session are left, 16.5 real minutes at 10×), WEB_DIST (another
 * build of the web app, e.g. `vite build --minify false --outDir …` for a profile with real names).
 * Prints one JSON line {port, start, rate, sessionLeftS} when it listens.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import { openDatabase } from '../apps/server/src/db/client.js';
import type { Clock } from '../apps/server/src/lib/clock.js';
import { tokyoInstant, tokyoParts } from '../apps/server/src/lib/tokyo-time.js';
import { TSE_HOURS } from '../apps/server/src/market/sessions.js';
import { MarketSimulator } from '../apps/server/src/market/simulator.js';

const CODE = process.env['CODE'] ?? '3436';
const RATE = Number(process.env['RATE'] ?? 10);
const TICK_MS = Number(process.env['TICK_MS'] ?? 100);
if (!(RATE > 0) || !(TICK_MS >= 10)) throw new RangeError('RATE must be positive and TICK_MS at least 10');

/**
 * A clock that starts at `start` when restart() is called and then runs `rate` times faster than the
 * process's monotonic clock. Before restart() it stands at `start`.
 */
class AcceleratedClock implements Clock {
  private origin: number | null = null;
  constructor(
    private readonly start: number,
    private readonly rate: number,
  ) {}
  restart(): void {
    this.origin = performance.now();
  }
  now(): Date {
    const elapsed = this.origin === null ? 0 : performance.now() - this.origin;
    return new Date(this.start + elapsed * this.rate);
  }
}

// Half a second into the simulated second: a beat must be 50 ms late (at 10×) to land in the next one.
const start = Date.parse(process.env['START'] ?? '2026-11-20T12:40:00.500+09:00');
if (!Number.isFinite(start)) throw new RangeError('START must be an ISO instant');
const sessionEnd = tokyoInstant(tokyoParts(new Date(start)).date, TSE_HOURS.continuousEnd).getTime();

const clock = new AcceleratedClock(start, RATE);
const config = loadConfig({
  PORT: process.env['PORT'] ?? '0',
  HOST: '127.0.0.1',
  DATA_DIR: mkdtempSync(join(tmpdir(), 'kabuto-bench-chart-')),
  LOG_LEVEL: process.env['LOG_LEVEL'] ?? 'warn',
  // another build of the web app, e.g. an unminified one for readable profiles
  WEB_DIST: process.env['WEB_DIST'],
  DEMO_MODE: 'false',
  MARKET_CLOCK: 'tokyo',
  MARKET_TICK_MS: String(TICK_MS),
  MARKET_TICK_FRACTION: '1',
});
const market = new MarketSimulator({
  clock,
  mode: 'tokyo',
  seed: config.MARKET_SEED,
  universe: config.MARKET_UNIVERSE,
  // Only the stock on screen: the server shares the machine with Chromium, and the page sees no other.
  codes: [CODE],
  tickIntervalMs: TICK_MS,
  tickFraction: 1,
});
const database = await openDatabase({ url: '', dataDir: join(config.DATA_DIR, 'pglite') });
await database.migrate();
const app = await buildApp({ config, database, clock, market });
// Start the feed now, with the clock, so that beat k falls at start + k×RATE×TICK_MS (idempotent: the
// realtime hub's own start() of the feed later does nothing).
clock.restart();
market.start();
await app.listen({ port: config.PORT, host: config.HOST });
const address = app.server.address();
const port = typeof address === 'object' && address !== null ? address.port : config.PORT;
console.log(
  JSON.stringify({
    port,
    start: new Date(start).toISOString(),
    rate: RATE,
    sessionLeftS: Math.round((sessionEnd - start) / 1000 / RATE),
  }),
);

const shutdown = () => {
  void app
    .close()
    .then(() => database.close())
    .then(() => process.exit(0));
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
