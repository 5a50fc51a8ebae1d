/**
 * Crash test of order placement: against a scratch PostgreSQL database, start the server, create a few
 * users, fire orders (market and limit buys, closes of positions, cancels; each with its own
 * Idempotency-Key) at a steady rate, and SIGKILL the server at a random (seeded) moment; ROUNDS times in a
 * row (default 20), restarting it each time on the same database. Then restart once more and check:
 *   - every acknowledged order exists exactly once (API and database) and is the one its key stored;
 *   - every request in flight at a kill, re-sent with the same key and body, returns the order it had
 *     committed, or (if it had not) is carried out once; a second re-send replays the same answer;
 *   - no two keys share an order, and every order belongs to exactly one order-creating key;
 *   - the ledger: every journal entry sums to zero and has postings, no cash account is negative, each
 *     user's reserved balance equals the `reserved` of their pending orders, and each user's hash chain
 *     verifies (seq 1..n, hashes recomputed with the server's own chainHash).
 * Prints a summary; exits 1 on any violation. The kill moments are fixed by SEED.
 *
 * FAULT=postgres (`npm run crash:postgres`, issue 22): the server is not killed; the database is. A private
 * PostgreSQL cluster (initdb from the distribution's binaries, run as the postgres user, on PG_PORT) takes the
 * place of PG_ADMIN_URL; each round runs the load, then either restarts it (odd rounds: a fast shutdown and
 * an immediate start) or stops it (even rounds: an immediate shutdown, OUTAGE_MS of load against no
 * database, then a start), and measures how long after the database accepts connections again the first
 * order is acknowledged (must be within 5 s). Every answer ≥ 500 other than 503 is a violation; a request
 * answered 503 is treated like one in flight at a kill (re-sent with its key at the end, exactly once).
 *   npm run crash:postgres (FAULT=postgres ROUNDS=6 OUTAGE_MS=3000 PG_PORT=15433)
 *   npm run crash:orders   (ROUNDS=20 SEED=42 RATE=60 USERS=8 PG_ADMIN_URL=postgres://postgres@127.0.0.1:5432/test
 *                           KEEP_DB=1 keeps the scratch database)
 * Runs with tsx (`node --conditions=@kabuto/source --import tsx`) to import the ledger's chainHash.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { pngBytes } from '../apps/server/src/lib/images.ts';
import { GENESIS_HASH, chainHash, headCheckSql } from '../apps/server/src/modules/ledger/ledger.ts';
import { applicationPayload } from '../apps/server/src/test/harness.ts';

const ROUNDS = Number(process.env.ROUNDS ?? 20);
const SEED = Number(process.env.SEED ?? 42);
const RATE = Number(process.env.RATE ?? 60);
const USERS = Number(process.env.USERS ?? 8);
const FAULT = process.env.FAULT ?? 'server';
if (FAULT !== 'server' && FAULT !== 'postgres') throw new Error('FAULT must be server or postgres');
const OUTAGE_MS = Number(process.env.OUTAGE_MS ?? 3000);
const PG_PORT = Number(process.env.PG_PORT ?? 15433);
/** A database answers within this long of accepting connections again, or the round is a violation. */
const RECOVERY_LIMIT_MS = 5000;
const pgCluster = FAULT === 'postgres' ? await startCluster() : undefined;
const PG_ADMIN_URL =
  FAULT === 'postgres'
    ? `postgres://postgres@127.0.0.1:${PG_PORT}/postgres`
    : (process.env.PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
const PORT = Number(process.env.PORT ?? 18331);
/** The whole run stops (and fails) after this long, whatever happens. */
const DEADLINE_MS = Number(process.env.DEADLINE_SECONDS ?? 420) * 1000;
const mainTs = new URL('../apps/server/src/main.ts', import.meta.url).pathname;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** The scratch server's bootstrap administrator, who approves the users' real-name verifications. */
const ADMIN_INITIAL_PASSWORD = 'crash-admin-once-2026';
const ADMIN_PASSWORD = 'crash-admin-changed-2026';
const began = Date.now();

const watchdog = setTimeout(() => {
  console.error(`crash-orders: still running after ${DEADLINE_MS / 1000} s; giving up`);
  if (server && server.exitCode === null) server.kill('SIGKILL');
  process.exit(3);
}, DEADLINE_MS);
watchdog.unref();

// Small seeded generators (mulberry32). The kill moments come from their own stream, so the same SEED gives
// the same kill moments; the operations depend on what was acknowledged, hence on timing, too.
function generator(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = generator(SEED);
const killRandom = generator(SEED ^ 0x5eed);
const pick = (list) => list[Math.floor(random() * list.length)];

// ------------------------------------------------------------------------------- a private PostgreSQL cluster

/** The distribution's PostgreSQL binaries (Debian: /usr/lib/postgresql/<major>/bin), newest first. */
function pgBin(name) {
  const root = '/usr/lib/postgresql';
  const majors = readdirSync(root)
    .filter((d) => /^\d+$/.test(d))
    .sort((a, b) => Number(b) - Number(a));
  if (majors.length === 0) throw new Error(`no PostgreSQL binaries under ${root}`);
  return join(root, majors[0], 'bin', name);
}

/** Runs a PostgreSQL binary as the postgres user (initdb and the server refuse to run as root). */
function asPostgres(name, args) {
  const [command, argv] =
    process.getuid?.() === 0
      ? ['runuser', ['-u', 'postgres', '--', pgBin(name), ...args]]
      : [pgBin(name), args];
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code === 0) resolve(output);
      else reject(new Error(`${name} ${args.join(' ')}: ${output}`));
    });
  });
}

/** initdb in a temporary folder and start it on PG_PORT (trust, 127.0.0.1 only, its socket in the folder). */
async function startCluster() {
  const dir = mkdtempSync(join(tmpdir(), 'kabuto-pg-'));
  chmodSync(dir, 0o777);
  const data = join(dir, 'data');
  await asPostgres('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const cluster = { dir, data };
  await pgStart(cluster);
  return cluster;
}

/** Starts the cluster and waits until it accepts connections; answers when that was. */
async function pgStart(cluster) {
  await asPostgres('pg_ctl', [
    '-D',
    cluster.data,
    '-l',
    join(cluster.dir, 'log'),
    '-o',
    `-p ${PG_PORT} -k ${cluster.dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
    '-w',
    '-t',
    '60',
    'start',
  ]);
  return Date.now();
}

/** Stops it: `fast` (a clean restart) or `immediate` (as a crash: no checkpoint, connections cut). */
async function pgStop(cluster, mode) {
  await asPostgres('pg_ctl', ['-D', cluster.data, '-m', mode, '-w', 'stop']);
}

// ------------------------------------------------------------------------------------------------ database

const dbName = `kabuto_crash_${process.pid}_${Date.now().toString(36)}`;
const dbUrl = (() => {
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${dbName}`;
  return url.toString();
})();

async function admin(sql) {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

// -------------------------------------------------------------------------------------------------- server

const dataDir = mkdtempSync(join(tmpdir(), 'kabuto-crash-'));
/** @type {import('node:child_process').ChildProcess | undefined} */
let server;
let agent = new Agent({ keepAlive: true, maxSockets: 64 });

async function startServer() {
  agent.destroy();
  agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const started = Date.now();
  server = spawn(process.execPath, ['--conditions=@kabuto/source', '--import', 'tsx', mainTs], {
    env: {
      ...process.env,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: dbUrl,
      REDIS_URL: '',
      MARKET_CLOCK: 'always-open',
      DEMO_MODE: 'true',
      DEMO_CASH_YEN: '100000000',
      CONSOLE_ADMIN_PASSWORD: ADMIN_INITIAL_PASSWORD,
      AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
      MATCH_INTERVAL_MS: '200',
      LOG_LEVEL: 'error',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 300; i++) {
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`);
    try {
      const res = await call('GET', '/health');
      if (res.status === 200) return Date.now() - started;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error('server did not start');
}

async function killServer(signal) {
  if (!server || server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((r) => server?.once('exit', r));
  server.kill(signal);
  await Promise.race([exited, sleep(15_000)]);
  if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
}

/**
 * One HTTP call to the API. Resolves with the status and parsed body; rejects when the connection fails
 * (which, during a round, means the server was killed with the request in flight).
 * @returns {Promise<{ status: number, body: any }>}
 */
function call(method, path, body, headers = {}) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: PORT,
        path: `/api${path}`,
        method,
        agent,
        headers: payload
          ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), ...headers }
          : headers,
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          try {
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) });
          } catch {
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: { code: -1, msg: text } });
          }
        });
      },
    );
    req.setTimeout(20_000, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(payload);
  });
}

async function must(method, path, body, headers) {
  const res = await call(method, path, body, headers);
  if (res.status !== 200)
    throw new Error(`${method} ${path}: HTTP ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

function smsCode(phone) {
  const lines = readFileSync(join(dataDir, 'dev-sms-outbox.jsonl'), 'utf8').trim().split('\n');
  for (const line of lines.reverse()) {
    const message = JSON.parse(line);
    if (message.phone === phone) return message.code;
  }
  throw new Error(`no SMS code for ${phone}`);
}

async function createUser(index) {
  const phone = `070${String(20_000_000 + index).slice(-8)}`;
  const password = 'crash1234';
  await must('POST', '/auth/sendSmsCode', { phone });
  await must('POST', '/auth/register', {
    phone,
    password,
    password_confirm: password,
    invite_code: 'KABUTO2026',
    sms_code: smsCode(phone),
  });
  const { token } = await must('POST', '/auth/login', { account: phone, password, agree: true });
  const me = await must('GET', '/index/getUserInfo', undefined, { token });
  await fileIdentity(token);
  return { index, token, id: Number(me.user_id), positions: [], pending: [] };
}

/** Opening positions needs a passed real-name verification: the user files one (two ID photos). */
async function fileIdentity(token) {
  const upload = async (purpose) => {
    const form = new FormData();
    form.append('purpose', purpose);
    form.append('file', new Blob([new Uint8Array(pngBytes(8, 6))], { type: 'image/png' }), `${purpose}.png`);
    const res = await fetch(`http://127.0.0.1:${PORT}/api/uploads`, {
      method: 'POST',
      headers: { token },
      body: form,
    });
    const json = await res.json();
    if (json.code !== 1) throw new Error(`upload: ${JSON.stringify(json)}`);
    return json.data.id;
  };
  await must(
    'POST',
    '/identity',
    // the account application as the server's own tests file it (the form's wire shape)
    applicationPayload(await upload('identity_front'), await upload('identity_back'), '山田 太郎'),
    { token },
  );
}

/** The bootstrap administrator (one-time password changed) approves every pending verification. */
async function approveIdentities() {
  const login = (password) => must('POST', '/console/login', { username: 'admin', password });
  const first = await login(ADMIN_INITIAL_PASSWORD);
  await must(
    'POST',
    '/console/password',
    { old_password: ADMIN_INITIAL_PASSWORD, new_password: ADMIN_PASSWORD },
    { authorization: `Bearer ${first.token}` },
  );
  const authorization = `Bearer ${(await login(ADMIN_PASSWORD)).token}`;
  const queue = await must('GET', '/console/identity?status=pending&limit=100', undefined, { authorization });
  for (const { id } of queue.items) {
    await must('POST', `/console/identity/${id}/approve`, {}, { authorization });
  }
}

// ------------------------------------------------------------------------------------------------ the load

/**
 * Every keyed request sent, in order.
 * @typedef {{ n: number, round: number, key: string, user: ReturnType<typeof Object>, path: string,
 *   body: object, op: string, creates: boolean, state: 'inflight' | 'acked' | 'refused',
 *   orderNo?: string, error?: string }} Sent
 * @type {Sent[]}
 */
const sent = [];
const refusals = new Map();
const count = (map, key) => map.set(key, (map.get(key) ?? 0) + 1);

/** The next operation for a user, from what the client has seen acknowledged. */
function nextOperation(user, universe) {
  const roll = random();
  if (roll < 0.2 && user.pending.length > 0) {
    const orderNo = user.pending.splice(Math.floor(random() * user.pending.length), 1)[0];
    return { op: 'cancel', path: '/trade/cancelOrder', body: { order_no: orderNo }, creates: false };
  }
  if (roll < 0.4 && user.positions.length > 0) {
    const positionId = user.positions.splice(Math.floor(random() * user.positions.length), 1)[0];
    return {
      op: 'close',
      path: '/trade/closePosition',
      body: { position_id: positionId, price_type: 'market', quantity: 100 },
      creates: true,
    };
  }
  const stock = pick(universe);
  if (roll < 0.65) {
    // A limit buy at the day's lower price limit: it waits, holding cash in `reserved`.
    return {
      op: 'limit buy',
      path: '/trade/placeOrder',
      body: {
        code: stock.code,
        direction: 'long',
        price_type: 'limit',
        price: stock.quote.limit_down,
        quantity: 100,
        leverage: 1,
      },
      creates: true,
    };
  }
  return {
    op: 'market buy',
    path: '/trade/placeOrder',
    body: { code: stock.code, direction: 'long', price_type: 'market', quantity: 100, leverage: 1 },
    creates: true,
  };
}

function learn(user, order) {
  if (order.kind === 'open' && order.status === 'filled' && order.position_id !== null)
    user.positions.push(order.position_id);
  if (order.kind === 'open' && order.status === 'pending') user.pending.push(order.order_no);
}

/** Answers seen during the PostgreSQL faults, by HTTP status. */
const statuses = new Map();
/** Each fault round's figures: the outage, and how long after the database was back the first order was acked. */
const faults = [];

/** Sends one keyed operation of a random user; answers the promise of its outcome (recorded in `sent`). */
function sendOne(number, n, users, universe) {
  const user = pick(users);
  const operation = nextOperation(user, universe);
  const record = {
    n: sent.length,
    round: number,
    key: `crash-${SEED}-${number}-${n}-${Math.floor(random() * 1e9).toString(36)}`,
    user,
    ...operation,
    state: 'inflight',
    sentAt: Date.now(),
  };
  sent.push(record);
  return call('POST', record.path, record.body, { token: user.token, 'idempotency-key': record.key }).then(
    (res) => {
      record.answeredAt = Date.now();
      if (FAULT === 'postgres') count(statuses, res.status);
      if (res.status === 200 && typeof res.body.data?.order_no === 'string') {
        record.state = 'acked';
        record.orderNo = res.body.data.order_no;
        learn(user, res.body.data);
      } else if (res.status === 503) {
        // the database was out: whether it committed is unknown to the client, as at a kill; re-sent at the end
        if (res.headers['retry-after'] === undefined)
          violation(`${record.op} (key ${record.key}): 503 without Retry-After`);
      } else {
        record.state = 'refused';
        record.error = `${res.status} ${res.body.code}`;
        if (res.status >= 500)
          violation(`${record.op} (key ${record.key}): HTTP ${res.status} ${JSON.stringify(res.body)}`);
        count(refusals, `${record.op}: HTTP ${res.status} code ${res.body.code} ${res.body.msg ?? ''}`);
      }
    },
    () => {
      // The connection died: the server was killed with this request in flight.
    },
  );
}

/** Sends at RATE until `until()` is true; answers the promises of what it sent. */
async function load(number, users, universe, counter, until) {
  const started = Date.now();
  const promises = [];
  let sentHere = 0;
  while (!until()) {
    const due = Math.floor(((Date.now() - started) / 1000) * RATE) + 1;
    while (sentHere < due) {
      promises.push(sendOne(number, counter.n, users, universe));
      counter.n += 1;
      sentHere += 1;
    }
    await sleep(2);
  }
  return promises;
}

async function round(number, users, universe) {
  const killAfter = 800 + Math.floor(killRandom() * 3200);
  const started = Date.now();
  const counter = { n: 0 };
  const inRound = await load(number, users, universe, counter, () => Date.now() - started >= killAfter);
  if (FAULT === 'postgres') return faultRound(number, users, universe, counter, inRound, killAfter);
  await killServer('SIGKILL');
  await Promise.all(inRound);
  const inflight = inRound.length - sent.filter((s) => s.round === number && s.state !== 'inflight').length;
  return { sent: counter.n, inflight, killAfter };
}

/**
 * The database, not the server, fails under the load: a restart (odd rounds) or a stop of OUTAGE_MS (even
 * rounds), the load running throughout; then the load runs until an order sent after the database accepted
 * connections again is acknowledged, and a second more.
 */
async function faultRound(number, users, universe, counter, inRound, killAfter) {
  const kind = number % 2 === 1 ? 'restart' : 'stop';
  const downAt = Date.now();
  let backAt = 0;
  const fault = (async () => {
    await pgStop(pgCluster, kind === 'restart' ? 'fast' : 'immediate');
    if (kind === 'stop') await sleep(OUTAGE_MS);
    backAt = await pgStart(pgCluster);
  })();
  const during = await load(number, users, universe, counter, () => backAt !== 0);
  await fault;
  const firstAck = () =>
    sent.find((s) => s.round === number && s.state === 'acked' && s.sentAt >= backAt)?.answeredAt;
  const after = await load(number, users, universe, counter, () => {
    const ack = firstAck();
    return (ack !== undefined && Date.now() - ack > 1000) || Date.now() - backAt > 30_000;
  });
  await Promise.all([...inRound, ...during, ...after]);
  const ack = firstAck();
  const recoveryMs = ack === undefined ? Infinity : ack - backAt;
  if (!(recoveryMs <= RECOVERY_LIMIT_MS))
    violation(
      `round ${number} (${kind}): the first order after the database came back took ${recoveryMs} ms`,
    );
  const unavailable = sent.filter((s) => s.round === number && s.state === 'inflight').length;
  faults.push({ number, kind, outageMs: backAt - downAt, recoveryMs, unavailable });
  return { sent: counter.n, inflight: unavailable, killAfter, kind, outageMs: backAt - downAt, recoveryMs };
}

// ---------------------------------------------------------------------------------------------- the checks

const violations = [];
const violation = (text) => {
  violations.push(text);
  if (violations.length <= 30) console.error(`VIOLATION: ${text}`);
};

async function checkAcknowledged(client) {
  const acked = sent.filter((s) => s.state === 'acked');
  const keys = new Map(
    (await client.query('select user_id, key, status_code, response from idempotency_keys')).rows.map((r) => [
      `${r.user_id}/${r.key}`,
      r,
    ]),
  );
  for (let i = 0; i < acked.length; i += 20) {
    await Promise.all(
      acked.slice(i, i + 20).map(async (s) => {
        const res = await call(
          'GET',
          `/trade/order?order_no=${encodeURIComponent(s.orderNo ?? '')}`,
          undefined,
          {
            token: s.user.token,
          },
        );
        if (res.status !== 200 || res.body.data.order_no !== s.orderNo)
          violation(
            `acknowledged ${s.op} ${s.orderNo} (key ${s.key}): GET /trade/order answered ${res.status}`,
          );
        else if (s.op === 'cancel' && res.body.data.status !== 'cancelled')
          violation(`acknowledged cancel of ${s.orderNo} but the order is ${res.body.data.status}`);
        const stored = keys.get(`${s.user.id}/${s.key}`);
        if (!stored || stored.status_code !== 200)
          violation(`acknowledged ${s.op} ${s.orderNo}: its key ${s.key} is not stored`);
        else if (JSON.parse(stored.response).order_no !== s.orderNo)
          violation(`acknowledged ${s.op} ${s.orderNo}: its key stored another order`);
      }),
    );
  }
  const { rows } = await client.query(
    'select order_no, count(*)::int as n from orders where order_no = any($1) group by order_no',
    [acked.map((s) => s.orderNo)],
  );
  const found = new Map(rows.map((r) => [r.order_no, r.n]));
  for (const s of acked) {
    if (found.get(s.orderNo) !== 1)
      violation(`acknowledged order ${s.orderNo} is in the database ${found.get(s.orderNo) ?? 0} times`);
  }
  return { acked: acked.length, keys };
}

async function resendInflight(keys) {
  const outcome = { committed: 0, createdOnResend: 0, refusedOnResend: new Map() };
  for (const s of sent.filter((r) => r.state === 'inflight')) {
    const stored = keys.get(`${s.user.id}/${s.key}`);
    const headers = { token: s.user.token, 'idempotency-key': s.key };
    const first = await call('POST', s.path, s.body, headers);
    const orderNo = first.body.data?.order_no;
    if (stored) {
      outcome.committed += 1;
      const storedNo = JSON.parse(stored.response).order_no;
      if (first.status !== 200 || orderNo !== storedNo)
        violation(
          `in-flight ${s.op} (key ${s.key}) had committed ${storedNo}; the re-send answered ${first.status} ${orderNo ?? JSON.stringify(first.body)}`,
        );
    } else if (first.status === 200) {
      outcome.createdOnResend += 1;
    } else {
      const code = first.body.code;
      if (code === 1202 || first.status >= 500)
        violation(
          `in-flight ${s.op} (key ${s.key}) re-sent: HTTP ${first.status} ${JSON.stringify(first.body)}`,
        );
      count(outcome.refusedOnResend, `${s.op}: code ${code} ${first.body.msg ?? ''}`);
      continue;
    }
    const second = await call('POST', s.path, s.body, headers);
    if (second.status !== 200 || second.body.data?.order_no !== orderNo)
      violation(`in-flight ${s.op} (key ${s.key}): a second re-send answered another result`);
    s.state = 'acked';
    s.orderNo = orderNo;
  }
  return outcome;
}

async function checkOrdersAgainstKeys(client) {
  const keys = (
    await client.query('select user_id, key, response from idempotency_keys where status_code = 200')
  ).rows;
  const creating = new Set(sent.filter((s) => s.creates).map((s) => `${s.user.id}/${s.key}`));
  const owner = new Map();
  for (const k of keys) {
    if (!creating.has(`${k.user_id}/${k.key}`)) continue;
    const orderNo = JSON.parse(k.response).order_no;
    if (owner.has(orderNo))
      violation(`order ${orderNo} is the answer of two keys (${owner.get(orderNo)}, ${k.key})`);
    owner.set(orderNo, k.key);
  }
  // the demo user's seeded history (DEMO_MODE gives the load's users their cash) is not this run's
  const ours = [...new Set(sent.map((r) => r.user.id))];
  const orders = (await client.query('select order_no from orders where user_id = any($1)', [ours])).rows;
  for (const o of orders) {
    if (!owner.has(o.order_no))
      violation(`order ${o.order_no} belongs to no order-creating key (created twice?)`);
  }
  return { orders: orders.length, creatingKeys: owner.size };
}

async function checkLedger(client) {
  const one = async (text, sql, params = []) => {
    const { rows } = await client.query(sql, params);
    for (const row of rows.slice(0, 10)) violation(`${text}: ${JSON.stringify(row)}`);
    if (rows.length > 10) violation(`${text}: ${rows.length - 10} more`);
  };
  await one(
    'journal entry does not sum to zero',
    'select entry_id, sum(amount)::text as total from postings group by entry_id having sum(amount) <> 0',
  );
  await one(
    'journal entry without postings',
    'select j.id from journal_entries j where not exists (select 1 from postings p where p.entry_id = j.id)',
  );
  await one(
    'negative cash',
    `select a.user_id, sum(p.amount)::text as cash from ledger_accounts a join postings p on p.account_id = a.id
     where a.kind = 'cash' and a.user_id is not null group by a.user_id having sum(p.amount) < 0`,
  );
  await one(
    'reserved balance differs from the pending orders',
    `with r as (select a.user_id, coalesce(sum(p.amount), 0) as reserved from ledger_accounts a
                left join postings p on p.account_id = a.id where a.kind = 'reserved' group by a.user_id),
          o as (select user_id, sum(reserved) as reserved from orders where status = 'pending' group by user_id)
     select u.id as user_id, coalesce(r.reserved, 0)::text as ledger, coalesce(o.reserved, 0)::text as orders
     from users u left join r on r.user_id = u.id left join o on o.user_id = u.id
     where coalesce(r.reserved, 0) <> coalesce(o.reserved, 0) and u.id = any($1)`,
    // the demo user's seeded history holds reserves for more than orders (IPO subscriptions...)
    [[...new Set(sent.map((r) => r.user.id))]],
  );
  await one('ledger head differs from the postings (ADR 0016)', headCheckSql());
  await one(
    'a posting on another user’s account',
    `select p.id from postings p join ledger_accounts a on a.id = p.account_id
     where p.user_id is distinct from a.user_id`,
  );
  const { rows } = await client.query(
    `select p.user_id, p.seq, p.entry_id, p.created_at, j.kind, a.kind as account, p.amount, p.hash
     from postings p join journal_entries j on j.id = p.entry_id join ledger_accounts a on a.id = p.account_id
     where p.user_id is not null order by p.user_id, p.seq`,
  );
  const chains = new Map();
  let broken = 0;
  for (const row of rows) {
    const head = chains.get(row.user_id) ?? { seq: 0, hash: GENESIS_HASH, ok: true };
    chains.set(row.user_id, head);
    if (!head.ok) continue;
    if (row.seq !== head.seq + 1) {
      violation(`user ${row.user_id}: chain jumps from seq ${head.seq} to ${row.seq}`);
      head.ok = false;
      broken += 1;
      continue;
    }
    const hash = chainHash(head.hash, {
      seq: row.seq,
      entry: row.entry_id,
      at: row.created_at.toISOString(),
      kind: row.kind,
      account: row.account,
      amount: Number(row.amount),
    });
    if (hash !== row.hash) {
      violation(`user ${row.user_id}: hash of seq ${row.seq} does not verify`);
      head.ok = false;
      broken += 1;
      continue;
    }
    head.seq = row.seq;
    head.hash = hash;
  }
  return { postings: rows.length, chains: chains.size, broken };
}

// ---------------------------------------------------------------------------------------------------- main

await admin(`create database ${dbName}`);
let exitCode = 1;
try {
  const firstStart = await startServer();
  const users = [];
  for (let i = 0; i < USERS; i++) users.push(await createUser(i));
  await approveIdentities();
  const universe = (await must('GET', '/market/list?sort=code&limit=225')).items;
  console.log(
    `database ${dbName}, ${USERS} users, ${ROUNDS} rounds at ${RATE} requests/s, seed ${SEED} (first start ${firstStart} ms)`,
  );
  const rounds = [];
  for (let r = 1; r <= ROUNDS; r++) {
    const startMs = r === 1 || FAULT === 'postgres' ? firstStart : await startServer();
    const result = await round(r, users, universe);
    rounds.push(result);
    console.log(
      FAULT === 'postgres'
        ? `round ${String(r).padStart(2)}: database ${result.kind} after ${result.killAfter} ms of load, down ${result.outageMs} ms, first order acknowledged ${result.recoveryMs} ms after it accepted connections; ${result.sent} sent, ${result.inflight} answered 503`
        : `round ${String(r).padStart(2)}: up in ${startMs} ms, killed after ${result.killAfter} ms, ${result.sent} sent, ${result.inflight} in flight at the kill`,
    );
  }

  if (FAULT !== 'postgres') await startServer();
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  try {
    const inflightTotal = sent.filter((s) => s.state === 'inflight').length;
    const refusedTotal = sent.filter((s) => s.state === 'refused').length;
    const { acked, keys } = await checkAcknowledged(client);
    const resend = await resendInflight(keys);
    const linkage = await checkOrdersAgainstKeys(client);
    const ledger = await checkLedger(client);

    console.log('\nSummary');
    const rows = [
      ['requests sent', sent.length],
      ['acknowledged (HTTP 200 with an order_no)', acked],
      ['refused by the server (business errors, below)', refusedTotal],
      [
        FAULT === 'postgres' ? 'answered 503 (outcome unknown to the client)' : 'in flight at a kill',
        inflightTotal,
      ],
      ['  of which had committed (re-send replayed the same order)', resend.committed],
      ['  of which had not: carried out on re-send', resend.createdOnResend],
      [
        '  of which had not: refused on re-send (below)',
        [...resend.refusedOnResend.values()].reduce((a, b) => a + b, 0),
      ],
      ['orders in the database / order-creating keys', `${linkage.orders} / ${linkage.creatingKeys}`],
      [
        'user postings checked / hash chains / broken',
        `${ledger.postings} / ${ledger.chains} / ${ledger.broken}`,
      ],
      ['violations', violations.length],
      ['time', `${Math.round((Date.now() - began) / 1000)} s`],
    ];
    if (FAULT === 'postgres') {
      const recoveries = faults.map((f) => f.recoveryMs);
      rows.splice(
        rows.length - 2,
        0,
        ['answers during the faults, by HTTP status', [...statuses].map(([k, v]) => `${k}: ${v}`).join(', ')],
        ['first order acknowledged after the database was back (max)', `${Math.max(...recoveries)} ms`],
      );
    }
    for (const [label, value] of rows) console.log(`  ${String(label).padEnd(62)} ${value}`);
    if (refusals.size > 0) {
      console.log('\nRefused during the rounds:');
      for (const [key, n] of refusals) console.log(`  ${String(n).padStart(5)}  ${key}`);
    }
    if (resend.refusedOnResend.size > 0) {
      console.log('\nRefused on re-send (had not committed; the state had moved on):');
      for (const [key, n] of resend.refusedOnResend) console.log(`  ${String(n).padStart(5)}  ${key}`);
    }
    exitCode = violations.length === 0 ? 0 : 1;
    console.log(violations.length === 0 ? '\nOK: no violation' : `\nFAILED: ${violations.length} violations`);
  } finally {
    await client.end();
  }
} finally {
  await killServer('SIGTERM');
  agent.destroy();
  rmSync(dataDir, { recursive: true, force: true });
  if (pgCluster) {
    await pgStop(pgCluster, 'fast').catch((e) => console.error(e));
    rmSync(pgCluster.dir, { recursive: true, force: true });
  } else if (process.env.KEEP_DB === '1') console.log(`kept database ${dbName}`);
  else await admin(`drop database if exists ${dbName} with (force)`).catch((e) => console.error(e));
}
process.exit(exitCode);
