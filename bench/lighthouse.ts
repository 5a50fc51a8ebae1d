/**
 * Benchmark (issue 21): the first load on a phone, with Lighthouse's mobile defaults (simulated throttling:
 * 150 ms RTT, 1.6 Mbps, 4x CPU slowdown; Moto G Power screen) against the production build, served by the
 * built server (apps/server/dist/main.js, with its precompressed assets) on a scratch data folder.
 * Home, market, stock detail and login, RUNS times each (default 3): prints each run and the median of LCP,
 * TBT, CLS and the performance score, against the goals.
 *
 *   npm run build && flock /tmp/kabuto-heavy.lock npm run bench:lighthouse
 *   (PORT=8194 RUNS=3 CHROMIUM_PATH=/usr/bin/chromium to change them; ORIGIN=http://127.0.0.1:8194 measures a
 *   server already running there instead of starting one; PAGES=home,login measures only those;
 *   REPORT_DIR=dir writes each run's whole Lighthouse report there as JSON, to see where the time goes)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

const port = Number(process.env['PORT'] ?? 8194);
const runs = Number(process.env['RUNS'] ?? 3);
const chromePath = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const given = process.env['ORIGIN'];
const origin = given ?? `http://127.0.0.1:${port}`;

const reportDir = process.env['REPORT_DIR'];
const only = process.env['PAGES']?.split(',').map((p) => p.trim());

const ALL_PAGES: [string, string][] = [
  ['home', '/japan1/#/pages/index/index'],
  ['market', '/japan1/#/pages/market/market'],
  ['stock detail', '/japan1/#/subPackages/index/gupiaoDetail/gupiaoDetail?code=7203'],
  ['login', '/japan1/#/subPackages/login/login'],
];
const PAGES = only ? ALL_PAGES.filter(([name]) => only.includes(name.replace(' ', '-'))) : ALL_PAGES;

/** The goals: LCP ≤ 2.0 s, TBT ≤ 150 ms, CLS ≤ 0.05, score ≥ 0.95. */
const GOALS = { lcp: 2000, tbt: 150, cls: 0.05, score: 0.95 };

interface Figures {
  lcp: number;
  tbt: number;
  cls: number;
  fcp: number;
  score: number;
}

async function startServer(dataDir: string): Promise<ChildProcess> {
  const server = spawn(process.execPath, [new URL('../apps/server/dist/main.js', import.meta.url).pathname], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      DEMO_MODE: 'true',
      MARKET_CLOCK: 'always-open',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  // a fresh data folder is migrated and seeded with the demo data first: slow on a loaded machine
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
    try {
      if ((await fetch(`${origin}/api/health`)).ok) return server;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  server.kill();
  throw new Error('the server did not answer /api/health within 180 s');
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

async function measure(chromePort: number, url: string, reportName: string): Promise<Figures> {
  const result = await lighthouse(url, {
    port: chromePort,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance'],
  });
  if (result === undefined) throw new Error(`no Lighthouse result for ${url}`);
  if (reportDir !== undefined) {
    mkdirSync(reportDir, { recursive: true });
    writeFileSync(join(reportDir, `${reportName}.json`), JSON.stringify(result.lhr));
  }
  const { audits, categories } = result.lhr;
  const num = (id: string) => audits[id]?.numericValue ?? NaN;
  return {
    lcp: num('largest-contentful-paint'),
    tbt: num('total-blocking-time'),
    cls: num('cumulative-layout-shift'),
    fcp: num('first-contentful-paint'),
    score: categories['performance']?.score ?? NaN,
  };
}

const fmt = (f: Figures) =>
  `LCP ${(f.lcp / 1000).toFixed(2)} s  TBT ${f.tbt.toFixed(0)} ms  CLS ${f.cls.toFixed(3)}  ` +
  `FCP ${(f.fcp / 1000).toFixed(2)} s  score ${f.score.toFixed(2)}`;

const dataDir = mkdtempSync(join(tmpdir(), 'kabuto-lighthouse-'));
const server = given === undefined ? await startServer(dataDir) : null;
const chrome = await chromeLauncher.launch({
  chromePath,
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run'],
});
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
console.log(`Lighthouse mobile defaults, ${runs} runs per page, ${origin}; load average at start ${load()}`);
let allMet = true;
try {
  for (const [name, path] of PAGES) {
    const figures: Figures[] = [];
    for (let i = 0; i < runs; i += 1) {
      const f = await measure(chrome.port, `${origin}${path}`, `${name.replace(' ', '-')}-${i + 1}`);
      figures.push(f);
      console.log(`  ${name.padEnd(12)} run ${i + 1}: ${fmt(f)}`);
    }
    const m: Figures = {
      lcp: median(figures.map((f) => f.lcp)),
      tbt: median(figures.map((f) => f.tbt)),
      cls: median(figures.map((f) => f.cls)),
      fcp: median(figures.map((f) => f.fcp)),
      score: median(figures.map((f) => f.score)),
    };
    const met = m.lcp <= GOALS.lcp && m.tbt <= GOALS.tbt && m.cls <= GOALS.cls && m.score >= GOALS.score;
    allMet &&= met;
    console.log(`${name.padEnd(14)} median: ${fmt(m)}  ${met ? 'goals met' : 'GOALS NOT MET'}`);
  }
} finally {
  chrome.kill();
  server?.kill();
  rmSync(dataDir, { recursive: true, force: true });
}
console.log(
  `Goals (issue 21): LCP ≤ 2.0 s, TBT ≤ 150 ms, CLS ≤ 0.05, score ≥ 0.95: ${allMet ? 'all met' : 'not all met'}. ` +
    `Load average at the end ${load()}.`,
);
