/**
 * Benchmark: the server's own CPU per order, without the network. The real app in this process (the
 * test harness's app: fixed clock in the morning session, a test market that quotes 7203 at ¥3,100) on a
 * scratch PostgreSQL database (TEST_DATABASE_URL, default the local server) or on PGlite
 * (`DATABASE=pglite`); USERS verified users (default 20); ORDERS market buys of 100 shares (default 2,000,
 * after 300 to warm up) sent through `app.inject` with CONCURRENCY in flight (default 10), each with its
 * own Idempotency-Key. Prints the process's CPU time per order (user + system, `process.cpuUsage()`) and
 * the wall time per order, and with PROFILE=1 the self time of the measured part by package (node:inspector's
 * sampling profiler). The load is this process alone, so the figure moves far less with the machine's load
 * than a latency does; PostgreSQL's own CPU is not in it.
 *   npm run bench:order-cpu      (USERS=20 ORDERS=2000 CONCURRENCY=10 DATABASE=pglite PROFILE=1 to change)
 */
import { randomUUID } from 'node:crypto';
import { Session } from 'node:inspector/promises';
import { performance } from 'node:perf_hooks';
import { createTestApp, registerAndLogin } from '../apps/server/src/test/harness.js';
import { TestMarket } from '../apps/server/src/test/test-market.js';

const USERS = Number(process.env['USERS'] ?? 20);
const ORDERS = Number(process.env['ORDERS'] ?? 2000);
const WARMUP = 300;
const CONCURRENCY = Number(process.env['CONCURRENCY'] ?? 10);
const PROFILE = process.env['PROFILE'] === '1';
const pglite = process.env['DATABASE'] === 'pglite';
if (pglite) delete process.env['TEST_DATABASE_URL'];
else process.env['TEST_DATABASE_URL'] ??= 'postgres://postgres@127.0.0.1:5432/test';

const t = await createTestApp({ DEMO_MODE: 'true', DEMO_CASH_YEN: '1000000000' }, undefined, {
  market: (clock) => {
    const m = new TestMarket(clock);
    m.set('7203', 3100);
    return m;
  },
});
try {
  const users: { token: string; userId: number }[] = [];
  for (let i = 0; i < USERS; i++) users.push(await registerAndLogin(t));

  const run = async (count: number) => {
    let next = 0;
    const worker = async () => {
      while (next < count) {
        const user = users[next % users.length];
        next += 1;
        if (!user) continue;
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/trade/placeOrder',
          payload: { code: '7203', direction: 'long', price_type: 'market', quantity: 100, leverage: 1 },
          headers: { token: user.token, 'idempotency-key': randomUUID() },
        });
        if (res.statusCode !== 200) throw new Error(`order answered ${res.statusCode}: ${res.body}`);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  };

  await run(WARMUP);
  const session = PROFILE ? new Session() : null;
  if (session) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 200 });
    await session.post('Profiler.start');
  }
  const cpu0 = process.cpuUsage();
  const wall0 = performance.now();
  await run(ORDERS);
  const wall = performance.now() - wall0;
  const cpu = process.cpuUsage(cpu0);
  const perOrder = (micros: number) => (micros / 1000 / ORDERS).toFixed(3);
  console.log(
    `\n${pglite ? 'PGlite' : 'PostgreSQL'}: ${ORDERS} market buys, ${USERS} users, ${CONCURRENCY} in flight, through app.inject`,
  );
  console.log(
    `  CPU per order: ${perOrder(cpu.user + cpu.system)} ms (user ${perOrder(cpu.user)}, system ${perOrder(cpu.system)})`,
  );
  console.log(
    `  wall per order: ${(wall / ORDERS).toFixed(3)} ms (${Math.round((ORDERS / wall) * 1000)} orders/s)`,
  );
  if (session) {
    const { profile } = (await session.post('Profiler.stop')) as { profile: CpuProfile };
    session.disconnect();
    printByPackage(profile);
  }
} finally {
  await t.close();
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string } }[];
  samples: number[];
  timeDeltas: number[];
}

/** Self time of the samples, grouped by npm package (or node internals, or our own code). */
function printByPackage(profile: CpuProfile): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const groups = new Map<string, number>();
  const functions = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id);
    const dt = profile.timeDeltas[i] ?? 0;
    total += dt;
    const url = frame?.url ?? '';
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
    const group =
      frame?.functionName.startsWith('(') === true
        ? frame.functionName
        : pkg !== undefined
          ? pkg
          : url.startsWith('node:')
            ? 'node internals'
            : url === ''
              ? 'native'
              : 'kabuto';
    groups.set(group, (groups.get(group) ?? 0) + dt);
    const name = `${frame?.functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}`;
    functions.set(name, (functions.get(name) ?? 0) + dt);
  });
  const top = (m: Map<string, number>, k: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, k)
      .map(([name, us]) => `  ${((us / total) * 100).toFixed(1).padStart(5)}%  ${name}`);
  console.log('\nSelf time by package:');
  console.log(top(groups, 14).join('\n'));
  console.log('\nSelf time by function:');
  console.log(top(functions, 20).join('\n'));
}
