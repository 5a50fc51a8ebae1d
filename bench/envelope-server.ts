/**
 * One of the two servers the envelope benchmark compares, started in its own process:
 *   fastify: the real app (Fastify, zod validation and serialization, session lookup) with a logged-in user;
 *            prints {port, token, health, userInfo, sql}: the two answers' bodies and the SQL that one
 *            getUserInfo ran (captured at the pg driver, with its parameters), for the bare server to repeat;
 *   bare:    node:http answering the same bytes (body and headers) on the same two paths; with DATABASE_URL, getUserInfo first
 *            runs the captured SQL through the same driver (pg) and a pool with the app's options.
 * Prints one JSON line when it listens.
 */
import { createServer, type ServerResponse } from 'node:http';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import { openDatabase } from '../apps/server/src/db/client.js';
import { invitationCodes } from '../apps/server/src/db/schema.js';
import { systemClock } from '../apps/server/src/lib/clock.js';
import type { SmsMessage } from '../apps/server/src/lib/sms.js';

const mode = process.argv[2];

/** One statement as the app sent it to pg. */
export interface CapturedQuery {
  /** a named prepared statement's name (src/db/statement.ts): the bare server prepares it too */
  name?: string;
  text: string;
  values?: unknown[];
  rowMode?: string;
}

export interface FastifySide {
  port: number;
  token: string;
  health: string;
  userInfo: string;
  /** the headers the app sends with each answer, less those node:http adds itself (date, connection) */
  healthHeaders: Record<string, string>;
  userInfoHeaders: Record<string, string>;
  sql: CapturedQuery[];
}

/** An answer's own headers: what node:http writes by itself, and the length, are left to the server. */
function ownHeaders(headers: Record<string, unknown>): Record<string, string> {
  const own: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'].includes(name)) continue;
    own[name] = String(value);
  }
  return own;
}

async function fastifyServer(): Promise<FastifySide> {
  const config = loadConfig({
    DATA_DIR: mkdtempSync(join(tmpdir(), 'kabuto-bench-')),
    LOG_LEVEL: process.env['LOG_LEVEL'] ?? 'info',
    LOG_FORMAT: 'json',
    DEMO_MODE: 'false',
    AUTH_RATE_LIMIT_PER_MINUTE: '100000',
  });
  const database = await openDatabase({ url: process.env['DATABASE_URL'] });
  await database.migrate();
  await database.db.insert(invitationCodes).values({ code: 'BENCH', kind: 'campaign' }).onConflictDoNothing();
  let code = '';
  const sms = {
    kind: 'bench',
    send: async (m: SmsMessage) => {
      code = m.code ?? code;
    },
  };
  // The app's own logger at its default level and format (JSON, as when not on a terminal) into /dev/null:
  // the access log's cost is part of what is measured (BENCH_LOGGER=off leaves it out).
  const logger =
    process.env['BENCH_LOGGER'] === 'off'
      ? false
      : { level: config.LOG_LEVEL, stream: { write: (_line: string) => undefined } };
  const app = await buildApp({ config, database, clock: systemClock, sms, logger });
  const phone = `080${String(Date.now()).slice(-8)}`;
  const call = async (url: string, payload: object) =>
    (await app.inject({ method: 'POST', url, payload })).json<{ data: { token?: string } }>();
  await call('/api/auth/sendSmsCode', { phone });
  await call('/api/auth/register', {
    phone,
    password: 'kabu7183',
    password_confirm: 'kabu7183',
    invite_code: 'BENCH',
    sms_code: code,
  });
  const token =
    (await call('/api/auth/login', { account: phone, password: 'kabu7183', agree: true })).data.token ?? '';
  const url = '/api/index/getUserInfo?lang=en';
  // The first call fills the session cache; the second is what a steady load repeats.
  await app.inject({ url, headers: { token } });
  // The statements of one getUserInfo, captured at the pg driver. The app's own jobs (the matcher) query on
  // their own timers, and an AsyncLocalStorage around the request does not tell them apart (the context does
  // not reach the driver's calls), so the request is captured five times and only the statements seen in
  // every capture, as many times as in the fewest, are kept, in the first capture's order.
  let capturing: CapturedQuery[] | null = null;
  // eslint-disable-next-line @typescript-eslint/unbound-method -- kept only to be put back, and called with apply
  const original = pg.Client.prototype.query;
  if (process.env['DATABASE_URL']) {
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const [first, second] = args;
      if (capturing !== null) {
        if (typeof first === 'string')
          capturing.push({ text: first, values: second as unknown[] | undefined });
        else if (first && typeof first === 'object' && 'text' in first) {
          const q = first as { name?: string; text: string; values?: unknown[]; rowMode?: string };
          capturing.push({
            ...(q.name === undefined ? {} : { name: q.name }),
            text: q.text,
            values: q.values ?? (second as unknown[] | undefined),
            rowMode: q.rowMode,
          });
        }
      }
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof original;
  }
  const captures: CapturedQuery[][] = [];
  let userInfo = '';
  let userInfoHeaders: Record<string, string> = {};
  for (let i = 0; i < 5; i++) {
    const seen: CapturedQuery[] = [];
    capturing = seen;
    const answer = await app.inject({ url, headers: { token } });
    userInfo = answer.body;
    userInfoHeaders = ownHeaders(answer.headers);
    capturing = null;
    captures.push(seen);
  }
  pg.Client.prototype.query = original;
  const sql = commonStatements(captures);
  const healthAnswer = await app.inject({ url: '/api/health?lang=en' });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    token,
    health: healthAnswer.body,
    userInfo,
    healthHeaders: ownHeaders(healthAnswer.headers),
    userInfoHeaders,
    sql,
  };
}

/** The statements found in every capture (as many times as in the one with fewest), in the first's order. */
function commonStatements(captures: CapturedQuery[][]): CapturedQuery[] {
  const [first = [], ...rest] = captures;
  const counts = (list: CapturedQuery[]) => {
    const m = new Map<string, number>();
    for (const q of list) m.set(q.text, (m.get(q.text) ?? 0) + 1);
    return m;
  };
  const allowed = counts(first);
  for (const other of rest) {
    const c = counts(other);
    for (const [text, n] of allowed) allowed.set(text, Math.min(n, c.get(text) ?? 0));
  }
  return first.filter((q) => {
    const left = allowed.get(q.text) ?? 0;
    if (left === 0) return false;
    allowed.set(q.text, left - 1);
    return true;
  });
}

async function bareServer(side: FastifySide): Promise<{ port: number }> {
  const health = Buffer.from(side.health);
  const userInfo = Buffer.from(side.userInfo);
  const url = process.env['DATABASE_URL'];
  // the app's pool options (src/db/client.ts)
  const pool = url
    ? new pg.Pool({
        connectionString: url,
        max: 10,
        idleTimeoutMillis: 0,
        connectionTimeoutMillis: 3000,
        pipeline: true,
      })
    : undefined;
  pool?.on('error', () => undefined);
  // The same answer as the app's, headers included (its security headers, ADR 0032), so that the ratio is the
  // framework's cost and not the app's choice of headers; BARE_HEADERS=minimal sends only the content type.
  const minimal = process.env['BARE_HEADERS'] === 'minimal';
  const headersOf = (own: Record<string, string>, bytes: Buffer): Record<string, string | number> =>
    minimal
      ? { 'content-type': 'application/json; charset=utf-8', 'content-length': bytes.length }
      : { ...own, 'content-length': bytes.length };
  const healthHeaders = headersOf(side.healthHeaders, health);
  const userInfoHeaders = headersOf(side.userInfoHeaders, userInfo);
  const send = (res: ServerResponse, bytes: Buffer, headers: Record<string, string | number>) => {
    res.writeHead(200, headers);
    res.end(bytes);
  };
  const server = createServer((req, res) => {
    if (req.url?.startsWith('/api/health') || !pool) {
      if (req.url?.startsWith('/api/health')) send(res, health, healthHeaders);
      else send(res, userInfo, userInfoHeaders);
      return;
    }
    void (async () => {
      for (const q of side.sql) {
        // as the app sent it: a named statement is prepared once per connection here too
        const named = q.name === undefined ? {} : { name: q.name };
        if (q.rowMode === 'array')
          await pool.query({ ...named, text: q.text, values: q.values, rowMode: 'array' });
        else await pool.query({ ...named, text: q.text, values: q.values });
      }
      send(res, userInfo, userInfoHeaders);
    })().catch(() => {
      res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return { port: typeof address === 'object' && address ? address.port : 0 };
}

// A stop from the bench (SIGTERM) is a normal exit, so that `SERVER_NODE_FLAGS=--cpu-prof` writes its profile.
process.once('SIGTERM', () => process.exit(0));

if (mode === 'fastify') {
  console.log(JSON.stringify(await fastifyServer()));
} else if (mode === 'bare' && process.argv[3]) {
  const side = JSON.parse(readFileSync(process.argv[3], 'utf8')) as FastifySide;
  console.log(JSON.stringify(await bareServer(side)));
} else {
  console.error('usage: envelope-server.ts fastify | bare <file of the fastify side>');
  process.exit(2);
}
