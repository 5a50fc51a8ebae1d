/**
 * Benchmark: WebSocket fan-out. One server process (the real app, simulator in always-open mode) and
 * CLIENTS WebSocket clients (default 2,000), each subscribed to SYMBOLS random stocks (default 20) of the
 * Nikkei 225. Latency is from the server stamping a tick (`ts`, when it publishes it) to the client
 * receiving it, at the simulator's normal rate (a beat a second) and at ten times that rate.
 *   npm run bench:ws     (CLIENTS=2000 SYMBOLS=20 DURATION=20 to change)
 * Clients run in this process, the server in a child process; both share the machine's cores.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';

const CLIENTS = Number(process.env['CLIENTS'] ?? 2000);
const SYMBOLS = Number(process.env['SYMBOLS'] ?? 20);
const SECONDS = Number(process.env['DURATION'] ?? 20);
const mainTs = new URL('../apps/server/src/main.ts', import.meta.url).pathname;

interface Health {
  data: { realtime: { clients: number; dropped: number; producing: boolean } };
}

async function startServer(tickMs: number, port: number) {
  const child = spawn(process.execPath, ['--conditions=@kabuto/source', '--import', 'tsx', mainTs], {
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
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
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

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function run(label: string, tickMs: number, port: number) {
  const server = await startServer(tickMs, port);
  const universe = await codes(port);
  const latencies: number[] = [];
  let measuring = false;
  let received = 0;
  const sockets: WebSocket[] = [];
  let seed = 7;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  // Connect in batches so that the accept queue does not overflow.
  for (let batch = 0; batch < CLIENTS; batch += 100) {
    await Promise.all(
      Array.from({ length: Math.min(100, CLIENTS - batch) }, () => {
        const ws = new WebSocket(`ws://127.0.0.1:${port}/api/ws`);
        sockets.push(ws);
        ws.on('message', (data: Buffer) => {
          if (!measuring) return;
          const text = data.toString('utf8');
          const at = text.indexOf('"ts":');
          if (at < 0) return;
          received += 1;
          latencies.push(Date.now() - Number(text.slice(at + 5, text.indexOf('}', at)).split(',')[0]));
        });
        return new Promise<void>((resolve, reject) => {
          ws.once('open', () => {
            const mine = new Set<string>();
            while (mine.size < SYMBOLS) mine.add(universe[Math.floor(random() * universe.length)] ?? '7203');
            ws.send(JSON.stringify({ op: 'subscribe', symbols: [...mine] }));
            resolve();
          });
          ws.once('error', reject);
        });
      }),
    );
  }
  await new Promise((r) => setTimeout(r, 2000));
  measuring = true;
  const started = Date.now();
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  measuring = false;
  const elapsed = (Date.now() - started) / 1000;
  const health = ((await (await fetch(`http://127.0.0.1:${port}/api/health`)).json()) as Health).data
    .realtime;
  for (const ws of sockets) ws.terminate();
  server.kill('SIGTERM');
  const sorted = Float64Array.from(latencies).sort();
  return {
    label,
    clients: health.clients,
    dropped: health.dropped,
    msgsPerSec: Math.round(received / elapsed),
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1] ?? Number.NaN,
  };
}

const results = [await run('normal (1 beat/s)', 1000, 18301), await run('10x (10 beats/s)', 100, 18302)];
console.log(`\n${CLIENTS} clients x ${SYMBOLS} symbols, ${SECONDS} s measured each, one run:\n`);
const rows = [['rate', 'clients', 'dropped', 'msgs/s', 'p50 ms', 'p99 ms', 'max ms']];
for (const r of results)
  rows.push([r.label, r.clients, r.dropped, r.msgsPerSec, r.p50, r.p99, r.max].map(String));
for (const row of rows) console.log(row.map((c) => c.padEnd(18)).join(''));
