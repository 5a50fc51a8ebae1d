/**
 * Measures what the size of the simulated universe costs (ADR 0012): the market list endpoints through
 * the real app (app.inject, in-memory PGlite, no user), one beat of the live feed (with the JSON
 * serialization the tick producer does per event), and the process's memory, at each MARKET_UNIVERSE.
 * Each universe runs in its own child process so that memory figures do not mix. Prints figures; asserts
 * nothing. Run it alone on the machine (it is CPU-bound):
 *
 *   npm run bench:universe [-- universe…]
 *
 * It also moves the clock through the five minutes before the next open (the feed prepares the day's
 * paths then) and to the open after that without beats (what a process that does not produce sees).
 *
 * The clock is fixed at Tuesday 2026-11-24 10:00 Tokyo (in session) and moved by hand: a second per
 * round of requests and per beat, so quotes change as they would live.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import { openDatabase } from '../apps/server/src/db/client.js';
import { FixedClock } from '../apps/server/src/lib/clock.js';
import { MarketSimulator } from '../apps/server/src/market/simulator.js';
import { MARKET_UNIVERSES, type MarketUniverse } from '../apps/server/src/market/universe.js';

const START = '2026-11-24T01:00:00.000Z'; // Tue 10:00 Tokyo
const NEXT_PRE_OPEN = '2026-11-24T23:55:00.000Z'; // Wed 8:55 Tokyo
const NEXT_OPEN = '2026-11-25T00:00:00.000Z'; // Wed 9:00 Tokyo
const THIRD_OPEN = '2026-11-26T00:00:01.000Z'; // Thu 9:00:01 Tokyo
const ROUNDS = 30;
const BEATS = 180;

const ENDPOINTS = [
  '/api/market/list?sort=gainers&limit=50',
  '/api/market/list?sort=losers&limit=50',
  '/api/market/list?sort=active&limit=50',
  '/api/market/list?sort=turnover&limit=50',
  '/api/market/sectors',
  '/api/market/search?q=%E6%A0%AA',
  '/api/market/stock?code=7203',
];

interface Figures {
  universe: MarketUniverse;
  symbols: number;
  buildMs: number;
  firstListMs: number;
  endpoints: { url: string; p50: number; p95: number; max: number }[];
  beat: { p50: number; p95: number; max: number; events: number; jsonKb: number };
  preparingBeatMaxMs: number;
  firstBeatOfDayMs: number;
  firstListOfDayMs: number;
  unpreparedFirstListMs: number;
  rssReadyMb: number;
  rssEndMb: number;
  heapEndMb: number;
  buffersEndMb: number;
  paths: number;
  /** a process with the simulator alone (no app, no database): RSS and JS heap + array buffers */
  bare: { rssMb: number; heapMb: number; buffersMb: number };
}

const mb = (bytes: number): number => Math.round(bytes / 1e5) / 10;
const round1 = (ms: number): number => Math.round(ms * 10) / 10;

function stats(samples: number[]): { p50: number; p95: number; max: number } {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number): number => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
  return { p50: round1(at(0.5)), p95: round1(at(0.95)), max: round1(s.at(-1) ?? 0) };
}

/** A full collection, twice with a pause, so that array buffers freed by the first are swept. */
async function gc(): Promise<void> {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (!collect) throw new Error('run with node --expose-gc');
  collect();
  await new Promise((resolve) => setTimeout(resolve, 200));
  collect();
}

async function measure(universe: MarketUniverse): Promise<Omit<Figures, 'bare'>> {
  const config = loadConfig({
    DATA_DIR: mkdtempSync(join(tmpdir(), 'kabuto-measure-')),
    LOG_LEVEL: 'silent',
    DEMO_MODE: 'false',
    MARKET_UNIVERSE: universe,
    WEB_DIST: join(tmpdir(), 'kabuto-no-web-dist'),
    CONSOLE_DIST: join(tmpdir(), 'kabuto-no-console-dist'),
  });
  const database = await openDatabase({});
  await database.migrate();
  const clock = new FixedClock(START);
  let started = performance.now();
  const market = new MarketSimulator({
    clock,
    mode: config.MARKET_CLOCK,
    seed: config.MARKET_SEED,
    universe: config.MARKET_UNIVERSE,
    tickIntervalMs: config.MARKET_TICK_MS,
    tickFraction: config.MARKET_TICK_FRACTION,
  });
  const buildMs = performance.now() - started;
  const app = await buildApp({ config, database, clock, logger: false, market, produceTicks: false });
  await app.ready();
  await gc();
  const rssReady = process.memoryUsage().rss;
  const inject = async (url: string): Promise<number> => {
    const t0 = performance.now();
    const res = await app.inject({ url });
    const ms = performance.now() - t0;
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    return ms;
  };

  const firstListMs = await inject(ENDPOINTS[0] ?? '');
  const samples = new Map<string, number[]>(ENDPOINTS.map((u) => [u, []]));
  for (let round = 0; round < ROUNDS; round++) {
    clock.advance(1_000);
    for (const url of ENDPOINTS) samples.get(url)?.push(await inject(url));
  }

  let events = 0;
  let bytes = 0;
  market.subscribe((event) => {
    events += 1;
    bytes += JSON.stringify(event).length;
  });
  market.beat(); // the first beat sends everything; not counted
  const beats: number[] = [];
  events = 0;
  bytes = 0;
  for (let i = 0; i < BEATS; i++) {
    clock.advance(1_000);
    started = performance.now();
    market.beat();
    beats.push(performance.now() - started);
  }
  const beatEvents = Math.round(events / BEATS);
  const beatKb = Math.round(bytes / BEATS / 100) / 10;

  // the five minutes before the next open: the feed prepares the day's paths a share per beat
  clock.set(NEXT_PRE_OPEN);
  let preparingBeatMaxMs = 0;
  while (clock.now().getTime() < new Date(NEXT_OPEN).getTime()) {
    started = performance.now();
    market.beat();
    preparingBeatMaxMs = Math.max(preparingBeatMaxMs, performance.now() - started);
    clock.advance(1_000);
  }
  clock.set(NEXT_OPEN);
  started = performance.now();
  market.beat();
  const firstBeatOfDayMs = performance.now() - started;
  clock.advance(1_000);
  const firstListOfDayMs = await inject(ENDPOINTS[0] ?? '');

  await gc();
  const end = process.memoryUsage();
  const sizes = market.cacheSizes();

  // a process that does not produce the feed prepares nothing: its first list of a day computes it all
  clock.set(THIRD_OPEN);
  const unpreparedFirstListMs = await inject(ENDPOINTS[0] ?? '');
  await app.close();
  await database.close();
  return {
    universe,
    symbols: market.codes.length,
    buildMs: round1(buildMs),
    firstListMs: round1(firstListMs),
    endpoints: ENDPOINTS.map((url) => ({ url, ...stats(samples.get(url) ?? []) })),
    beat: { ...stats(beats), events: beatEvents, jsonKb: beatKb },
    preparingBeatMaxMs: round1(preparingBeatMaxMs),
    firstBeatOfDayMs: round1(firstBeatOfDayMs),
    firstListOfDayMs: round1(firstListOfDayMs),
    unpreparedFirstListMs: round1(unpreparedFirstListMs),
    rssReadyMb: mb(rssReady),
    rssEndMb: mb(end.rss),
    heapEndMb: mb(end.heapUsed),
    buffersEndMb: mb(end.arrayBuffers),
    paths: sizes.latestDays + sizes.days + sizes.prepared,
  };
}

function table(rows: Figures[]): string {
  const lines: [string, (r: Figures) => string | number][] = [
    ['symbols', (r) => r.symbols],
    ['simulator built (ms)', (r) => r.buildMs],
    ['first list request, cold (ms)', (r) => r.firstListMs],
    ...(rows[0]?.endpoints ?? []).map((e, i): [string, (r: Figures) => string] => [
      `\`${e.url.replace('/api/market/', '')}\` p50 / p95 / max (ms)`,
      (r) => {
        const x = r.endpoints[i];
        return x ? `${x.p50} / ${x.p95} / ${x.max}` : '';
      },
    ]),
    ['beat p50 / p95 / max (ms)', (r) => `${r.beat.p50} / ${r.beat.p95} / ${r.beat.max}`],
    ['events per beat / their JSON (kB)', (r) => `${r.beat.events} / ${r.beat.jsonKb}`],
    ['slowest beat while preparing the next day (ms)', (r) => r.preparingBeatMaxMs],
    ['first beat of the day, prepared (ms)', (r) => r.firstBeatOfDayMs],
    ['first list request of the day after it (ms)', (r) => r.firstListOfDayMs],
    ['first list request of a day, unprepared (ms)', (r) => r.unpreparedFirstListMs],
    ['minute paths held', (r) => r.paths],
    ['RSS with the app ready / at the end (MB)', (r) => `${r.rssReadyMb} / ${r.rssEndMb}`],
    ['JS heap + array buffers at the end, after GC (MB)', (r) => `${r.heapEndMb} + ${r.buffersEndMb}`],
    [
      'simulator alone: RSS, JS heap + array buffers (MB)',
      (r) => `${r.bare.rssMb}, ${r.bare.heapMb} + ${r.bare.buffersMb}`,
    ],
  ];
  const row = (cells: (string | number)[]): string => `| ${cells.join(' | ')} |`;
  return [
    row(['', ...rows.map((r) => r.universe)]),
    row(['---', ...rows.map(() => '---')]),
    ...lines.map(([name, value]) => row([name, ...rows.map(value)])),
  ].join('\n');
}

/** The simulator alone, after a minute of beats and a list's worth of quotes a second. */
async function measureBare(universe: MarketUniverse): Promise<Figures['bare']> {
  const clock = new FixedClock(START);
  const market = new MarketSimulator({ clock, seed: 'kabuto', universe });
  for (let i = 0; i < 60; i++) {
    market.beat();
    market.quotes(market.codes);
    clock.advance(1_000);
  }
  await gc();
  const m = process.memoryUsage();
  return { rssMb: mb(m.rss), heapMb: mb(m.heapUsed), buffersMb: mb(m.arrayBuffers) };
}

function runChild(mode: string, universe: string): string {
  return execFileSync(
    process.execPath,
    [...process.execArgv, script ?? fileURLToPath(import.meta.url), mode, universe],
    { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
  );
}

const [, script, ...args] = process.argv;
if (args[0] === '--child') {
  const universe = args[1] as MarketUniverse;
  process.stdout.write(JSON.stringify(await measure(universe)));
} else if (args[0] === '--bare') {
  const universe = args[1] as MarketUniverse;
  process.stdout.write(JSON.stringify(await measureBare(universe)));
} else {
  const wanted = args.length > 0 ? args : [...MARKET_UNIVERSES];
  const rows: Figures[] = [];
  for (const universe of wanted) {
    if (!(MARKET_UNIVERSES as readonly string[]).includes(universe)) {
      console.error(`unknown universe ${universe}: one of ${MARKET_UNIVERSES.join(', ')}`);
      process.exit(2);
    }
    const figures = JSON.parse(runChild('--child', universe)) as Omit<Figures, 'bare'>;
    const bare = JSON.parse(runChild('--bare', universe)) as Figures['bare'];
    rows.push({ ...figures, bare });
    console.error(`measured ${universe}`);
  }
  console.log(table(rows));
}
