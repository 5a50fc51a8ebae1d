/**
 * Fault check of the live stream (issue 22, ADR 0032): a private redis-server on REDIS_PORT, the server on
 * it (embedded PGlite, the simulated market always open), a WebSocket watching every index tick, and the
 * demo user placing an order every second. ROUNDS times: Redis is killed (SIGKILL) for OUTAGE_MS, then
 * started again. Checks, each round: the socket is told `stream stale: true` within 2 s of the kill and
 * `stale: false` after the restart; /api/ready says `degraded` meanwhile and `ok` after; ticks resume within
 * 5 s of Redis accepting connections; no order answers ≥ 500 and every acknowledged order is in the order
 * list at the end (nothing lost). The server logs the loss and the recovery once each per round.
 *   npm run crash:redis   (ROUNDS=3 OUTAGE_MS=4000 REDIS_PORT=16393 PORT=18394)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const OUTAGE_MS = Number(process.env.OUTAGE_MS ?? 4000);
const REDIS_PORT = Number(process.env.REDIS_PORT ?? 16393);
const PORT = Number(process.env.PORT ?? 18394);
const RESUME_LIMIT_MS = 5000;
const mainTs = new URL('../apps/server/src/main.ts', import.meta.url).pathname;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const violations = [];
const violation = (text) => {
  violations.push(text);
  console.log(`VIOLATION: ${text}`);
};

const dir = mkdtempSync(join(tmpdir(), 'kabuto-crash-redis-'));
/** @type {import('node:child_process').ChildProcess | undefined} */
let redis;
/** @type {import('node:child_process').ChildProcess | undefined} */
let server;
const serverLines = [];

const watchdog = setTimeout(() => {
  console.error('crash-redis: still running after 300 s; giving up');
  redis?.kill('SIGKILL');
  server?.kill('SIGKILL');
  process.exit(3);
}, 300_000);
watchdog.unref();

function startRedis() {
  redis = spawn(
    'redis-server',
    ['--port', String(REDIS_PORT), '--bind', '127.0.0.1', '--save', '', '--dir', dir],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const child = redis;
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.stdout.on('data', (chunk) => {
      if (chunk.toString().includes('Ready to accept connections')) resolve(Date.now());
    });
  });
}

function killRedis() {
  const child = redis;
  if (!child || child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGKILL');
  });
}

async function api(method, path, body, token, key) {
  const res = await fetch(`http://127.0.0.1:${PORT}/api${path}`, {
    method,
    headers: {
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(token ? { token } : {}),
      ...(key ? { 'idempotency-key': key } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: await res.json() };
}

async function startServer() {
  server = spawn(process.execPath, ['--conditions=@kabuto/source', '--import', 'tsx', mainTs], {
    env: {
      ...process.env,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: join(dir, 'data'),
      DATABASE_URL: '',
      REDIS_URL: `redis://127.0.0.1:${REDIS_PORT}`,
      REDIS_PREFIX: `crash-redis-${process.pid}:`,
      MARKET_CLOCK: 'always-open',
      DEMO_MODE: 'true',
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      CONSOLE_ADMIN_PASSWORD: 'crash-redis-admin-2026',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let buffer = '';
  server.stdout.on('data', (chunk) => {
    buffer += chunk.toString();
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    for (const line of lines) {
      try {
        serverLines.push(JSON.parse(line));
      } catch {
        // the start banner
      }
    }
  });
  for (let i = 0; i < 600; i++) {
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${PORT}/api/health`)).status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error('server did not start');
}

/** A socket that keeps every message with the time it came. */
function openSocket() {
  const socket = new WebSocket(`ws://127.0.0.1:${PORT}/api/ws?lang=en`);
  const messages = [];
  socket.on('message', (data) => messages.push({ at: Date.now(), m: JSON.parse(data.toString()) }));
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve({ socket, messages }));
    socket.once('error', reject);
  });
}

async function until(probe, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) return undefined;
    await sleep(20);
  }
}

const readyStatus = async () => (await api('GET', '/ready')).body.data.status;
const said = (text) => serverLines.filter((l) => typeof l.msg === 'string' && l.msg.includes(text)).length;

let exitCode = 1;
try {
  await startRedis();
  await startServer();
  const login = await api('POST', '/auth/login', {
    account: '09000000001',
    password: 'demo1234',
    agree: true,
  });
  const token = login.body.data.token;
  const { socket, messages } = await openSocket();
  const ticksAfter = (at) =>
    messages.some((x) => x.at > at && x.m.type === 'index' && typeof x.m.ts === 'number');
  if (!(await until(() => ticksAfter(0), 15_000))) violation('no tick before the first outage');

  // the load: an order every second, all along
  const acked = [];
  const statuses = new Map();
  let loading = true;
  const load = (async () => {
    for (let n = 0; loading; n++) {
      const res = await api(
        'POST',
        '/trade/placeOrder',
        { code: '7203', direction: 'long', price_type: 'market', quantity: 100, leverage: 1 },
        token,
        `crash-redis-${process.pid}-${n}`,
      ).catch(() => ({ status: 0, body: {} }));
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (res.status !== 200) console.log(`order ${n}: HTTP ${res.status} ${JSON.stringify(res.body)}`);
      if (res.status >= 500) violation(`order ${n}: HTTP ${res.status} ${JSON.stringify(res.body)}`);
      if (res.status === 200) acked.push(res.body.data.order_no);
      await sleep(1000);
    }
  })();

  const rows = [];
  for (let r = 1; r <= ROUNDS; r++) {
    const lost = said('connection lost');
    const restored = said('connection restored');
    const killedAt = Date.now();
    await killRedis();
    const stale = await until(
      () => messages.find((x) => x.at >= killedAt && x.m.type === 'stream' && x.m.stale === true),
      2000,
    );
    if (!stale) violation(`round ${r}: no stale notice within 2 s of the kill`);
    const degraded = await readyStatus();
    if (degraded !== 'degraded') violation(`round ${r}: /api/ready said ${degraded} during the outage`);
    await sleep(OUTAGE_MS);
    const backAt = await startRedis();
    const live = await until(
      () => messages.find((x) => x.at >= backAt && x.m.type === 'stream' && x.m.stale === false),
      10_000,
    );
    if (!live) violation(`round ${r}: no "stale: false" within 10 s of Redis coming back`);
    const tick = await until(
      () => messages.find((x) => x.at > backAt && x.m.type === 'index' && typeof x.m.ts === 'number'),
      15_000,
    );
    const resumeMs = tick ? tick.at - backAt : Infinity;
    if (!(resumeMs <= RESUME_LIMIT_MS)) violation(`round ${r}: ticks resumed ${resumeMs} ms after Redis`);
    let ok = await readyStatus();
    for (let i = 0; i < 50 && ok !== 'ok'; i++) {
      await sleep(100);
      ok = await readyStatus();
    }
    if (ok !== 'ok') violation(`round ${r}: /api/ready said ${ok} after the outage`);
    await sleep(500);
    if (said('connection lost') - lost !== 1 || said('connection restored') - restored !== 1)
      violation(`round ${r}: the loss and the recovery were not logged once each`);
    rows.push({
      r,
      staleNoticeMs: stale ? stale.at - killedAt : null,
      liveNoticeMs: live ? live.at - backAt : null,
      resumeMs,
    });
    console.log(
      `round ${r}: Redis down ${backAt - killedAt} ms; stale notice ${stale ? stale.at - killedAt : '-'} ms after the kill; live notice ${live ? live.at - backAt : '-'} ms and first tick ${resumeMs} ms after Redis accepted connections`,
    );
    await sleep(1500);
  }
  loading = false;
  await load;

  // nothing lost: every acknowledged order is the user's
  for (const orderNo of acked) {
    const res = await api('GET', `/trade/order?order_no=${orderNo}`, undefined, token);
    if (res.status !== 200 || res.body.data.order_no !== orderNo)
      violation(`acknowledged order ${orderNo} answers ${res.status}`);
  }
  socket.close();
  console.log('\nSummary');
  console.log(
    `  orders answered, by HTTP status   ${[...statuses].map(([k, v]) => `${k}: ${v}`).join(', ')}`,
  );
  console.log(`  acknowledged orders found again   ${acked.length}`);
  console.log(`  worst first tick after Redis      ${Math.max(...rows.map((x) => x.resumeMs))} ms`);
  console.log(`  violations                        ${violations.length}`);
  exitCode = violations.length === 0 ? 0 : 1;
  console.log(violations.length === 0 ? '\nOK: no violation' : `\nFAILED: ${violations.length} violations`);
} finally {
  server?.kill('SIGTERM');
  await killRedis();
  await sleep(500);
  rmSync(dir, { recursive: true, force: true });
}
process.exit(exitCode);
