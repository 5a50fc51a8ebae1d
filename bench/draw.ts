/**
 * Benchmark: the draw of an offering and its verification with 1,000,000 applications (the goal:
 * ≤ 2 s and ≤ 300 MB each). Builds a canonical list of APPLICATIONS applications (1-10 units, 0-20 points,
 * fixed pseudo-random), draws OFFERING units (default 50,000) under POLICY (equal | weighted, 30% points),
 * then verifies the record as `npm run verify-draw` does. Prints each phase's wall time and the process's
 * peak resident set size (`process.resourceUsage().maxRSS`, which includes Node itself, about 45 MB).
 * Then, as production runs it, the verification from the published record: the record is written to a file,
 * read back as a stream into columns and verified in this process (`streamed_verify_ms`: the time of the
 * read and the check, without a process's start), then by `apps/server/src/scripts/verify-draw.ts` (what
 * `npm run verify-draw` runs) in a process of its own, measured by `/usr/bin/time` (wall time and peak RSS,
 * Node's start and the tsx loader included).
 *   npm run bench:draw      (APPLICATIONS=1000000 OFFERING=50000 POLICY=weighted to change)
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { readDrawRecord } from '../apps/server/src/modules/ipo/draw-record.js';
import {
  draw,
  seedHash,
  verifyColumns,
  verifyDraw,
  type DrawApplication,
  type DrawPolicy,
} from '../apps/server/src/modules/ipo/draw.js';

const N = Number(process.env['APPLICATIONS'] ?? 1_000_000);
const OFFERING = Number(process.env['OFFERING'] ?? 50_000);
const policy: DrawPolicy =
  process.env['POLICY'] === 'weighted' ? { kind: 'weighted', points_bps: 3000 } : { kind: 'equal' };

let x = 12345;
const next = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0);
const applications: DrawApplication[] = new Array<DrawApplication>(N);
for (let i = 0; i < N; i++) {
  applications[i] = {
    id: i + 1,
    pseudonym: (next() >>> 0).toString(16).padStart(8, '0'),
    units: 1 + (next() % 10),
    points: next() % 21,
  };
}
const seed = randomBytes(32).toString('hex');
const rssBase = process.resourceUsage().maxRSS / 1024;

let t0 = performance.now();
const result = draw({ seed, offering_units: OFFERING, policy, applications });
const drawMs = performance.now() - t0;
const rssDraw = process.resourceUsage().maxRSS / 1024;

t0 = performance.now();
const problems = verifyDraw({
  seed,
  seed_hash: seedHash(seed),
  offering_units: OFFERING,
  policy,
  applications,
  list_hash: result.list_hash,
  allocations: result.allocations,
  order: result.order,
});
const verifyMs = performance.now() - t0;
const rssVerify = process.resourceUsage().maxRSS / 1024;

// the verification in its own process, from the published record, as `npm run verify-draw -- record.json`
const dir = mkdtempSync(join(tmpdir(), 'kabuto-draw-'));
const recordFile = join(dir, 'record.json');
writeFileSync(
  recordFile,
  JSON.stringify({
    seed,
    seed_hash: seedHash(seed),
    offering_units: OFFERING,
    policy,
    applications,
    list_hash: result.list_hash,
    allocations: result.allocations,
    order: result.order,
  }),
);
t0 = performance.now();
const streamed = (await readDrawRecord(createReadStream(recordFile, { highWaterMark: 1 << 20 }))).record;
const streamedOk = streamed !== null && verifyColumns(streamed).length === 0;
const streamedMs = performance.now() - t0;

const script = new URL('../apps/server/src/scripts/verify-draw.ts', import.meta.url).pathname;
const alone = spawnSync(
  '/usr/bin/time',
  [
    '-f',
    'TIME %e %M',
    process.execPath,
    '--conditions=@kabuto/source',
    '--import',
    'tsx',
    script,
    recordFile,
  ],
  { encoding: 'utf8', cwd: new URL('../apps/server/', import.meta.url).pathname },
);
rmSync(dir, { recursive: true, force: true });
const measured = /TIME ([\d.]+) (\d+)/.exec(alone.stderr);
const aloneVerified = alone.status === 0 && alone.stdout.includes('VERIFIED');

console.log(
  JSON.stringify({
    applications: N,
    offering_units: OFFERING,
    policy: policy.kind,
    winners: result.allocations.length,
    draw_ms: Math.round(drawMs),
    verify_ms: Math.round(verifyMs),
    verified: problems.length === 0,
    max_rss_mb_after_list: Math.round(rssBase),
    max_rss_mb_after_draw: Math.round(rssDraw),
    max_rss_mb_after_verify: Math.round(rssVerify),
    streamed_verify_ok: streamedOk,
    streamed_verify_ms: Math.round(streamedMs),
    separate_verify_ok: aloneVerified,
    separate_verify_s: measured ? Number(measured[1]) : null,
    separate_verify_max_rss_mb: measured ? Math.round(Number(measured[2]) / 1024) : null,
  }),
);
