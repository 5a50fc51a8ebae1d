/**
 * Benchmark: WebSocket fan-out. One server process (the real app, simulator in always-open mode) and
 * CLIENTS WebSocket clients (default 2,000), each subscribed to SYMBOLS random stocks (default 20) of the
 * Nikkei 225. Latency is from the server stamping a tick (`ts`, when it publishes it) to the client
 * receiving it, at the simulator's normal rate (a beat a second) and at ten times that rate.
 *   npm run bench:ws     (CLIENTS=2000 SYMBOLS=20 DURATION=20 WORKERS=2 RATES=1,10 to change)
 * The clients run in WORKERS child processes (0: in this process, as the bench did before 2026-11-26), so
 * that one process parsing every client's messages is not what the figure measures. Besides the latency it
 * prints the CPU each process used while measuring (from /proc and process.cpuUsage): the server's CPU per
 * message delivered is the fan-out cost bench/capacity.ts reads, and the clients' share says how much of the
 * two shared cores the load generator took from the server.
 * BASELINE=1 measures, in the same run and with the same clients, the app and a bare `ws` server in turn
 * (bench/ws-bare-server.ts: the same handshake, subscription and beat bytes, one write a socket a beat, and
 * nothing else), ROUNDS (2) times each, alternating (app, bare, app, bare); it prints every run and the ratio
 * app p99 / bare p99 by round. SERVERS=app,bare,… picks the sequence itself (SERVERS=bare: the bare server
 * alone). Without either, the app alone, as before.
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';

const CLIENTS = Number(process.env['CLIENTS'] ?? 2000);
const SYMBOLS = Number(process.env['SYMBOLS'] ?? 20);
const SECONDS = Number(process.env['DURATION'] ?? 20);
const WORKERS = Number(process.env['WORKERS'] ?? 2);
const RATES = (process.env['RATES'] ?? '1,10').split(',').map(Number);
const ROUNDS = Number(process.env['ROUNDS'] ?? 2);
type ServerKind = 'app' | 'bare';
/** the servers measured in turn, each with the same clients: the app alone unless BASELINE or SERVERS says */
const SERVERS: ServerKind[] = (
  process.env['SERVERS'] ??
  (process.env['BASELINE'] ? Array.from({ length: ROUNDS }, () => 'app,bare').join(',') : 'app')
)
  .split(',')
  .map((s) => {
    if (s !== 'app' && s !== 'bare') throw new Error(`SERVERS: unknown server ${s}`);
    return s;
  });
/** `ws`: each client a `ws` WebSocket; `raw`: a bare TCP socket that parses the server's frames itself */
const CLIENT = process.env['CLIENT'] === 'raw' ? 'raw' : 'ws';
const mainTs = new URL('../apps/server/src/main.ts', import.meta.url).pathname;
const bareTs = new URL('ws-bare-server.ts', import.meta.url).pathname;
const resultsDir = new URL('results/', import.meta.url).pathname;
/** latency histogram: one bucket per millisecond up to 10 s, the last one for anything slower */
const BUCKETS = 10_001;

interface Health {
  /** `beats`: the bare server's alone (ws-bare-server.ts), each beat's write loop in ms since the last read */
  data: { realtime: { clients: number; dropped: number; producing: boolean; beats?: number[] } };
}

/** Messages between the bench and a worker of clients. */
type ToWorker = { op: 'measure' } | { op: 'stop' };
type FromWorker =
  | { op: 'connected' }
  | { op: 'result'; histogram: number[]; received: number; cpuMs: number }
  | { op: 'failed'; error: string };

interface Clients {
  measure(): void;
  /** stops measuring: the latency histogram, the messages counted and the clients' CPU while measuring */
  stop(): Promise<{ histogram: Uint32Array; received: number; cpuMs: number }>;
  close(): void;
}

/**
 * A client frame (RFC 6455 §5.3): every frame from a client is masked; the zero key is a valid one and leaves
 * the payload as it is. Payloads under 64 KiB (a command, a pong).
 */
function clientFrame(opcode: number, payload: Buffer): Buffer {
  const header = payload.length < 126 ? 2 : 4;
  const frame = Buffer.alloc(header + 4 + payload.length); // the four bytes of the mask key stay 0
  frame[0] = 0x80 | opcode;
  if (header === 2) frame[1] = 0x80 | payload.length;
  else {
    frame[1] = 0x80 | 126;
    frame.writeUInt16BE(payload.length, 2);
  }
  payload.copy(frame, header + 4);
  return frame;
}

const TS = Buffer.from('"ts":');

/**
 * `CLIENT=raw`: a WebSocket client on a bare TCP socket, for a load generator that costs less CPU than `ws`
 * on the cores it shares with the server. It does the opening handshake, sends its subscription, answers
 * pings, and reads the server's frames (unmasked, never fragmented by the hub) without copying them: a text
 * message's `ts` is read from its bytes. The server sees the same connection and protocol as from `ws`.
 */
function openRaw(port: number, subscribe: string, onTs: (ts: number) => void): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let rest: Buffer | null = null;
    let open = false;
    socket.setNoDelay(true);
    socket.once('error', reject);
    socket.on('connect', () => {
      socket.write(
        `GET /api/ws HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      );
    });
    const frames = (data: Buffer) => {
      let at = 0;
      while (data.length - at >= 2) {
        const opcode = (data[at] ?? 0) & 0x0f;
        let length = (data[at + 1] ?? 0) & 0x7f;
        let start = at + 2;
        if (length === 126) {
          if (data.length - at < 4) break;
          length = data.readUInt16BE(at + 2);
          start = at + 4;
        } else if (length === 127) {
          if (data.length - at < 10) break;
          length = data.readUInt32BE(at + 6);
          start = at + 10;
        }
        const end = start + length;
        if (end > data.length) break;
        if (opcode === 1) {
          const found = data.indexOf(TS, start);
          if (found >= 0 && found < end) {
            let ts = 0;
            for (let i = found + TS.length; i < end; i++) {
              const digit = (data[i] ?? 0) - 48;
              if (digit < 0 || digit > 9) break;
              ts = ts * 10 + digit;
            }
            onTs(ts);
          }
        } else if (opcode === 9) socket.write(clientFrame(0xa, data.subarray(start, end)));
        at = end;
      }
      rest = at < data.length ? data.subarray(at) : null;
    };
    socket.on('data', (chunk: Buffer) => {
      const data = rest ? Buffer.concat([rest, chunk]) : chunk;
      if (open) {
        frames(data);
        return;
      }
      const headEnd = data.indexOf('\r\n\r\n');
      if (headEnd < 0) {
        rest = data;
        return;
      }
      if (!data.subarray(0, 12).toString('latin1').startsWith('HTTP/1.1 101')) {
        reject(new Error(data.subarray(0, headEnd).toString('latin1')));
        socket.destroy();
        return;
      }
      open = true;
      socket.write(clientFrame(1, Buffer.from(subscribe)));
      resolve(socket);
      frames(data.subarray(headEnd + 4));
    });
  });
}

/** `count` clients in this process, each on its own socket with SYMBOLS random symbols (seeded). */
async function connectClients(
  port: number,
  universe: string[],
  count: number,
  seed: number,
): Promise<Clients> {
  const histogram = new Uint32Array(BUCKETS);
  let measuring = false;
  let received = 0;
  let cpuAtStart = process.cpuUsage();
  const sockets: { terminate(): void }[] = [];
  let state = seed;
  const random = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  const subscription = () => {
    const mine = new Set<string>();
    while (mine.size < SYMBOLS) mine.add(universe[Math.floor(random() * universe.length)] ?? '7203');
    return JSON.stringify({ op: 'subscribe', symbols: [...mine] });
  };
  const stamp = (ts: number) => {
    if (!measuring) return;
    received += 1;
    const bucket = Math.max(0, Math.min(BUCKETS - 1, Date.now() - ts));
    histogram[bucket] = (histogram[bucket] ?? 0) + 1;
  };
  const openWs = () => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api/ws`);
    sockets.push(ws);
    ws.on('message', (data: Buffer) => {
      if (!measuring) return;
      const text = data.toString('utf8');
      const at = text.indexOf('"ts":');
      if (at < 0) return;
      stamp(Number(text.slice(at + 5, text.indexOf('}', at)).split(',')[0]));
    });
    return new Promise<void>((resolve, reject) => {
      ws.once('open', () => {
        ws.send(subscription());
        resolve();
      });
      ws.once('error', reject);
    });
  };
  const openBare = async () => {
    const socket = await openRaw(port, subscription(), stamp);
    sockets.push({ terminate: () => socket.destroy() });
  };
  // Connect in batches so that the accept queue does not overflow.
  for (let batch = 0; batch < count; batch += 100)
    await Promise.all(
      Array.from({ length: Math.min(100, count - batch) }, () => (CLIENT === 'raw' ? openBare() : openWs())),
    );
  return {
    measure() {
      cpuAtStart = process.cpuUsage();
      measuring = true;
    },
    async stop() {
      measuring = false;
      const used = process.cpuUsage(cpuAtStart);
      return { histogram, received, cpuMs: (used.user + used.system) / 1000 };
    },
    close() {
      for (const ws of sockets) ws.terminate();
    },
  };
}

/** `count` clients in a child process (this file, as a worker). */
async function forkClients(port: number, universe: string[], count: number, seed: number): Promise<Clients> {
  const child = fork(fileURLToPath(import.meta.url), [], {
    env: {
      ...process.env,
      WS_WORKER: JSON.stringify({ port, universe, count, seed }),
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = () =>
    new Promise<FromWorker>((resolve, reject) => {
      child.once('message', (m) => {
        resolve(m as FromWorker);
      });
      child.once('exit', (code) => {
        reject(new Error(`a client worker exited with ${String(code)}`));
      });
    });
  const first = await next();
  if (first.op !== 'connected') throw new Error(first.op === 'failed' ? first.error : 'unexpected message');
  const send = (m: ToWorker) => child.send(m);
  return {
    measure() {
      send({ op: 'measure' });
    },
    async stop() {
      const answer = next();
      send({ op: 'stop' });
      const m = await answer;
      if (m.op !== 'result') throw new Error('unexpected message');
      return { histogram: Uint32Array.from(m.histogram), received: m.received, cpuMs: m.cpuMs };
    },
    close() {
      child.kill('SIGTERM');
    },
  };
}

async function worker(spec: { port: number; universe: string[]; count: number; seed: number }) {
  const send = (m: FromWorker) => process.send?.(m);
  try {
    const clients = await connectClients(spec.port, spec.universe, spec.count, spec.seed);
    process.on('message', (m: ToWorker) => {
      if (m.op === 'measure') clients.measure();
      else
        void clients.stop().then((r) => {
          send({ op: 'result', histogram: [...r.histogram], received: r.received, cpuMs: r.cpuMs });
        });
    });
    process.on('SIGTERM', () => {
      clients.close();
      process.exit(0);
    });
    send({ op: 'connected' });
  } catch (error) {
    send({ op: 'failed', error: String(error) });
    process.exit(1);
  }
}

/** CPU time (ms) a process has used so far, from /proc (Linux). */
function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  // utime and stime are fields 14 and 15 of stat, 12 and 13 after the command; clock ticks of 10 ms
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function startServer(kind: ServerKind, tickMs: number, port: number): Promise<ChildProcess> {
  // PROFILE=1: a CPU profile of the server (written to bench/results/ when it stops)
  const profile = process.env['PROFILE'] ? ['--cpu-prof', `--cpu-prof-dir=${resultsDir}`] : [];
  const child = spawn(
    process.execPath,
    [...profile, '--conditions=@kabuto/source', '--import', 'tsx', kind === 'app' ? mainTs : bareTs],
    {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: mkdtempSync(join(tmpdir(), 'kabuto-bench-ws-')),
        DATABASE_URL: '',
        REDIS_URL: '',
        MARKET_CLOCK: 'always-open',
        MARKET_TICK_MS: String(tickMs),
        DEMO_MODE: 'false',
        LOG_LEVEL: 'warn',
        // every client comes from 127.0.0.1: lift the per-address cap to the most it allows
        WS_MAX_PER_CLIENT: '10000',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  for (let i = 0; i < 300; i++) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('server did not start');
}

async function codes(port: number): Promise<string[]> {
  const res = await fetch(`http://127.0.0.1:${port}/api/market/list?sort=code&limit=225`);
  const body = (await res.json()) as { data: { items: { code: string }[] } };
  return body.data.items.map((i) => i.code);
}

function percentile(histogram: Uint32Array, total: number, p: number): number {
  const rank = Math.min(total - 1, Math.floor((p / 100) * total));
  let seen = 0;
  for (let ms = 0; ms < histogram.length; ms++) {
    seen += histogram[ms] ?? 0;
    if (seen > rank) return ms;
  }
  return Number.NaN;
}

async function run(label: string, tickMs: number, port: number, kind: ServerKind = 'app') {
  const server = await startServer(kind, tickMs, port);
  const universe = await codes(port);
  const groups: Clients[] = [];
  const connecting = Date.now();
  if (WORKERS <= 0) groups.push(await connectClients(port, universe, CLIENTS, 7));
  else
    groups.push(
      ...(await Promise.all(
        Array.from({ length: WORKERS }, (_, w) =>
          forkClients(
            port,
            universe,
            Math.floor(CLIENTS / WORKERS) + (w < CLIENTS % WORKERS ? 1 : 0),
            7 + w * 7919,
          ),
        ),
      )),
    );
  const connectedIn = (Date.now() - connecting) / 1000;
  await new Promise((r) => setTimeout(r, 2000));
  const load = loadavg()[0] ?? Number.NaN;
  // the bare server's beat times are those since the last read: read (and forget) those before measuring
  if (kind === 'bare') await fetch(`http://127.0.0.1:${port}/api/health`);
  for (const g of groups) g.measure();
  const serverCpu = cpuMsOf(server.pid ?? 0);
  const started = Date.now();
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  const results = await Promise.all(groups.map((g) => g.stop()));
  const elapsed = (Date.now() - started) / 1000;
  const serverCpuMs = cpuMsOf(server.pid ?? 0) - serverCpu;
  const health = ((await (await fetch(`http://127.0.0.1:${port}/api/health`)).json()) as Health).data
    .realtime;
  for (const g of groups) g.close();
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  const histogram = new Uint32Array(BUCKETS);
  let received = 0;
  let clientCpuMs = 0;
  for (const r of results) {
    received += r.received;
    clientCpuMs += r.cpuMs;
    for (let i = 0; i < BUCKETS; i++) histogram[i] = (histogram[i] ?? 0) + (r.histogram[i] ?? 0);
  }
  let max = 0;
  for (let i = 0; i < BUCKETS; i++) if ((histogram[i] ?? 0) > 0) max = i;
  return {
    label,
    kind,
    clients: health.clients,
    dropped: health.dropped,
    msgsPerSec: Math.round(received / elapsed),
    p50: percentile(histogram, received, 50),
    p99: percentile(histogram, received, 99),
    max,
    /** share of one core */
    serverCpu: serverCpuMs / 1000 / elapsed,
    clientCpu: clientCpuMs / 1000 / elapsed,
    usPerMessage: received === 0 ? Number.NaN : (serverCpuMs * 1000) / received,
    load,
    connectedIn,
    /** the bare server's write loop per beat while measuring, ms, sorted */
    beats: [...(health.beats ?? [])].sort((a, b) => a - b),
  };
}

const spec = process.env['WS_WORKER'];
if (spec !== undefined) {
  await worker(JSON.parse(spec) as { port: number; universe: string[]; count: number; seed: number });
} else {
  const results = [];
  let port = 18301;
  for (const rate of RATES)
    for (const kind of SERVERS)
      results.push(
        await run(rate === 1 ? 'normal (1 beat/s)' : `${rate}x (${rate} beats/s)`, 1000 / rate, port++, kind),
      );
  const where = `${CLIENT === 'raw' ? 'bare TCP' : '`ws`'} clients ${WORKERS <= 0 ? 'in the bench process' : `in ${WORKERS} worker processes`}`;
  console.log(
    `\n${CLIENTS} clients (${where}) x ${SYMBOLS} symbols, ${SECONDS} s measured each, ${cpus().length} cores:\n`,
  );
  if (SERVERS.length === 1 && SERVERS[0] === 'app') {
    const rows = [
      ['rate', 'clients', 'dropped', 'msgs/s', 'p50 ms', 'p99 ms', 'max ms', 'server CPU', 'clients CPU'],
    ];
    for (const r of results)
      rows.push(
        [
          r.label,
          r.clients,
          r.dropped,
          r.msgsPerSec,
          r.p50,
          r.p99,
          r.max,
          `${(r.serverCpu * 100).toFixed(0)}%`,
          `${(r.clientCpu * 100).toFixed(0)}%`,
        ].map(String),
      );
    for (const row of rows) console.log(row.map((c) => c.padEnd(18)).join(''));
    for (const r of results)
      console.log(
        `${r.label}: server CPU per message delivered ${r.usPerMessage.toFixed(2)} µs; clients connected in ${r.connectedIn.toFixed(0)} s; load average ${r.load.toFixed(1)} when measuring began`,
      );
  } else compare(results);
}

/** The table of a run with the bare server: every server measured, in order, and app p99 / bare p99. */
function compare(results: Awaited<ReturnType<typeof run>>[]) {
  const rows = [
    [
      'server',
      'rate',
      'clients',
      'dropped',
      'msgs/s',
      'p50 ms',
      'p99 ms',
      'max ms',
      'server CPU',
      'µs/msg',
      'clients CPU',
      'connected',
      'load',
    ],
  ];
  for (const r of results)
    rows.push(
      [
        r.kind,
        r.label,
        r.clients,
        r.dropped,
        r.msgsPerSec,
        r.p50,
        r.p99,
        r.max,
        `${(r.serverCpu * 100).toFixed(0)}%`,
        r.usPerMessage.toFixed(2),
        `${(r.clientCpu * 100).toFixed(0)}%`,
        `${r.connectedIn.toFixed(0)} s`,
        r.load.toFixed(1),
      ].map(String),
    );
  const widths = rows[0]?.map((_, c) => Math.max(...rows.map((row) => (row[c] ?? '').length)) + 2) ?? [];
  for (const row of rows) console.log(row.map((cell, c) => cell.padEnd(widths[c] ?? 0)).join(''));
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2
      ? (sorted[mid] ?? Number.NaN)
      : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
  };
  for (const [n, r] of results.entries())
    if (r.beats.length > 0)
      console.log(
        `run ${n + 1} (bare): ${r.beats.length} beats, each from its ts to the last socket's write: median ${r.beats[Math.floor(r.beats.length / 2)]} ms, max ${r.beats[r.beats.length - 1]} ms`,
      );
  for (const label of new Set(results.map((r) => r.label))) {
    const app = results.filter((r) => r.label === label && r.kind === 'app');
    const bare = results.filter((r) => r.label === label && r.kind === 'bare');
    if (app.length === 0 || bare.length === 0) continue;
    // round n: the n-th app run against the n-th bare run
    const rounds = Array.from({ length: Math.min(app.length, bare.length) }, (_, n) =>
      ((app[n]?.p99 ?? Number.NaN) / (bare[n]?.p99 ?? Number.NaN)).toFixed(2),
    );
    const ratio = median(app.map((r) => r.p99)) / median(bare.map((r) => r.p99));
    console.log(
      `${label}: app p99 / bare p99 by round ${rounds.join(', ')}; medians ${median(app.map((r) => r.p99))} / ${median(bare.map((r) => r.p99))} ms = ${ratio.toFixed(2)}`,
    );
  }
}
