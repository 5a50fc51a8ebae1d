/**
 * `npm run bench:capacity`: the capacity table of docs/SCALING.md, from the measured per-unit costs below
 * (each with its bench, date and load) or, where a bench has written its JSON since, from that
 * (bench/results/envelope.json from `DATABASE_URL=… npm run bench:envelope`). No load is generated: this is
 * arithmetic, so it needs no lock. HEADROOM (default 0.7) is the share of a pool's cores a plan may use.
 */
import { existsSync, readFileSync } from 'node:fs';
import { STEPS, TARGET, costsFromEnvelope, evaluate, work, type Costs } from './capacity-model.js';

/** Figures from bench/README.md; the dates are the runs'. */
export const MEASURED: Costs = {
  orderAppCoreMs: 0.66,
  orderDbCoreMs: 1.2,
  readAppCoreMs: 1.44,
  readDbCoreMs: 0.3,
  messageAppCoreUs: 3.7,
  ordersPerWriteNode: 8_000,
  sources: {
    orderAppCoreMs:
      'bench:orders 2026-11-25 (seams table): the server used 32-34% of a core at 500 orders/s → 0.66 ms an order',
    orderDbCoreMs:
      'bench:orders 2026-11-24 (ledger head runs): machine CPU 42-58% of 2 cores at 500 orders/s, less the server (0.33 core) and the load generator (~0.15 core, estimated) → ~0.55 core for PostgreSQL, 1.1 ms an order, rounded up',
    readAppCoreMs:
      'bench:envelope 2026-11-22: getUserInfo on PostgreSQL 694 req/s with the server flat out → 1.44 ms a read (PostgreSQL on the same 2 cores)',
    readDbCoreMs: 'assumed (not measured): two indexed statements of one row each, 0.3 ms of PostgreSQL CPU',
    messageAppCoreUs:
      "bench:ws 2026-11-26 (frames built once, one write per socket per beat): the server process's own CPU from /proc, 3.66 µs a message at 10,000 clients with the profiler on (2.47-2.60 µs without) and 3.84 µs at 2,000 (normal rate; clients in worker processes) → 3.7 µs a message, the higher figure kept",
    ordersPerWriteNode:
      'assumed (not measured): at saturation an order took about 4 pgbench -N transactions of the database (0.24× pgbench, issue 21); a large NVMe primary at ~35,000 pgbench -N tps would commit ~8,000 orders/s',
  },
};

const results = new URL('./results/envelope.json', import.meta.url).pathname;
const envelope = existsSync(results)
  ? (JSON.parse(readFileSync(results, 'utf8')) as Parameters<typeof costsFromEnvelope>[1])
  : undefined;
const costs = costsFromEnvelope(MEASURED, envelope);
const headroom = Number(process.env['HEADROOM'] ?? 0.7);

const n = (x: number) => Math.round(x).toLocaleString('en-US');
const w = work(costs, TARGET);
console.log('Costs:');
for (const [key, source] of Object.entries(costs.sources))
  console.log(`  ${key} = ${costs[key as keyof Omit<Costs, 'sources'>].toFixed(2)}: ${source}`);
console.log(
  `\nTarget: ${n(TARGET.accounts)} accounts, ${n(TARGET.online)} online at the open, ${n(TARGET.ordersPerSecond)} orders/s, ` +
    `${String(TARGET.symbolsPerClient)} symbols a client at ${String(TARGET.updatesPerSymbolPerSecond)} update/s, ` +
    `a read every ${String(1 / TARGET.readsPerClientPerSecond)} s a client`,
);
console.log(
  `Busy cores at the target: orders ${w.orderApp.toFixed(1)} app + ${w.orderDb.toFixed(1)} database; reads (${n(w.readsPerSecond)}/s) ` +
    `${w.readApp.toFixed(1)} app + ${w.readDb.toFixed(1)} database; quotes (${n(w.messagesPerSecond)} messages/s) ${w.fanout.toFixed(1)}`,
);
console.log(`Headroom: a pool is full at ${String(Math.round(headroom * 100))}% of its cores\n`);

const header = [
  'step',
  'pool use at the target (busy / cores)',
  'saturates first',
  'at % of target',
  'carries accounts / online / orders/s',
  'orders/s alone',
  'clients alone',
];
const rows = STEPS.map((step) => {
  const r = evaluate(costs, TARGET, step, headroom);
  return [
    step.name,
    r.pools
      .map((p) => `${p.pool} ${p.busyAtTarget.toFixed(p.pool === 'commit rate' ? 1 : 0)}/${String(p.cores)}`)
      .join(', '),
    r.first.saturatesAt >= 1 ? '— (target met)' : r.first.pool,
    r.first.saturatesAt >= 1
      ? '≥ 100%'
      : `${(r.first.saturatesAt * 100).toFixed(r.first.saturatesAt < 0.1 ? 2 : 0)}%`,
    `${n(r.carries.accounts)} / ${n(r.carries.online)} / ${n(r.carries.ordersPerSecond)}`,
    n(r.ordersAlone),
    n(r.clientsAlone),
  ];
});
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
console.log(line(header));
console.log(line(widths.map((wd) => '-'.repeat(wd))));
for (const r of rows) console.log(line(r));
