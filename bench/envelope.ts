/**
 * Benchmark: the envelope route GET /api/index/getUserInfo (Fastify + zod + session lookup + ledger
 * balances on PGlite) against a bare node:http server answering the same JSON, in one run.
 *   npm run bench:envelope   (DURATION=5 CONNECTIONS=50 to change the load)
 * Each server runs in its own process; autocannon drives it from this one.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';

const duration = Number(process.env['DURATION'] ?? 5);
const connections = Number(process.env['CONNECTIONS'] ?? 50);

function start(
  args: string[],
): Promise<{ child: ChildProcess; info: { port: number; token?: string; sample?: string } }> {
  const child = spawn(
    process.execPath,
    [
      '--conditions=@kabuto/source',
      '--import',
      'tsx',
      new URL('./envelope-server.ts', import.meta.url).pathname,
      ...args,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', (line) => {
      resolve({ child, info: JSON.parse(line) as { port: number; token?: string; sample?: string } });
    });
    child.once('exit', (code) => {
      reject(new Error(`server exited with ${String(code)}`));
    });
  });
}

async function load(url: string, headers: Record<string, string>) {
  // Warm up, then measure.
  await autocannon({ url, headers, connections, duration: 1 });
  const r = await autocannon({ url, headers, connections, duration });
  return {
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
  };
}

const fastify = await start(['fastify']);
const token = fastify.info.token ?? '';
const real = await load(`http://127.0.0.1:${fastify.info.port}/api/index/getUserInfo?lang=en`, { token });
fastify.child.kill();

const bare = await start(['bare', fastify.info.sample ?? '{}']);
const baseline = await load(`http://127.0.0.1:${bare.info.port}/api/index/getUserInfo`, {});
bare.child.kill();

const rows = [
  ['server', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'errors'],
  ['bare node:http', baseline.rps, baseline.p50, baseline.p99, baseline.non2xx, baseline.errors],
  ['Kabuto getUserInfo', real.rps, real.p50, real.p99, real.non2xx, real.errors],
];
console.log(`\n${connections} connections, ${duration} s each, same run:\n`);
for (const row of rows) console.log(row.map((c) => String(c).padEnd(20)).join(''));
console.log(`\nratio Kabuto / bare: ${(real.rps / baseline.rps).toFixed(2)}×`);
