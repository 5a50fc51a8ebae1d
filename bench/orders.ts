/**
 * Benchmark: order placement at a sustained rate. One server process (the real app, simulated market in
 * always-open mode, demo mode so that every new account gets demo cash), USERS accounts (default 200)
 * created through the API, each with a WebSocket authenticated for its own events. Orders (market buys of
 * 100 shares of a random Nikkei 225 stock, a fresh Idempotency-Key each) are issued open-loop at RATE per
 * second (default 500) for DURATION seconds (default 20): the scheduler sends each request on time whether
 * or not earlier ones have answered. Per order it measures
 *   acceptance: request sent -> HTTP answer;
 *   fill push:  request sent -> the user's socket receives 'order.filled' for that order_no.
 * Before the measured stretch the server gets WARMUP seconds (default 5) of orders at a rate rising from 0 to
 * RATE, reported apart: a process that has just started is still compiling its order path.
 * Runs once on PostgreSQL (a scratch database created here and dropped at the end) and once on PGlite (a
 * fresh DATA_DIR), and runs pgbench on the same PostgreSQL as a ceiling.
 *   npm run bench:orders   (RATE=500 USERS=200 DURATION=20 DATABASES=postgres,pglite PROFILE=1 to change;
 *                           PG_ADMIN_URL=postgres://postgres@127.0.0.1:5432/test is where scratch databases go)
 * PROFILE=1 runs the server under `node --cpu-prof` and prints its top self-time functions. The server always
 * loads bench/server-probe.mjs, which reports its event loop delay, GC pauses and its own time per POST over
 * the measured stretch; PG_PROBE=1 also loads bench/pg-probe.mjs: each statement's time and the waits for a
 * pool connection, and samples pg_stat_activity every 20 ms to show what the backends were doing when orders
 * were slow. SERVER_NODE_FLAGS adds flags to the server's node. LATENCY_FILE=path writes each measured order's
 * (send time, latency) pairs, with the stretch's wall-clock start, to path.<database>.json;
 * with PROFILE=1, KEEP_PROFILE=path keeps the server's .cpuprofile there.
 * SERVER_STDOUT=path keeps each server's standard output in path.<port> (with SERVER_NODE_FLAGS=--trace-gc-nvp,
 * the garbage collector's own account of every collection).
 * The load generator runs in this process, the server in a child process; both share the machine's cores.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, openSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import pg from 'pg';
import { ensureCommand } from '../scripts/lib.mjs';
import WebSocket from 'ws';
import { pngBytes } from '../apps/server/src/lib/images.js';
import {
  SAMPLE_MY_NUMBER,
  SUITABLE_PROFILE,
  VERIFIED_KANA,
  VERIFIED_NAME,
} from '../apps/server/src/test/harness.js';

const RATE = Number(process.env['RATE'] ?? 500);
/**
 * SEARCH=1: the rate search. For each of SEARCH_PROCESSES (default 1,2) server processes on PostgreSQL (more
 * than one behind HAProxy), the offered rate steps through STEPS (orders/s), each step SETTLE seconds not
 * counted then DURATION (default 10) measured, until orders go unanswered or are shed; prints the highest
 * rate at which every order was accepted with p99 ≤ 25 ms, and its ratio to pgbench -N run after.
 */
const SEARCH = process.env['SEARCH'] === '1';
const STEPS = (process.env['STEPS'] ?? '250,500,750,1000,1500,2000,3000,4000')
  .split(',')
  .map(Number)
  .filter((n) => n > 0);
const SETTLE = Number(process.env['SETTLE'] ?? 3);
const SEARCH_PROCESSES = (process.env['SEARCH_PROCESSES'] ?? '1,2')
  .split(',')
  .map(Number)
  .filter((n) => n > 0);
const SECONDS = Number(process.env['DURATION'] ?? (SEARCH ? 10 : 20));
const WARMUP = Number(process.env['WARMUP'] ?? 5);
const USERS = Number(process.env['USERS'] ?? 200);
const DATABASES = (process.env['DATABASES'] ?? 'postgres,pglite').split(',').filter(Boolean);
const PROFILE = process.env['PROFILE'] === '1';
const PG_PROBE = process.env['PG_PROBE'] === '1';
/** Extra flags for the server's node, e.g. SERVER_NODE_FLAGS=--max-semi-space-size=32 */
/**
 * Server processes for the PostgreSQL run (default 1). With more, they share the database and Redis (for
 * the events of a user whose socket is on another process, and the market feed's leader); each user's socket
 * is on one of them, and each order goes to one picked at random, as behind a load balancer.
 */
const PROCESSES = Number(process.env['PROCESSES'] ?? 1);
const BENCH_REDIS_URL = process.env['BENCH_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
/** PROXY=haproxy (the default with more than one process) sends the sockets and the orders through HAProxy. */
const PROXY = process.env['PROXY'] ?? (PROCESSES > 1 || SEARCH ? 'haproxy' : 'none');
const SERVER_NODE_FLAGS = (process.env['SERVER_NODE_FLAGS'] ?? '').split(' ').filter(Boolean);
/** SERVER_CPUS=list runs each server under `taskset -c list` (util-linux), e.g. SERVER_CPUS=0. */
const SERVER_CPUS = process.env['SERVER_CPUS'];
/** SERVER_STDOUT=path keeps each server's standard output (e.g. of --trace-gc) in path.<port>. */
const SERVER_STDOUT = process.env['SERVER_STDOUT'];
const PG_ADMIN_URL = process.env['PG_ADMIN_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const mainTs = new URL('../apps/server/src/main.ts', import.meta.url).pathname;
const probeModule = new URL('./server-probe.mjs', import.meta.url).href;
const pgProbeModule = new URL('./pg-probe.mjs', import.meta.url).href;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The scratch server's bootstrap administrator, who approves the users' real-name verifications. */
const ADMIN_INITIAL_PASSWORD = 'bench-admin-once-2026';
const ADMIN_PASSWORD = 'bench-admin-changed-2026';

// ---------------------------------------------------------------------------------------------- plumbing

function scratchUrl(name: string): string {
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function admin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

async function createScratch(prefix: string): Promise<string> {
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}`;
  await admin((c) => c.query(`create database ${name}`));
  return name;
}

async function dropScratch(name: string): Promise<void> {
  await admin((c) => c.query(`drop database if exists ${name} with (force)`)).catch((error: unknown) => {
    console.error(`could not drop scratch database ${name}:`, error);
  });
}

interface Server {
  child: ChildProcess;
  pid: number;
  dataDir: string;
  port: number;
  profileDir: string | undefined;
}

async function startServer(port: number, databaseUrl: string, redisUrl = ''): Promise<Server> {
  const dataDir = mkdtempSync(join(tmpdir(), 'kabuto-bench-orders-'));
  const profileDir = PROFILE ? join(dataDir, 'profile') : undefined;
  const args = ['--conditions=@kabuto/source', '--import', 'tsx', '--import', probeModule];
  if (PG_PROBE) args.push('--import', pgProbeModule);
  if (profileDir) args.push('--cpu-prof', `--cpu-prof-dir=${profileDir}`);
  args.push(...SERVER_NODE_FLAGS);
  // SERVER_CPUS=0 runs the server on those CPUs only (taskset), e.g. beside a busy loop: its own CPU the bound
  const [command, commandArgs] = SERVER_CPUS
    ? ['taskset', ['-c', SERVER_CPUS, process.execPath, ...args, mainTs]]
    : [process.execPath, [...args, mainTs]];
  const child = spawn(command, commandArgs, {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      MARKET_CLOCK: 'always-open',
      DEMO_MODE: 'true',
      // 10,000 orders of up to a few million yen each: the default ¥10,000,000 would run out mid-run.
      DEMO_CASH_YEN: '1000000000',
      CONSOLE_ADMIN_PASSWORD: ADMIN_INITIAL_PASSWORD,
      AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
      // Every user registers from 127.0.0.1 with numbers in one range: the anti-pumping caps would stop at 10.
      SMS_DAILY_PER_CLIENT: '1000000',
      SMS_DAILY_PER_RANGE: '1000000',
      // USERS sockets from one address (the default cap is 20 a client).
      WS_MAX_PER_CLIENT: '10000',
      // The bench's administrator approves the applications through the API; it has no authenticator.
      CONSOLE_ADMIN_PASSKEY: 'optional',
      LOG_LEVEL: 'error',
      PROBE_FILE: join(dataDir, 'probe.json'),
      PG_PROBE_FILE: join(dataDir, 'pg-probe.txt'),
    },
    stdio: ['ignore', SERVER_STDOUT ? openSync(`${SERVER_STDOUT}.${port}`, 'w') : 'ignore', 'inherit'],
  });
  await untilHealthy(child, port, 'server', 60_000);
  return { child, pid: child.pid ?? 0, dataDir, port, profileDir };
}

/** Waits until `port` answers /api/health with 200 (the server, or HAProxy with a server up behind it). */
async function untilHealthy(
  child: ChildProcess,
  port: number,
  what: string,
  withinMs: number,
): Promise<void> {
  const until = performance.now() + withinMs;
  while (performance.now() < until) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`${what} did not start`);
}

/** SIGTERM, then SIGKILL if the process has not exited within `graceMs`. */
async function stopChild(child: ChildProcess, graceMs: number): Promise<void> {
  // A function, not a condition on the fields: TypeScript would keep the first check's narrowing after the wait.
  const running = () => child.exitCode === null && child.signalCode === null;
  if (running()) {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await Promise.race([exited, sleep(graceMs)]);
    if (running()) child.kill('SIGKILL');
  }
}

async function stopServer(server: Server): Promise<void> {
  await stopChild(server.child, 15_000);
}

interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
}

async function post<T>(port: number, path: string, body: object, headers: Record<string, string> = {}) {
  const res = await fetch(`http://127.0.0.1:${port}/api${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as Envelope<T>;
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status} ${json.code} ${json.msg}`);
  return json.data;
}

function smsCode(dataDir: string, phone: string): string {
  const lines = readFileSync(join(dataDir, 'dev-sms-outbox.jsonl'), 'utf8').trim().split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const message = JSON.parse(lines[i] ?? '{}') as { phone?: string; code?: string };
    if (message.phone === phone && message.code) return message.code;
  }
  throw new Error(`no SMS code for ${phone}`);
}

async function send<T>(port: number, path: string, init: RequestInit): Promise<T> {
  const res = await fetch(`http://127.0.0.1:${port}/api${path}`, init);
  const json = (await res.json()) as Envelope<T>;
  if (!res.ok || json.code !== 1) throw new Error(`${path}: HTTP ${res.status} ${json.code} ${json.msg}`);
  return json.data;
}

/** Signs the bootstrap administrator in (changing the one-time password first): the console's bearer. */
async function adminBearer(port: number): Promise<string> {
  const login = (password: string) =>
    send<{ token: string }>(port, '/console/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password }),
    });
  const { token } = await login(ADMIN_INITIAL_PASSWORD);
  await send(port, '/console/password', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ old_password: ADMIN_INITIAL_PASSWORD, new_password: ADMIN_PASSWORD }),
  });
  return `Bearer ${(await login(ADMIN_PASSWORD)).token}`;
}

/**
 * Opening positions needs a passed real-name verification: the user files one (two ID photos and the
 * form) and the administrator approves it through the console API, as e2e/support/operator-api.ts does.
 */
async function fileIdentity(port: number, token: string): Promise<void> {
  const upload = async (purpose: string) => {
    const form = new FormData();
    form.append('purpose', purpose);
    form.append('file', new Blob([new Uint8Array(pngBytes(8, 6))], { type: 'image/png' }), `${purpose}.png`);
    return (await send<{ id: string }>(port, '/uploads', { method: 'POST', headers: { token }, body: form }))
      .id;
  };
  await send(port, '/identity', {
    method: 'POST',
    headers: { 'content-type': 'application/json', token },
    // An application that passes every default suitability rule (the server tests' own answers).
    body: JSON.stringify({
      full_name: VERIFIED_NAME,
      full_name_kana: VERIFIED_KANA,
      birth_date: '1985-04-01',
      profile: SUITABLE_PROFILE,
      my_number: SAMPLE_MY_NUMBER,
      document_type: 'my_number_card',
      front_upload_id: await upload('identity_front'),
      back_upload_id: await upload('identity_back'),
      specific_account: 'withholding',
      open_nisa: false,
    }),
  });
}

async function approveAll(port: number, admin: string): Promise<void> {
  for (;;) {
    const queue = await send<{ items: { id: number }[] }>(port, '/console/identity?status=pending', {
      headers: { authorization: admin },
    });
    if (queue.items.length === 0) return;
    for (const { id } of queue.items) {
      await send(port, `/console/identity/${id}/approve`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: admin },
        body: '{}',
      });
    }
  }
}

interface User {
  index: number;
  token: string;
  ws: WebSocket;
}

/** Registers through `server` itself (its SMS outbox is its own); the socket goes to `wsPort` when given (the proxy). */
async function createUser(server: Server, index: number, wsPort?: number): Promise<User> {
  const phone = `080${String(10_000_000 + index).slice(-8)}`;
  const password = 'bench1234';
  await post(server.port, '/auth/sendSmsCode', { phone });
  await post(server.port, '/auth/register', {
    phone,
    password,
    password_confirm: password,
    invite_code: 'KABUTO2026',
    sms_code: smsCode(server.dataDir, phone),
  });
  const { token } = await post<{ token: string }>(server.port, '/auth/login', {
    account: phone,
    password,
    agree: true,
  });
  await fileIdentity(server.port, token);
  const ws = new WebSocket(`ws://127.0.0.1:${wsPort ?? server.port}/api/ws`);
  await new Promise<void>((resolve, reject) => {
    ws.once('error', reject);
    ws.once('open', () => {
      ws.send(JSON.stringify({ op: 'auth', token }));
    });
    const onReady = (data: Buffer) => {
      const message = JSON.parse(data.toString('utf8')) as { type: string; user_id?: number | null };
      if (message.type === 'ready' && typeof message.user_id === 'number') {
        ws.off('message', onReady);
        resolve();
      } else if (message.type === 'error') reject(new Error(`ws auth: ${data.toString('utf8')}`));
    };
    ws.on('message', onReady);
  });
  return { index, token, ws };
}

async function inBatches<T>(count: number, width: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let start = 0; start < count; start += width) {
    out.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(width, count - start) }, (_, k) => make(start + k)),
      )),
    );
  }
  return out;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/** The ids of the processes whose command is `name` (e.g. every backend of the PostgreSQL cluster). */
function pidsNamed(name: string): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === name) out.push(Number(entry));
    } catch {
      // gone
    }
  }
  return out;
}

/** Busy and total jiffies of the whole machine (and its iowait and steal), and of processes (utime + stime). */
function cpuTicks(pids: number[]): {
  busy: number;
  total: number;
  iowait: number;
  steal: number;
  proc: number;
  self: number;
} {
  const cpu = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '')
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const total = cpu.reduce((a, b) => a + b, 0);
  const idle = (cpu[3] ?? 0) + (cpu[4] ?? 0);
  const of = (id: number) => {
    try {
      const stat = readFileSync(`/proc/${id}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return Number(fields[11]) + Number(fields[12]);
    } catch {
      return 0; // process gone
    }
  };
  return {
    busy: total - idle,
    total,
    iowait: cpu[4] ?? 0,
    // time the hypervisor gave this machine's virtual CPUs to others: a noisy neighbour shows here
    steal: cpu[7] ?? 0,
    proc: pids.reduce((sum, pid) => sum + of(pid), 0),
    self: of(process.pid),
  };
}

// ------------------------------------------------------------------------------------------------- a run

interface Result {
  label: string;
  offered: number;
  issued: number;
  accepted: number;
  acceptedPerSec: number;
  acceptP50: number;
  acceptP99: number;
  acceptMax: number;
  fillP50: number;
  fillP99: number;
  filledSeen: number;
  lagP99: number;
  errors: Map<string, number>;
  /** measured orders answered 503 OVERLOADED with Retry-After, and the p99 of those answers */
  shed: number;
  shedP99: number;
  machineCpu: number;
  /** shares of the machine's CPU time spent waiting for the disk and taken by the hypervisor */
  iowait: number;
  steal: number;
  serverCpu: number;
  benchCpu: number;
  /** shares of the machine: HAProxy, all PostgreSQL processes (the whole cluster's), redis-server */
  proxyCpu: number;
  postgresCpu: number;
  redisCpu: number;
  profile: string[];
  /** what bench/server-probe.mjs saw in each server process */
  probes: Probe[];
  processes: number;
  /** whether the load went through HAProxy */
  proxied: boolean;
  loadavg: string;
  /** PostgreSQL: what the database did per accepted order over the stretch (pg_stat_statements, WAL) */
  dbCost?: string;
  warm: { count: number; p50: number; p99: number; max: number };
  /** Measured orders answered after more than 25 ms, and in how many distinct 100 ms windows they were sent. */
  slow: { count: number; windows: number };
  /** PG_PROBE=1 on PostgreSQL: what the database's backends were doing, in slow windows and elsewhere. */
  waits?: string;
  /** What overlapped the measured orders over 25 ms (see attributeSlowOrders). */
  stalls?: string;
}

/** What bench/server-probe.mjs saw in the server during the measured stretch. */
interface Probe {
  delayP50: number;
  delayP99: number;
  delayMax: number;
  gcCount: number;
  gcTotalMs: number;
  gcMaxMs: number;
  postCount: number;
  postP50: number;
  postP99: number;
  postMax: number;
  /** PG_PROBE=1: per statement, count and p50 / p99 / max ms */
  statements?: string;
  /** [wall-clock ms at the start, ms] of the server's POSTs over 20 ms and its GC pauses over 4 ms */
  slowPosts: [number, number][];
  gcPauses: [number, number][];
}

/** This process's own GC pauses over 4 ms, [wall-clock ms at the start, ms]: the load generator stalls too. */
const benchGcPauses: [number, number][] = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries())
    if (entry.duration > 4) benchGcPauses.push([performance.timeOrigin + entry.startTime, entry.duration]);
}).observe({ entryTypes: ['gc'] });

async function readProbe(server: Server): Promise<Probe | null> {
  const file = join(server.dataDir, 'probe.json');
  const pgFile = join(server.dataDir, 'pg-probe.txt');
  rmSync(file, { force: true });
  rmSync(pgFile, { force: true });
  server.child.kill('SIGUSR2');
  for (let i = 0; i < 50; i++) {
    await sleep(20);
    try {
      const probe = JSON.parse(readFileSync(file, 'utf8')) as Probe;
      if (PG_PROBE) {
        await sleep(100);
        probe.statements = readFileSync(pgFile, 'utf8');
      }
      return probe;
    } catch {
      // not written yet
    }
  }
  return null;
}

/**
 * For each measured order over 25 ms ([sent, sent + latency], ms since `origin`), whether the server itself
 * took over 20 ms on a POST that started in that interval, and whether a GC pause over 4 ms of the server or
 * of this process overlapped it. Tells time spent in the server from time lost in the load generator.
 */
function attributeSlowOrders(timeline: number[], origin: number, probes: Probe[]): string {
  const rel = (events: [number, number][]) => events.map(([at, ms]) => [at - origin, ms] as const);
  const serverSlow = rel(probes.flatMap((p) => p.slowPosts));
  const serverGc = rel(probes.flatMap((p) => p.gcPauses));
  const benchGc = rel(benchGcPauses).filter(([at]) => at >= 0);
  let slow = 0;
  let inServer = 0;
  let withServerGc = 0;
  let withBenchGc = 0;
  let unexplained = 0;
  const overlaps = (events: (readonly [number, number])[], from: number, to: number) =>
    events.some(([at, ms]) => at < to && at + ms > from);
  for (let i = 0; i < timeline.length; i += 2) {
    const sent = timeline[i] ?? 0;
    const latency = timeline[i + 1] ?? 0;
    if (latency <= 25) continue;
    slow += 1;
    const server = serverSlow.some(([at]) => at >= sent - 1 && at <= sent + latency);
    const sgc = overlaps(serverGc, sent, sent + latency);
    const bgc = overlaps(benchGc, sent, sent + latency);
    if (server) inServer += 1;
    if (sgc) withServerGc += 1;
    if (bgc) withBenchGc += 1;
    if (!server && !bgc) unexplained += 1;
  }
  const longestBenchGc = Math.max(0, ...benchGc.map(([, ms]) => ms));
  return (
    `of ${slow} orders over 25 ms: ${inServer} overlap a POST the server itself took over 20 ms on, ` +
    `${withServerGc} a server GC pause over 4 ms, ${withBenchGc} a load-generator GC pause over 4 ms ` +
    `(${benchGc.length} such pauses, longest ${longestBenchGc.toFixed(1)} ms), ${unexplained} neither of the first and third`
  );
}

/** One look at the scratch database's backends: when (ms since the start) and one entry per non-idle backend. */
type WaitSample = [number, string[]];

/**
 * Samples pg_stat_activity every 20 ms from its own connection: for each backend of the database that is
 * not idle, its state and wait event ('active' with no wait means on a CPU or runnable).
 */
function sampleWaits(databaseUrl: string, start: number): { stop: () => Promise<WaitSample[]> } {
  const samples: WaitSample[] = [];
  const client = new pg.Client({ connectionString: databaseUrl });
  const state = { running: true };
  const done = (async () => {
    await client.connect();
    const database = new URL(databaseUrl).pathname.slice(1);
    while (state.running) {
      const at = performance.now() - start;
      const { rows } = await client.query<{ w: string }>(
        `select state || coalesce(':' || wait_event_type || '/' || wait_event, '') as w
           from pg_stat_activity
          where datname = $1 and pid <> pg_backend_pid() and state <> 'idle'`,
        [database],
      );
      samples.push([at, rows.map((r) => r.w)]);
      await sleep(20);
    }
    await client.end();
  })();
  return {
    stop: async () => {
      state.running = false;
      await done;
      return samples;
    },
  };
}

function summarizeWaits(samples: WaitSample[], slowWindows: Set<number>): string {
  const describe = (subset: WaitSample[]) => {
    const counts = new Map<string, number>();
    for (const [, states] of subset) for (const w of states) counts.set(w, (counts.get(w) ?? 0) + 1);
    const top = [...counts.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6)
      .map(([w, n]) => `${w} ${(n / subset.length).toFixed(2)}`)
      .join(', ');
    return `${subset.length} samples, backends busy per sample: ${top || 'none'}`;
  };
  const slow = samples.filter(([at]) => slowWindows.has(Math.floor(at / 100)));
  const rest = samples.filter(([at]) => !slowWindows.has(Math.floor(at / 100)));
  return `in the 100 ms windows with orders over 25 ms: ${describe(slow)}\n  elsewhere: ${describe(rest)}`;
}

// ------------------------------------------------------------------------------------------------ HAProxy

interface Proxy {
  child: ChildProcess;
  pid: number;
  port: number;
  dir: string;
}

/**
 * Starts HAProxy in the foreground on `port` in front of the servers: HTTP with keep-alive on both sides,
 * WebSocket upgrades passed through (timeout tunnel), least-connections balancing, each server checked on
 * /api/health every second. No per-server connection cap, so HAProxy never queues: a busy process answers
 * 503 itself (load shedding) and the bench sees it.
 */
async function startHaproxy(port: number, servers: Server[]): Promise<Proxy> {
  const binary = ensureCommand(
    ['haproxy', '/usr/sbin/haproxy'],
    ['-v'],
    'haproxy',
    'PROCESSES > 1 (or PROXY=haproxy)',
  );
  const dir = mkdtempSync(join(tmpdir(), 'kabuto-bench-haproxy-'));
  const config = [
    'global',
    '  maxconn 4096',
    '  nbthread 1',
    'defaults',
    '  mode http',
    '  option http-keep-alive',
    '  timeout connect 5s',
    '  timeout client 60s',
    '  timeout server 60s',
    '  timeout tunnel 1h',
    '  timeout http-keep-alive 60s',
    'frontend kabuto',
    `  bind 127.0.0.1:${port}`,
    '  default_backend app',
    'backend app',
    '  balance leastconn',
    '  http-reuse always',
    '  option httpchk GET /api/health',
    '  http-check expect status 200',
    ...servers.map((s, k) => `  server app${k + 1} 127.0.0.1:${s.port} check inter 1s`),
    '',
  ].join('\n');
  const file = join(dir, 'haproxy.cfg');
  writeFileSync(file, config);
  const check = spawnSync(binary, ['-c', '-f', file], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`haproxy.cfg rejected: ${check.stderr}${check.stdout}`);
  const child = spawn(binary, ['-db', '-f', file], { stdio: ['ignore', 'ignore', 'inherit'] });
  await untilHealthy(child, port, 'haproxy', 10_000);
  return { child, pid: child.pid ?? 0, port, dir };
}

async function stopHaproxy(proxy: Proxy): Promise<void> {
  await stopChild(proxy.child, 5_000);
  rmSync(proxy.dir, { recursive: true, force: true });
}

// ------------------------------------------------------------------------------- the database per order

/** Whether pg_stat_statements is loaded in the server (shared_preload_libraries) and created in the scratch database. */
let statementStats = false;

async function enableStatementStats(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ libs: string }>(
      `select current_setting('shared_preload_libraries') as libs`,
    );
    if (!(rows[0]?.libs ?? '').includes('pg_stat_statements')) {
      console.error(
        'pg_stat_statements is not in shared_preload_libraries: no per-order database cost. To have it: ' +
          "ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements' and restart PostgreSQL.",
      );
      return;
    }
    await client.query('create extension if not exists pg_stat_statements');
    statementStats = true;
  } finally {
    await client.end();
  }
}

interface WalMark {
  lsn: string;
  walRecords: number;
  walFpi: number;
  walBytes: number;
  walSync: number;
  commits: number;
}

async function walMark(client: pg.Client): Promise<WalMark> {
  const { rows } = await client.query<{
    lsn: string;
    wal_records: string;
    wal_fpi: string;
    wal_bytes: string;
    wal_sync: string;
    commits: string;
  }>(
    `select pg_current_wal_lsn()::text as lsn, w.wal_records, w.wal_fpi, w.wal_bytes, w.wal_sync,
            (select xact_commit from pg_stat_database where datname = current_database()) as commits
       from pg_stat_wal w`,
  );
  const r = rows[0];
  if (!r) throw new Error('pg_stat_wal: no row');
  return {
    lsn: r.lsn,
    walRecords: Number(r.wal_records),
    walFpi: Number(r.wal_fpi),
    walBytes: Number(r.wal_bytes),
    walSync: Number(r.wal_sync),
    commits: Number(r.commits),
  };
}

/** Resets pg_stat_statements (the whole server's: run the bench alone) and marks the WAL position. */
async function statementStatsReset(databaseUrl: string): Promise<WalMark | undefined> {
  if (!statementStats) return undefined;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('select pg_stat_statements_reset()');
    return await walMark(client);
  } finally {
    await client.end();
  }
}

/**
 * What the scratch database did per accepted order since the reset: per statement (calls, rows, WAL bytes,
 * shared blocks hit and dirtied, time, all per order), and the whole server's WAL (pg_stat_wal and the LSN;
 * other databases' writes would count too, so the bench should run alone) and this database's commits.
 */
async function statementStatsSince(databaseUrl: string, mark: WalMark, orders: number): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const now = await walMark(client);
    const { rows: lsn } = await client.query<{ bytes: string }>(
      'select pg_wal_lsn_diff($1::pg_lsn, $2::pg_lsn)::bigint as bytes',
      [now.lsn, mark.lsn],
    );
    const { rows } = await client.query<{
      query: string;
      calls: string;
      rows: string;
      wal_bytes: string;
      wal_records: string;
      hit: string;
      dirtied: string;
      ms: string;
    }>(
      `select regexp_replace(query, '\\s+', ' ', 'g') as query, calls, rows, wal_bytes, wal_records,
              shared_blks_hit + shared_blks_read as hit, shared_blks_dirtied as dirtied,
              total_exec_time as ms
         from pg_stat_statements
        where dbid = (select oid from pg_database where datname = current_database())
          and query not like '%pg_stat_statements%' and query not like '%pg_stat_wal%'
        order by calls desc`,
    );
    const n = Math.max(1, orders);
    const per = (v: string | number) => Number(v) / n;
    const f = (v: number, digits = 2) => v.toFixed(digits);
    let calls = 0;
    let rowsTouched = 0;
    let walBytes = 0;
    let dirtied = 0;
    let ms = 0;
    const lines = rows.map((r) => {
      calls += Number(r.calls);
      rowsTouched += Number(r.rows);
      walBytes += Number(r.wal_bytes);
      dirtied += Number(r.dirtied);
      ms += Number(r.ms);
      return (
        `  ${f(per(r.calls)).padStart(6)} calls ${f(per(r.rows)).padStart(6)} rows ` +
        `${f(per(r.wal_bytes), 0).padStart(5)} WAL B ${f(per(r.wal_records), 1).padStart(4)} rec ` +
        `${f(per(r.hit), 1).padStart(5)} hit ${f(per(r.dirtied), 2).padStart(5)} dirtied ` +
        `${f(Number(r.ms) / Math.max(1, Number(r.calls)), 3).padStart(6)} ms/call  ${r.query.slice(0, 110)}`
      );
    });
    const statements = rows.filter((r) => !/^\s*(begin|commit|rollback)\b/i.test(r.query));
    const statementCalls = statements.reduce((sum, r) => sum + Number(r.calls), 0);
    return (
      `per accepted order (${orders} orders): ${f(per(statementCalls))} statements besides BEGIN/COMMIT ` +
      `(${f(per(calls))} calls in all), ${f(per(rowsTouched))} rows, ${f(per(walBytes), 0)} WAL bytes by statement, ` +
      `${f(per(dirtied))} shared blocks dirtied, ${f(per(ms), 3)} ms executing; ` +
      `${f(per(now.commits - mark.commits))} commits in the database; whole server: ` +
      `${f(per(Number(lsn[0]?.bytes ?? 0)), 0)} WAL bytes by LSN, ${f(per(now.walRecords - mark.walRecords), 1)} WAL records, ` +
      `${f(per(now.walFpi - mark.walFpi), 2)} full-page images, ${f(per(now.walSync - mark.walSync), 2)} WAL syncs (fsync)\n` +
      lines.slice(0, 16).join('\n')
    );
  } finally {
    await client.end();
  }
}

/**
 * Starts `processes` servers on the database (and HAProxy in front of them when `proxied`), registers the
 * users, and offers orders at each of `rates` in turn: one result per rate. With more than one rate (the
 * search), each stretch is SETTLE seconds at its rate not counted, then DURATION seconds measured; the search
 * stops after the first rate at which an order went unanswered or the server shed load (its figures are the
 * point past saturation).
 */
async function run(
  label: string,
  port: number,
  databaseUrl: string,
  processes = 1,
  rates: number[] = [RATE],
  proxied = false,
): Promise<Result[]> {
  // One after the other: the first applies the migrations.
  const servers: Server[] = [];
  let proxy: Proxy | undefined;
  for (let k = 0; k < processes; k++)
    servers.push(await startServer(port + k, databaseUrl, processes > 1 ? BENCH_REDIS_URL : ''));
  const [server] = servers;
  if (!server) throw new Error('no server');
  try {
    if (proxied) proxy = await startHaproxy(port + 50, servers);
    const front = proxy?.port;
    if (databaseUrl) await enableStatementStats(databaseUrl);
    const list = (await (
      await fetch(`http://127.0.0.1:${port}/api/market/list?sort=code&limit=225`)
    ).json()) as Envelope<{ items: { code: string }[] }>;
    const universe = list.data.items.map((i) => i.code);
    const setupStart = performance.now();
    const users = await inBatches(USERS, 10, (i) =>
      createUser(servers[i % servers.length] ?? server, i, front),
    );
    await approveAll(port, await adminBearer(port));
    console.error(
      `[${label}] ${users.length} users registered, verified, logged in and on their sockets in ${Math.round(performance.now() - setupStart)} ms`,
    );

    // Order-number -> send time (waiting for its event), and events that came before their answer.
    const waiting = new Map<string, number>();
    const early = new Map<string, number>();
    let fillLatencies: number[] = [];
    for (const user of users) {
      user.ws.on('message', (data: Buffer) => {
        const text = data.toString('utf8');
        if (!text.includes('order.filled')) return;
        const at = performance.now();
        const message = JSON.parse(text) as { event?: { kind?: string; data?: { order_no?: string } } };
        const orderNo = message.event?.data?.order_no;
        if (message.event?.kind !== 'order.filled' || !orderNo) return;
        const sent = waiting.get(orderNo);
        if (sent === undefined) early.set(orderNo, at);
        else {
          waiting.delete(orderNo);
          fillLatencies.push(at - sent);
        }
      });
    }

    const agent = new Agent({ keepAlive: true, maxSockets: 1024, maxFreeSockets: 1024 });
    let acceptLatencies: number[] = [];
    /** Pairs (sent, since the start; latency), for LATENCY_FILE. */
    let timeline: number[] = [];
    let lags: number[] = [];
    let errors = new Map<string, number>();
    const countError = (key: string) => errors.set(key, (errors.get(key) ?? 0) + 1);
    let outstanding = 0;
    let accepted = 0;
    /** Measured orders the server shed: 503 OVERLOADED (1920) with Retry-After, and how fast that came. */
    let shed = 0;
    let shedLatencies: number[] = [];
    /** When the current measured stretch began (performance.now()). */
    let start = 0;
    let closed = false; // after the drain: connections torn down by us are not the server's errors
    let lastAnswer = 0;
    let seed = 11;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };

    /** Warm-up orders are answered and checked like the others but kept out of the figures. */
    let warming = false;
    const warmLatencies: number[] = [];
    const fire = (scheduled: number) => {
      const measured = !warming;
      const user = users[Math.floor(random() * users.length)];
      const code = universe[Math.floor(random() * universe.length)];
      const toPort =
        front ??
        (servers.length > 1 ? (servers[Math.floor(random() * servers.length)] ?? server) : server).port;
      if (!user || !code) return;
      const body = JSON.stringify({
        code,
        direction: 'long',
        price_type: 'market',
        quantity: 100,
        leverage: 1,
      });
      outstanding += 1;
      const sent = performance.now();
      if (measured) lags.push(sent - scheduled);
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port: toPort,
          path: '/api/trade/placeOrder',
          method: 'POST',
          agent,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            token: user.token,
            'idempotency-key': randomUUID(),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const at = performance.now();
            outstanding -= 1;
            lastAnswer = at;
            let json: Envelope<{ order_no?: string } | null> | undefined;
            try {
              json = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Envelope<{
                order_no?: string;
              } | null>;
            } catch {
              json = undefined;
            }
            const orderNo = json?.data?.order_no;
            if (!measured) {
              if (res.statusCode === 200 && orderNo) warmLatencies.push(at - sent);
              else if (rates.length === 1)
                countError(`warm-up: HTTP ${res.statusCode} code ${json?.code ?? '?'}`);
              return;
            }
            if (res.statusCode === 503 && json?.code === 1920 && res.headers['retry-after']) {
              shed += 1;
              shedLatencies.push(at - sent);
              return;
            }
            if (res.statusCode !== 200 || !orderNo) {
              countError(`HTTP ${res.statusCode} code ${json?.code ?? '?'} ${json?.msg ?? ''}`.trim());
              return;
            }
            accepted += 1;
            acceptLatencies.push(at - sent);
            timeline.push(sent - start, at - sent);
            const pushed = early.get(orderNo);
            if (pushed === undefined) waiting.set(orderNo, sent);
            else {
              early.delete(orderNo);
              fillLatencies.push(pushed - sent);
            }
          });
        },
      );
      req.setTimeout(30_000, () => req.destroy(new Error('timeout')));
      req.on('error', (error: NodeJS.ErrnoException) => {
        if (closed) return;
        outstanding -= 1;
        countError(`socket ${error.code ?? error.message}`);
      });
      req.end(body);
    };

    /** Sends `count` orders open-loop at RATE per second from now; resolves when the last is sent. */
    /**
     * Sends orders open-loop from now for `seconds`: at RATE per second, or with `ramp`, at a rate rising
     * evenly from 0 to RATE (RATE * seconds / 2 orders in all). Resolves when the last is sent.
     */
    const pace = (rate: number, seconds: number, ramp = false) =>
      new Promise<number>((resolve) => {
        const begin = performance.now();
        const count = Math.round(ramp ? (rate * seconds) / 2 : rate * seconds);
        // When order i is due, in ms from `begin`: i / rate, or sqrt(2 i seconds / rate) on the ramp.
        const dueAt = (i: number) => 1000 * (ramp ? Math.sqrt((2 * i * seconds) / rate) : i / rate);
        let sentSoFar = 0;
        const tick = () => {
          const now = performance.now() - begin;
          while (sentSoFar < count && dueAt(sentSoFar) <= now) {
            fire(begin + dueAt(sentSoFar));
            sentSoFar += 1;
          }
          if (sentSoFar >= count) resolve(count);
          else setTimeout(tick, 1);
        };
        tick();
      });

    if (WARMUP > 0) {
      // A server that has just started compiles the order path and prepares its statements on each pooled
      // connection during its first seconds of orders. It gets WARMUP seconds of a rate rising to RATE
      // first; those orders are reported apart, not in the figures.
      warming = true;
      await pace(rates[0] ?? RATE, WARMUP, true);
      const until = performance.now() + 30_000;
      while (outstanding > 0 && performance.now() < until) await sleep(20);
      warming = false;
      await sleep(500);
    }
    const pids = [...servers.map((s) => s.pid), ...(proxy ? [proxy.pid] : [])];
    const results: Result[] = [];
    for (const [step, rate] of rates.entries()) {
      if (rates.length > 1) {
        // Each step of the search: SETTLE seconds at its rate first, not counted, so the measured stretch
        // starts in the steady state of that rate rather than behind the previous step's drain.
        warming = true;
        await pace(rate, SETTLE);
        warming = false;
      }
      acceptLatencies = [];
      timeline = [];
      lags = [];
      errors = new Map();
      fillLatencies = [];
      shedLatencies = [];
      accepted = 0;
      shed = 0;
      waiting.clear();
      early.clear();
      const loadavg = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
      console.error(`[${label}] ${rate}/s: load average before the stretch: ${loadavg}`);
      const before = cpuTicks(pids);
      const pgPids = pidsNamed('postgres');
      const redisPids = pidsNamed('redis-server');
      const proxyPids = proxy ? [proxy.pid] : [];
      const beforeOthers = [pgPids, redisPids, proxyPids].map((list) => cpuTicks(list).proc);
      const dbBefore = databaseUrl ? await statementStatsReset(databaseUrl) : undefined;
      for (const s of servers) s.child.kill('SIGUSR2'); // the probes start counting the measured stretch
      start = performance.now();
      const startMonotonicMs = Number(process.hrtime.bigint() / 1000n) / 1000;
      const sampler = PG_PROBE && databaseUrl ? sampleWaits(databaseUrl, start) : null;
      const issued = await pace(rate, SECONDS);
      const issuedFor = (performance.now() - start) / 1000;
      const drainUntil = performance.now() + 30_000;
      while (outstanding > 0 && performance.now() < drainUntil) await sleep(20);
      const after = cpuTicks(pids);
      const [pgTicks = 0, redisTicks = 0, proxyTicks = 0] = [pgPids, redisPids, proxyPids].map(
        (list, k) => cpuTicks(list).proc - (beforeOthers[k] ?? 0),
      );
      const waitSamples = sampler ? await sampler.stop() : [];
      const probes: Probe[] = [];
      for (const s of servers) {
        const p = await readProbe(s);
        if (p) probes.push(p);
      }
      await sleep(1000); // the last events
      const dbCost =
        databaseUrl && dbBefore ? await statementStatsSince(databaseUrl, dbBefore, accepted) : undefined;
      const elapsed = (Math.max(lastAnswer, start + 1) - start) / 1000;
      if (outstanding > 0) errors.set('no answer within 30 s after the run', outstanding);
      if (waiting.size > 0)
        errors.set('accepted but no order.filled event within 1 s after the run', waiting.size);

      if (process.env['LATENCY_FILE'])
        writeFileSync(
          `${process.env['LATENCY_FILE']}.${label.split(' ')[0]}${rates.length > 1 ? `.${rate}` : ''}.json`,
          JSON.stringify({ startMonotonicMs, startWallMs: performance.timeOrigin + start, timeline }),
        );
      const slowWindows = new Set<number>();
      let slowCount = 0;
      for (let i = 0; i < timeline.length; i += 2) {
        if ((timeline[i + 1] ?? 0) <= 25) continue;
        slowCount += 1;
        slowWindows.add(Math.floor((timeline[i] ?? 0) / 100));
      }
      const warm = Float64Array.from(warmLatencies).sort();
      const stalls =
        probes.length > 0 ? attributeSlowOrders(timeline, performance.timeOrigin + start, probes) : undefined;
      const waits = waitSamples.length > 0 ? summarizeWaits(waitSamples, slowWindows) : undefined;
      const ticks = after.total - before.total;
      const accept = Float64Array.from(acceptLatencies).sort();
      const fill = Float64Array.from(fillLatencies).sort();
      const lag = Float64Array.from(lags).sort();
      const shedSorted = Float64Array.from(shedLatencies).sort();
      const result: Result = {
        label,
        offered: Math.round(issued / issuedFor),
        issued,
        accepted,
        acceptedPerSec: Math.round(accepted / elapsed),
        acceptP50: percentile(accept, 50),
        acceptP99: percentile(accept, 99),
        acceptMax: accept[accept.length - 1] ?? Number.NaN,
        fillP50: percentile(fill, 50),
        fillP99: percentile(fill, 99),
        filledSeen: fill.length,
        lagP99: percentile(lag, 99),
        errors,
        shed,
        shedP99: percentile(shedSorted, 99),
        // All as a share of the whole machine (2 cores = 100%); jiffies of /proc/stat are per core.
        machineCpu: ticks > 0 ? (after.busy - before.busy) / ticks : Number.NaN,
        iowait: ticks > 0 ? (after.iowait - before.iowait) / ticks : Number.NaN,
        steal: ticks > 0 ? (after.steal - before.steal) / ticks : Number.NaN,
        serverCpu: ticks > 0 ? (after.proc - before.proc - proxyTicks) / ticks : Number.NaN,
        proxyCpu: ticks > 0 ? proxyTicks / ticks : Number.NaN,
        postgresCpu: ticks > 0 ? pgTicks / ticks : Number.NaN,
        redisCpu: ticks > 0 ? redisTicks / ticks : Number.NaN,
        benchCpu: ticks > 0 ? (after.self - before.self) / ticks : Number.NaN,
        profile: [],
        probes,
        processes: servers.length,
        proxied: proxy !== undefined,
        loadavg,
        warm: {
          count: warm.length,
          p50: percentile(warm, 50),
          p99: percentile(warm, 99),
          max: warm[warm.length - 1] ?? Number.NaN,
        },
        slow: { count: slowCount, windows: slowWindows.size },
        waits,
        stalls,
        dbCost,
      };
      results.push(result);
      if (rates.length === 1) break;
      const answeredAll = errors.size === 0 && shed === 0;
      console.error(
        `[${label}] ${rate}/s: ${accepted} accepted, ${shed} shed, ${[...errors.values()].reduce((x, y) => x + y, 0)} errors, p99 ${result.acceptP99.toFixed(1)} ms`,
      );
      if (!answeredAll || step === rates.length - 1) break;
      // A pause between steps, so that the next settles from an idle server and database.
      await sleep(2000);
    }
    closed = true;
    agent.destroy();
    for (const user of users) user.ws.terminate();
    for (const s of servers) await stopServer(s);
    const last = results[results.length - 1];
    if (last && server.profileDir) last.profile = topSelfTime(server.profileDir);
    return results;
  } finally {
    if (proxy) await stopHaproxy(proxy);
    for (const s of servers) {
      await stopServer(s);
      rmSync(s.dataDir, { recursive: true, force: true });
    }
  }
}

// --------------------------------------------------------------------------------------- the CPU profile

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

/** The server's top self-time functions, from the .cpuprofile `node --cpu-prof` wrote at exit. */
function topSelfTime(dir: string, top = 15): string[] {
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  } catch {
    return ['(no profile written)'];
  }
  const file = files[0];
  if (!file) return ['(no profile written)'];
  const text = readFileSync(join(dir, file), 'utf8');
  if (process.env['KEEP_PROFILE']) writeFileSync(process.env['KEEP_PROFILE'], text);
  const profile = JSON.parse(text) as CpuProfile;
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const node = byNode.get(id);
    const delta = profile.timeDeltas[i] ?? 0;
    total += delta;
    if (!node) return;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url.replace(/^.*node_modules\//, '').replace(/^.*\/apps\//, 'apps/');
    const key = `${functionName || '(anonymous)'} ${where ? `${where}:${lineNumber + 1}` : ''}`.trim();
    self.set(key, (self.get(key) ?? 0) + delta);
  });
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([key, us]) => `${((100 * us) / total).toFixed(1).padStart(5)}%  ${key}`);
}

// ------------------------------------------------------------------------------------------------ pgbench

function findPgbench(): string | undefined {
  for (const candidate of ['pgbench', '/usr/lib/postgresql/15/bin/pgbench']) {
    if (spawnSync(candidate, ['--version']).status === 0) return candidate;
  }
  return undefined;
}

async function pgbench(): Promise<{ tps: number; note: string }> {
  const binary = findPgbench();
  if (!binary) return { tps: Number.NaN, note: 'pgbench not found: skipped' };
  const name = await createScratch('kabuto_bench_pgbench');
  try {
    const url = new URL(PG_ADMIN_URL);
    const conn = ['-h', url.hostname, '-p', url.port || '5432', '-U', decodeURIComponent(url.username)];
    const init = spawnSync(binary, ['-i', '-s', '10', '-q', ...conn, name], { encoding: 'utf8' });
    if (init.status !== 0) return { tps: Number.NaN, note: `pgbench -i failed: ${init.stderr}` };
    const bench = spawnSync(binary, ['-c', '8', '-j', '2', '-T', '10', '-N', ...conn, name], {
      encoding: 'utf8',
    });
    const match = /tps = ([\d.]+) \(without initial connection time\)/.exec(bench.stdout);
    if (bench.status !== 0 || !match) return { tps: Number.NaN, note: `pgbench failed: ${bench.stderr}` };
    return { tps: Number(match[1]), note: 'pgbench -c 8 -j 2 -T 10 -N, scale 10' };
  } finally {
    await dropScratch(name);
  }
}

// --------------------------------------------------------------------------------------------------- main

function fmt(n: number): string {
  return Number.isNaN(n) ? '-' : n < 10 ? n.toFixed(1) : String(Math.round(n));
}

const results: Result[] = [];
let ceiling: { tps: number; note: string } | undefined;
const pgLabel = (processes: number, proxied: boolean) =>
  `PostgreSQL 15${processes > 1 || proxied ? `, ${processes} processes${proxied ? ' via HAProxy' : ''}` : ''}`;
if (SEARCH) {
  for (const processes of SEARCH_PROCESSES) {
    const proxied = processes > 1 && PROXY === 'haproxy';
    const name = await createScratch('kabuto_bench_orders');
    try {
      results.push(
        ...(await run(pgLabel(processes, proxied), 18311, scratchUrl(name), processes, STEPS, proxied)),
      );
    } finally {
      await dropScratch(name);
    }
  }
  ceiling = await pgbench();
  printSearch(results, ceiling);
  process.exit(0);
}
for (const database of DATABASES) {
  if (database === 'postgres') {
    const name = await createScratch('kabuto_bench_orders');
    const proxied = PROXY === 'haproxy';
    try {
      results.push(
        ...(await run(pgLabel(PROCESSES, proxied), 18311, scratchUrl(name), PROCESSES, [RATE], proxied)),
      );
    } finally {
      await dropScratch(name);
    }
    ceiling = await pgbench();
  } else if (database === 'pglite') {
    results.push(...(await run('PGlite', 18320, '')));
  } else {
    console.error(`unknown database ${database} (postgres or pglite)`);
  }
}

const pct = (share: number) => (Number.isNaN(share) ? '-' : `${(100 * share).toFixed(1)}%`);
console.log(
  `\nOrders: ${RATE}/s target, ${SECONDS} s, ${USERS} users, market buys of 100 shares, one run:\n`,
);
const rows = [
  [
    'database',
    'offered/s',
    'accepted/s',
    'accepted',
    'errors',
    'accept p50/p99/max ms',
    'fill push p50/p99 ms',
    'sched lag p99',
    'shed',
    'processes',
    'CPU machine/server/bench',
  ],
];
for (const r of results) {
  const errorCount = [...r.errors.values()].reduce((a, b) => a + b, 0);
  rows.push([
    r.label,
    String(r.offered),
    String(r.acceptedPerSec),
    `${r.accepted}/${r.issued}`,
    String(errorCount),
    `${fmt(r.acceptP50)} / ${fmt(r.acceptP99)} / ${fmt(r.acceptMax)}`,
    `${fmt(r.fillP50)} / ${fmt(r.fillP99)} (${r.filledSeen})`,
    fmt(r.lagP99),
    String(r.shed),
    String(r.processes),
    `${Math.round(100 * r.machineCpu)}% / ${Math.round(100 * r.serverCpu)}% / ${Math.round(100 * r.benchCpu)}%`,
  ]);
}
const widths = rows[0]?.map((_, i) => Math.max(...rows.map((row) => (row[i] ?? '').length)) + 2) ?? [];
for (const row of rows) console.log(row.map((c, i) => c.padEnd(widths[i] ?? 0)).join(''));
for (const r of results) {
  console.log(
    `\n${r.label}: warm-up (${WARMUP} s rising to the rate before the measured stretch, not in the figures above) ` +
      `${r.warm.count} orders answered, p50/p99/max ${fmt(r.warm.p50)} / ${fmt(r.warm.p99)} / ${fmt(r.warm.max)} ms; ` +
      `measured orders over 25 ms: ${r.slow.count}, sent within ${r.slow.windows} distinct 100 ms windows; ` +
      `machine CPU in iowait ${pct(r.iowait)}, stolen by the hypervisor ${pct(r.steal)}`,
  );
}
for (const r of results) {
  r.probes.forEach((p, k) => {
    const which = r.probes.length > 1 ? `, process ${k + 1} of ${r.probes.length}` : '';
    console.log(
      `\nServer (${r.label}${which}), measured stretch: event loop delay p50/p99/max ${p.delayP50} / ${p.delayP99} / ${p.delayMax} ms; ` +
        `GC ${p.gcCount} pauses, ${p.gcTotalMs} ms in all, longest ${p.gcMaxMs} ms; ` +
        `${p.postCount} POSTs in the server (request to answer) p50/p99/max ${p.postP50} / ${p.postP99} / ${p.postMax} ms`,
    );
    if (p.statements !== undefined) {
      console.log('Statements (count, p50 / p99 / max ms):');
      console.log(p.statements.replace(/^/gm, '  '));
    }
  });
  if (r.stalls) console.log(`Slow orders (${r.label}): ${r.stalls}`);
  if (r.dbCost) console.log(`\nDatabase (${r.label}), ${r.dbCost}`);
  if (r.waits) console.log(`PostgreSQL backends (pg_stat_activity every 20 ms) ${r.waits}`);
}
for (const r of results) {
  if (r.errors.size === 0) continue;
  console.log(`\nErrors (${r.label}):`);
  for (const [key, count] of [...r.errors.entries()].sort((a, b) => b[1] - a[1]))
    console.log(`  ${String(count).padStart(6)}  ${key}`);
}
if (ceiling) {
  const pgResult = results.find((r) => r.label.startsWith('PostgreSQL'));
  console.log(`\nCeiling: ${ceiling.note}: ${fmt(ceiling.tps)} tps`);
  if (pgResult && !Number.isNaN(ceiling.tps))
    console.log(
      `Ratio: ${pgResult.acceptedPerSec} orders/s / ${fmt(ceiling.tps)} tps = ${(pgResult.acceptedPerSec / ceiling.tps).toFixed(2)}x`,
    );
}
for (const r of results) {
  if (r.profile.length === 0) continue;
  console.log(`\nServer CPU profile, top self time (${r.label}):`);
  for (const line of r.profile) console.log(`  ${line}`);
}

function printSearch(all: Result[], pgbenchCeiling: { tps: number; note: string }): void {
  console.log(
    `\nOrders, rate search: steps of ${SETTLE} s settling + ${SECONDS} s measured, ${USERS} users, market buys ` +
      `of 100 shares; goal: every order accepted, p99 ≤ 25 ms. One run.\n`,
  );
  const rows = [
    [
      'setup',
      'offered/s',
      'accepted/s',
      'shed',
      'errors',
      'accept p50/p99/max ms',
      'shed p99 ms',
      'CPU machine/servers/HAProxy/PostgreSQL/Redis/bench',
      'load avg',
      'goal',
    ],
  ];
  for (const r of all) {
    const errorCount = [...r.errors.values()].reduce((a, b) => a + b, 0);
    rows.push([
      r.label,
      String(r.offered),
      String(r.acceptedPerSec),
      r.issued > 0 ? `${((100 * r.shed) / r.issued).toFixed(1)}%` : '-',
      String(errorCount),
      `${fmt(r.acceptP50)} / ${fmt(r.acceptP99)} / ${fmt(r.acceptMax)}`,
      fmt(r.shedP99),
      [r.machineCpu, r.serverCpu, r.proxyCpu, r.postgresCpu, r.redisCpu, r.benchCpu]
        .map((share) => (Number.isNaN(share) ? '-' : `${Math.round(100 * share)}%`))
        .join(' / '),
      r.loadavg,
      errorCount === 0 && r.shed === 0 && r.acceptP99 <= 25 ? 'met' : 'missed',
    ]);
  }
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((row) => (row[i] ?? '').length)) + 2) ?? [];
  for (const row of rows) console.log(row.map((c, i) => c.padEnd(widths[i] ?? 0)).join(''));
  console.log(`\nCeiling: ${pgbenchCeiling.note}: ${fmt(pgbenchCeiling.tps)} tps`);
  for (const label of new Set(all.map((r) => r.label))) {
    const steps = all.filter((r) => r.label === label);
    const met = steps.filter((r) => r.errors.size === 0 && r.shed === 0 && r.acceptP99 <= 25);
    const best = met.reduce<Result | undefined>((a, r) => (!a || r.offered > a.offered ? r : a), undefined);
    if (!best) {
      console.log(`${label}: no step met the goal`);
      const first = steps[0];
      if (first?.dbCost)
        console.log(`  database at ${first.offered}/s, ${first.dbCost.replace(/\n/g, '\n  ')}`);
      continue;
    }
    const ratio = Number.isNaN(pgbenchCeiling.tps)
      ? '-'
      : (best.acceptedPerSec / pgbenchCeiling.tps).toFixed(2);
    console.log(
      `${label}: highest rate meeting the goal ${best.offered}/s offered, ${best.acceptedPerSec} accepted/s ` +
        `(p99 ${fmt(best.acceptP99)} ms) = ${ratio}x pgbench -N`,
    );
    const past = steps.find((r) => r.shed > 0);
    if (past)
      console.log(
        `  past saturation (${past.offered}/s offered): ${((100 * past.shed) / past.issued).toFixed(1)}% shed with ` +
          `503 + Retry-After (p99 ${fmt(past.shedP99)} ms), accepted ${past.acceptedPerSec}/s at p99 ${fmt(past.acceptP99)} ms`,
      );
    if (best.dbCost) console.log(`  database at ${best.offered}/s, ${best.dbCost.replace(/\n/g, '\n  ')}`);
  }
}
