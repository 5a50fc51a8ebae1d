import { mkdtempSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '@kabuto/contract';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { FixedClock } from '../lib/clock.js';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../plugins/errors.js';
import { TEST_NOW } from '../test/harness.js';
import { openDatabase, type Database } from './client.js';

/**
 * PostgreSQL unreachable (issue 22, ADR 0032): requests answer 503 with Retry-After and the envelope, never
 * 500, and within the connection timeout, whether the server refuses connections or swallows them (a
 * black hole), so that requests cannot pile up behind a database that does not answer.
 */
const CONNECT_TIMEOUT_MS = 400;

/** A TCP server that accepts connections and never says a word: a black-holed database. */
function blackHole(): Promise<{ server: Server; port: number; sockets: Set<Socket> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({ server, port: typeof address === 'object' && address ? address.port : 0, sockets });
    });
  });
}

/** A port nothing listens on (one just closed). */
async function closedPort(): Promise<number> {
  const { server, port } = await blackHole();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function appOn(port: number): Promise<{ app: FastifyInstance; database: Database }> {
  const database = await openDatabase({
    url: `postgres://postgres@127.0.0.1:${port}/kabuto`,
    poolSize: 2,
    connectTimeoutMs: CONNECT_TIMEOUT_MS,
  });
  const config = loadConfig({
    DATA_DIR: mkdtempSync(join(tmpdir(), 'kabuto-outage-')),
    LOG_LEVEL: 'silent',
    DEMO_MODE: 'false',
    AUTH_RATE_LIMIT_PER_MINUTE: '100000',
    WEB_DIST: join(tmpdir(), 'kabuto-no-web-dist'),
  });
  const app = await buildApp({
    config,
    database,
    clock: new FixedClock(TEST_NOW),
    logger: false,
    produceTicks: false,
  });
  await app.ready();
  return { app, database };
}

const login = (app: FastifyInstance) =>
  app.inject({
    method: 'POST',
    url: '/api/auth/login?lang=en',
    payload: { account: '09000000001', password: 'demo1234', agree: true },
  });

function expectUnavailable(response: Awaited<ReturnType<typeof login>>) {
  expect(response.statusCode).toBe(503);
  expect(response.headers['retry-after']).toBe(String(DATABASE_RETRY_AFTER_SECONDS));
  expect(response.json()).toEqual({
    code: ERRORS.DATABASE_UNAVAILABLE.code,
    msg: 'Our database is not answering right now. Your data is safe; please try again in a few seconds',
    data: null,
  });
}

describe('a database that refuses connections', () => {
  let app: FastifyInstance;
  let database: Database;
  beforeAll(async () => {
    ({ app, database } = await appOn(await closedPort()));
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('answers 503 with Retry-After and the envelope, not 500', async () => {
    expectUnavailable(await login(app));
  });

  it('reports itself not ready, while liveness stays ok', async () => {
    expect((await app.inject({ url: '/api/ready' })).statusCode).toBe(503);
    expect((await app.inject({ url: '/api/health' })).statusCode).toBe(200);
  });
});

describe('a black-holed database', () => {
  let hole: Awaited<ReturnType<typeof blackHole>>;
  let app: FastifyInstance;
  let database: Database;
  beforeAll(async () => {
    hole = await blackHole();
    ({ app, database } = await appOn(hole.port));
  });
  afterAll(async () => {
    await app.close();
    await database.close().catch(() => undefined);
    for (const socket of hole.sockets) socket.destroy();
    await new Promise((resolve) => hole.server.close(resolve));
  });

  it('answers 503 once the connection timeout passes, instead of waiting for ever', async () => {
    const started = performance.now();
    expectUnavailable(await login(app));
    expect(performance.now() - started).toBeLessThan(CONNECT_TIMEOUT_MS * 5);
  });

  it('does not let requests pile up: forty at once all answer 503 within a few timeouts', async () => {
    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: 40 }, () => login(app)));
    const took = performance.now() - started;
    for (const answer of answers) expectUnavailable(answer);
    // a pool of 2 that waited for ever would hang here; each waits at most the connection timeout
    expect(took).toBeLessThan(CONNECT_TIMEOUT_MS * 5);
  });
});

describe('which errors mean the database is unavailable', () => {
  it('knows network failures, SQLSTATE classes 08 and 57P0x, statement timeouts and wrapped causes', () => {
    for (const error of [
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      new Error('timeout exceeded when trying to connect'),
      new Error('Connection terminated unexpectedly'),
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
      Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }),
      Object.assign(new Error('connection failure'), { code: '08006' }),
      new Error('Failed query: select 1', { cause: Object.assign(new Error('x'), { code: '57P01' }) }),
    ]) {
      expect(isDatabaseUnavailable(error), error.message).toBe(true);
    }
  });

  it('does not take a bug or a constraint for an outage', () => {
    for (const error of [
      Object.assign(new Error('duplicate key'), { code: '23505' }),
      Object.assign(new Error('syntax error'), { code: '42601' }),
      new TypeError('cannot read properties of undefined'),
    ]) {
      expect(isDatabaseUnavailable(error), error.message).toBe(false);
    }
  });
});
