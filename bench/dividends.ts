/**
 * Benchmark: issue 17's daily jobs for HOLDERS holders (default 100,000; goal ≤ 10 s each on PostgreSQL).
 * The real services on a scratch PostgreSQL database (TEST_DATABASE_URL, default the local server; PGlite with
 * `DATABASE=pglite`, or when the server cannot be reached: the output says which), with a fixed clock and a
 * test market. Seeds HOLDERS users with their ledger accounts and heads, each funded and with a pending
 * ¥10,000 application to a product (cash → reserved, through postEntries like the app's entries) and 100
 * Toyota (7203) shares held before the cum date of a ¥37.50 dividend; then times
 *   - the NAV job at Tuesday's close: the strike and the settlement of every pending application
 *     (units, refund, fund_buy entries, messages), 1,000 records to a transaction;
 *   - the dividend job on the payment date: every holder's dividend, withheld, in one runOnce transaction
 *     (1,000 holders a batch);
 * and checks that every record settled, every holder was paid once, and every ledger head matches its postings.
 * Besides each job's wall time it prints the CPU time it took, which a busy machine does not inflate: the
 * bench's own process (Node) and the PostgreSQL backends of its database (/proc), and the load average.
 *   npm run bench:dividends      (HOLDERS=10000 DATABASE=pglite to change)
 */
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { negSen, sen } from '@kabuto/contract';
import { count, countDistinct, eq, like, sql } from 'drizzle-orm';
import { dividendPayments, productRecords, users } from '../apps/server/src/db/schema.js';
import { run, statement } from '../apps/server/src/db/statement.js';
import { createTestApp } from '../apps/server/src/test/harness.js';
import { TestMarket } from '../apps/server/src/test/test-market.js';
import { announceDividend, runDividendJob } from '../apps/server/src/modules/dividends/dividends.js';
import { runNavJob } from '../apps/server/src/modules/products/nav-job.js';
import { publishProduct } from '../apps/server/src/modules/products/products.js';
import {
  ledgerHeadMismatches,
  lockUsers,
  postEntries,
  type EntryDraft,
} from '../apps/server/src/modules/ledger/ledger.js';

const HOLDERS = Number(process.env['HOLDERS'] ?? 100_000);
const APPLIED = 1_000_000; // ¥10,000 in sen
const FUNDED = 10_000_000; // ¥100,000 in sen
const SEED_BATCH = 5_000;

let pglite = process.env['DATABASE'] === 'pglite';
const serverUrl = process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
if (!pglite) {
  const probe = new pg.Client({ connectionString: serverUrl });
  try {
    await probe.connect();
    await probe.end();
  } catch (error) {
    console.log(`PostgreSQL at ${serverUrl} cannot be reached (${String(error)}): falling back to PGlite`);
    pglite = true;
  }
}
if (pglite) delete process.env['TEST_DATABASE_URL'];
else process.env['TEST_DATABASE_URL'] = serverUrl;

// PROFILE=1 (PostgreSQL): each job's time per statement (named statements by name, others by their first
// words), as the client waits for them (from sent to answered: statements a batch sends one behind the other
// overlap, so their times add up to more than the wait); the rest of a job's time is Node's. EXPLAIN=<statement name>[,...]
// also prints `EXPLAIN (ANALYZE, BUFFERS)` of each one's third call in the seed and in each job (executing
// it in its place, so only for statements whose rows nothing reads: ledger_post_entries, the updates).
const PROFILE = process.env['PROFILE'] === '1' || process.env['EXPLAIN'] !== undefined;
const EXPLAIN = new Set((process.env['EXPLAIN'] ?? '').split(',').filter(Boolean));
/** Calls of each statement since the last profileReport (the third of an EXPLAIN statement is explained). */
const calls = new Map<string, number>();
const spent = new Map<string, { calls: number; ms: number }>();
if (PROFILE && !pglite) {
  type Query = (this: pg.Client, ...args: unknown[]) => unknown;
  const proto = pg.Client.prototype as unknown as { query: Query };
  const original = proto.query;
  proto.query = function (this: pg.Client, ...args: unknown[]) {
    const [config, values] = args;
    const named =
      typeof config === 'object' && config !== null ? (config as { name?: string; text: string }) : undefined;
    const text = named?.text ?? (typeof config === 'string' ? config : '');
    const key = named?.name ?? text.replace(/\s+/g, ' ').slice(0, 60);
    const started = performance.now();
    const note = () => {
      const s = spent.get(key) ?? { calls: 0, ms: 0 };
      s.calls += 1;
      s.ms += performance.now() - started;
      spent.set(key, s);
    };
    const nth = (calls.get(key) ?? 0) + 1;
    calls.set(key, nth);
    if (named?.name !== undefined && EXPLAIN.has(named.name) && nth === 3) {
      const vals = (named as { values?: unknown[] }).values ?? (values as unknown[]);
      return (
        original.call(this, `explain (analyze, buffers) ${text}`, vals) as Promise<{
          rows: { 'QUERY PLAN': string }[];
        }>
      ).then((r) => {
        console.log(
          `EXPLAIN (ANALYZE, BUFFERS) ${key}:\n${r.rows.map((row) => row['QUERY PLAN']).join('\n')}`,
        );
        note();
        return { rows: [], rowCount: 0 };
      });
    }
    const result = original.apply(this, args);
    if (result instanceof Promise) void result.then(note, note);
    return result;
  };
}
/** The statements' times since the last call (PROFILE=1), largest first. */
function profileReport(): Record<string, string> {
  const out = Object.fromEntries(
    [...spent]
      .sort((a, b) => b[1].ms - a[1].ms)
      .filter(([, s]) => s.ms >= 1)
      .map(([k, s]) => [k, `${s.calls} calls, ${(s.ms / 1000).toFixed(2)} s`]),
  );
  spent.clear();
  calls.clear();
  return out;
}

/** A process's CPU time so far in ms (Linux /proc: utime + stime, in clock ticks of 10 ms); NaN if not local. */
function cpuMs(pid: number): number {
  if (!existsSync(`/proc/${String(pid)}/stat`)) return Number.NaN;
  const fields =
    readFileSync(`/proc/${String(pid)}/stat`, 'utf8')
      .split(') ')[1]
      ?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * CPU time, which a busy machine does not inflate (unlike the wall time): the bench's own process (Node) and
 * the PostgreSQL backends serving its database (read from /proc, so only for a server on this machine; the
 * server's background writers are not counted). `cpuMark` before a job, `cpuSince` after it.
 */
const admin = pglite ? undefined : new pg.Client({ connectionString: serverUrl });
await admin?.connect();
let benchDatabase = '';
async function backendCpu(): Promise<Map<number, number>> {
  if (!admin) return new Map();
  const { rows } = await admin.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [
    benchDatabase,
  ]);
  return new Map(rows.map((r) => [r.pid, cpuMs(r.pid)]));
}
interface CpuMark {
  node: NodeJS.CpuUsage;
  backends: Map<number, number>;
  load: number[];
}
async function cpuMark(): Promise<CpuMark> {
  return { node: process.cpuUsage(), backends: await backendCpu(), load: loadavg() };
}
async function cpuSince(mark: CpuMark): Promise<Record<string, string>> {
  const node = process.cpuUsage(mark.node);
  const now = await backendCpu();
  let backends = 0;
  for (const [pid, ms] of now) backends += ms - (mark.backends.get(pid) ?? 0);
  const fmt = (l: number[]) => l.map((x) => x.toFixed(2)).join(' / ');
  return {
    node_cpu: seconds((node.user + node.system) / 1000),
    ...(admin ? { postgres_backends_cpu: `${seconds(backends)} (${now.size} backends)` } : {}),
    load_average_before: fmt(mark.load),
    load_average_after: fmt(loadavg()),
  };
}

const tokyo = (date: string, hhmm: string) => new Date(`${date}T${hhmm}:00+09:00`).toISOString();
let market: TestMarket | undefined;
const t = await createTestApp({}, undefined, {
  produceTicks: false,
  market: (clock) => (market = new TestMarket(clock)),
});
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
try {
  if (!market) throw new Error('no market');
  const db = t.database.db;
  const [named] = await run(
    db,
    statement<Record<string, never>, { name: string }>(
      'bench_database',
      () => 'select current_database() as name',
    ),
    {},
  );
  benchDatabase = named?.name ?? '';
  market.set('7203', 3000);
  market.set('6758', 4000);
  t.clock.set(tokyo('2026-11-23', '12:00'));
  const productId = await publishProduct(
    db,
    market,
    null,
    {
      issuer: 'Kabuto Asset Management',
      name: 'Bench basket',
      strategy: 'Toyota and Sony, 60/40, rebalanced at every close.',
      risk_disclosure: 'The value moves with the market; you may lose money.',
      constituents: [
        { code: '7203', weight_bp: 6000 },
        { code: '6758', weight_bp: 4000 },
      ],
      fund_cap: sen(APPLIED * HOLDERS * 2),
      deadline: '2026-12-31',
      min_investment: sen(10_000),
      management_rate_ppm: 3650,
    },
    t.clock.now(),
  );
  t.clock.set(tokyo('2026-11-24', '10:00'));
  const now = t.clock.now();
  await announceDividend(
    db,
    null,
    { code: '7203', per_share: sen(3750), record_date: '2026-11-30', payment_date: '2026-12-15' },
    now,
  );

  // Seed: users, their ledger accounts and heads, positions and pending applications, in set statements;
  // their cash and reservations through postEntries, so that the heads and the chains are right.
  const seed0 = performance.now();
  await db.execute(sql`insert into users (phone, password_hash, invitation_code, invited_by_code, real_name_status)
    select 'bench' || g, 'x', 'BENCH' || g, 'BENCH', 'verified' from generate_series(1, ${HOLDERS}::int) g`);
  const ids = (
    await db.select({ id: users.id }).from(users).where(like(users.phone, 'bench%')).orderBy(users.id)
  ).map((r) => r.id);
  await db.execute(sql`insert into ledger_accounts (user_id, kind)
    select u.id, k from users u cross join unnest(array['cash', 'reserved', 'margin', 'withdrawing']) k
    where u.phone like 'bench%'`);
  await db.execute(sql`insert into ledger_heads (user_id) select id from users where phone like 'bench%'`);
  await db.execute(sql`insert into positions (user_id, code, direction, leverage, status, quantity, avg_price,
      book_value, opened_at)
    select id, '7203', 'long', 1, 'holding', 100, 300000, 30000000, ${now.toISOString()}::timestamptz
    from users where phone like 'bench%'`);
  await db.execute(sql`insert into product_records (user_id, product_id, status, amount, buy_at, buy_nav_date)
    select id, ${productId}::int, 'pending', ${APPLIED}::bigint, ${now.toISOString()}::timestamptz, '2026-11-24'
    from users where phone like 'bench%'`);
  for (let start = 0; start < ids.length; start += SEED_BATCH) {
    const batch = ids.slice(start, start + SEED_BATCH);
    await db.transaction(async (tx) => {
      await lockUsers(tx, batch);
      const drafts: EntryDraft[] = batch.flatMap((user): EntryDraft[] => [
        {
          kind: 'demo_funding',
          memo: 'Bench funding',
          params: { amount: FUNDED },
          at: now,
          lines: [
            { user, account: 'cash', amount: sen(FUNDED) },
            { house: 'demo_funding', amount: negSen(sen(FUNDED)) },
          ],
        },
        {
          kind: 'fund_apply',
          memo: 'Bench application',
          params: { product: 'Bench basket', amount: APPLIED },
          at: now,
          lines: [
            { user, account: 'cash', amount: negSen(sen(APPLIED)) },
            { user, account: 'reserved', amount: sen(APPLIED) },
          ],
        },
      ]);
      await postEntries(tx, drafts);
    });
  }
  // what autovacuum does to a database this size: the planner's statistics (without them it may pick
  // nested loops over sequential scans for the batches' joins)
  await db.execute(sql`analyze`);
  const seedMs = performance.now() - seed0;
  profileReport();

  // The NAV job at Tuesday's close: the strike, then every pending application settled.
  market.set('7203', 3300);
  market.set('6758', 3800);
  t.clock.set(tokyo('2026-11-24', '15:31'));
  const navCpu = await cpuMark();
  const nav0 = performance.now();
  const navEvents = await runNavJob(db, market, t.clock.now());
  const navMs = performance.now() - nav0;
  const navCpuUsed = await cpuSince(navCpu);
  const navProfile = profileReport();
  const [following] = await db
    .select({ n: count() })
    .from(productRecords)
    .where(eq(productRecords.status, 'following'));

  // The dividend job on the payment date.
  t.clock.set(tokyo('2026-12-15', '09:00'));
  const divCpu = await cpuMark();
  const div0 = performance.now();
  const divEvents = await runDividendJob(db, t.clock.now());
  const divMs = performance.now() - div0;
  const divCpuUsed = await cpuSince(divCpu);
  const divProfile = profileReport();
  const [paid] = await db
    .select({ n: count(), users: countDistinct(dividendPayments.userId) })
    .from(dividendPayments);

  const check0 = performance.now();
  const mismatches = await ledgerHeadMismatches(db);
  const checkMs = performance.now() - check0;

  console.log(
    JSON.stringify(
      {
        database: pglite ? 'PGlite (embedded)' : `PostgreSQL (${serverUrl})`,
        holders: HOLDERS,
        seed: seconds(seedMs),
        nav_job: seconds(navMs),
        nav_settled: following?.n ?? 0,
        nav_messages: navEvents.length,
        nav_cpu: navCpuUsed,
        dividend_job: seconds(divMs),
        dividend_payments: paid?.n ?? 0,
        dividend_holders: paid?.users ?? 0,
        dividend_messages: divEvents.length,
        dividend_cpu: divCpuUsed,
        ledger_heads_check: mismatches.length === 0 ? `ok (${seconds(checkMs)})` : mismatches.slice(0, 3),
        ...(PROFILE ? { nav_statements: navProfile, dividend_statements: divProfile } : {}),
      },
      null,
      2,
    ),
  );
  if (mismatches.length > 0 || paid?.n !== HOLDERS || following?.n !== HOLDERS) process.exitCode = 1;
} finally {
  await t.close();
  await admin?.end();
}
