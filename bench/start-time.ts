/**
 * `npm run bench:start`: how long `npm start` takes, on a built tree, from the command to `/api/ready`
 * answering 200: first with a fresh data folder (PGlite created and migrated, demo data seeded), then again
 * on the same folder (an ordinary restart). Goals (issue 21): ≤ 10 s and ≤ 5 s. Build first (`npm run
 * build`): on a stale tree `npm start` builds, and the figure would include the build (the bench says so).
 * A fresh data folder is a copy of the build's migrated PGlite template when there is one (ADR 0046); each
 * line says which (`database: template`, `initdb`, `existing`).
 *   PORT (default 8196), RUNS (default 1: one fresh start and one restart), FALLBACK=1: each run also starts a
 *   fresh data folder with the template moved aside (initdb and every migration, as with no build template).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const port = Number(process.env['PORT'] ?? 8196);
const runs = Number(process.env['RUNS'] ?? 1);
const fallback = process.env['FALLBACK'] === '1';
const templates = join(root, 'apps/server/dist/pglite-template');

/** Starts `npm start` on `dataDir`, waits for /api/ready = 200, stops it; seconds to ready, and whether it built. */
async function timeStart(
  dataDir: string,
): Promise<{ seconds: number; built: boolean; phases: Record<string, number> | null; database: string }> {
  const started = performance.now();
  const child = spawn('npm', ['start'], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_FORMAT: 'json' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let built = false;
  let phases: Record<string, number> | null = null;
  let database = '?';
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    if (out.includes('Building…')) built = true;
    // the server's own account of its start (main.ts): one JSON log line with the time of each step
    for (const line of out.split('\n'))
      if (line.includes('"started in')) {
        const started = JSON.parse(line) as { ms: Record<string, number>; database?: string };
        phases = started.ms;
        database = started.database ?? '?';
      }
    out = out.slice(out.lastIndexOf('\n') + 1);
  });
  child.stderr.resume();
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`npm start exited with ${String(child.exitCode)}`);
      const ready = await fetch(`http://127.0.0.1:${String(port)}/api/ready`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ready) return { seconds: (performance.now() - started) / 1000, built, phases, database };
      if (performance.now() - started > 120_000) throw new Error('not ready after 120 s');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    // the whole group: npm, scripts/start.mjs and the server
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

/**
 * npm exits before the server has closed its port: until it has, the next start's first probe would be answered
 * by the server just stopped (a restart "ready" in 0.1 s).
 */
async function waitClosed(): Promise<void> {
  const closing = performance.now();
  const answers = () =>
    fetch(`http://127.0.0.1:${String(port)}/api/ready`).then(
      () => true,
      () => false,
    );
  while (await answers()) {
    if (performance.now() - closing > 30_000) throw new Error('the server still answers 30 s after SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const fmt = (l: number[]) => l.map((x) => x.toFixed(2)).join(' / ');
console.log(`load average (1/5/15 min) before: ${fmt(loadavg())}`);
for (let run = 0; run < runs; run++) {
  const dataDir = mkdtempSync(join(tmpdir(), 'kabuto-start-'));
  const fresh = await timeStart(dataDir);
  await waitClosed();
  const again = await timeStart(dataDir);
  await waitClosed();
  rmSync(dataDir, { recursive: true, force: true });
  let initdb: Awaited<ReturnType<typeof timeStart>> | undefined;
  if (fallback) {
    // the template out of the server's sight for one fresh start, put back whatever happens
    const aside = `${templates}.aside-${String(process.pid)}`;
    const hidden = existsSync(templates);
    if (hidden) renameSync(templates, aside);
    const other = mkdtempSync(join(tmpdir(), 'kabuto-start-'));
    try {
      initdb = await timeStart(other);
      await waitClosed();
    } finally {
      if (hidden) renameSync(aside, templates);
      rmSync(other, { recursive: true, force: true });
    }
  }
  const note = (r: { built: boolean }) =>
    r.built ? ' (npm start built the tree first: run `npm run build`)' : '';
  const steps = (r: { phases: Record<string, number> | null; database: string }) =>
    r.phases
      ? `\n  database: ${r.database}; ${Object.entries(r.phases)
          .map(([step, ms]) => `${step} ${(ms / 1000).toFixed(2)} s`)
          .join(', ')}`
      : '';
  console.log(
    `fresh data folder: ready in ${fresh.seconds.toFixed(1)} s (goal ≤ 10 s)${note(fresh)}${steps(fresh)}`,
  );
  if (initdb)
    console.log(
      `fresh data folder, template moved aside: ready in ${initdb.seconds.toFixed(1)} s${note(initdb)}${steps(initdb)}`,
    );
  console.log(
    `restart, same folder: ready in ${again.seconds.toFixed(1)} s (goal ≤ 5 s)${note(again)}${steps(again)}`,
  );
}
console.log(`load average (1/5/15 min) after: ${fmt(loadavg())}`);
