import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { openDatabase } from '../db/client.js';
import { templatesFolder } from '../db/template.js';
import { createTestApp, registerAndLogin } from '../test/harness.js';
import { describeNeeding } from '../test/needs.js';
import { TestSocket, isType } from '../test/ws-client.js';
import { deploymentId } from './deployment.js';

/**
 * Across processes, through the Redis at REDIS_URL (.ci/run requires it). Without Redis these tests
 * cannot run, and are reported as not run (test/needs.ts) instead of passing.
 */

/** How long a live tick may take to arrive: seconds normally, far more when the machine is saturated. */
const TICK_WAIT_MS = 45_000;
const mainTs = fileURLToPath(new URL('../main.ts', import.meta.url));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 0;
}

interface Health {
  data: { realtime: { producing: boolean; node: string; pubsub: string } };
}

async function health(port: number): Promise<Health['data']['realtime'] | null> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/api/health`);
    return ((await res.json()) as Health).data.realtime;
  } catch {
    return null;
  }
}

async function until<T>(probe: () => Promise<T | null | false>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Two data folders of one deployment. Processes of one deployment share one database (ADR 0052), which two
 * PGlite processes cannot: each gets a copy of one migrated database whose deployment id is already written,
 * as a copy of one PostgreSQL would be.
 */
async function oneDeploymentTwoFolders(): Promise<[string, string]> {
  const first = mkdtempSync(join(tmpdir(), 'kabuto-node-'));
  const database = await openDatabase({ dataDir: join(first, 'pglite'), templates: templatesFolder });
  await database.migrate();
  await deploymentId(database.db);
  await database.close();
  const second = mkdtempSync(join(tmpdir(), 'kabuto-node-'));
  cpSync(first, second, { recursive: true });
  return [first, second];
}

async function startServer(
  redisUrl: string,
  prefix: string,
  dataDir: string,
): Promise<{ port: number; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--conditions=@kabuto/source', '--import', 'tsx', mainTs], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: redisUrl,
      REDIS_PREFIX: prefix,
      MARKET_CLOCK: 'always-open',
      DEMO_MODE: 'false',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  await until(() => health(port), 60_000, `server on port ${port}`);
  return { port, child };
}

describeNeeding('redis', 'two server processes sharing Redis', (redisUrl) => {
  it('one produces the ticks, clients of the other receive them, and the other takes over when it stops', async () => {
    const prefix = `kabuto-test-${randomBytes(4).toString('hex')}:`;
    const [folderA, folderB] = await oneDeploymentTwoFolders();
    const a = await startServer(redisUrl, prefix, folderA);
    await until(async () => (await health(a.port))?.producing === true, 10_000, 'A to produce');
    const b = await startServer(redisUrl, prefix, folderB);
    await new Promise((r) => setTimeout(r, 2000));
    const [ha, hb] = [await health(a.port), await health(b.port)];
    expect(ha?.pubsub).toBe('redis');
    expect([ha?.producing, hb?.producing]).toEqual([true, false]);

    // A client of B (which produces nothing) receives A's live ticks.
    const ws = await TestSocket.open(`ws://127.0.0.1:${b.port}/api/ws`);
    ws.send({ op: 'subscribe', symbols: ['7203', '6758', '9984', '8306', '6861'] });
    // A live tick (it carries `ts`; the snapshot sent on subscribing does not) from A, through Redis. About
    // 30% of symbols tick each second, so one of five arrives within seconds; the wait is long because both
    // servers run from TypeScript sources on a CI machine that is running other test files at the same time.
    await ws.next(
      isType('quote', (m) => typeof m['ts'] === 'number'),
      TICK_WAIT_MS,
    );

    // A stops; B takes the lease and its client keeps receiving live ticks.
    a.child.kill('SIGTERM');
    await until(async () => (await health(b.port))?.producing === true, 30_000, 'B to take over');
    const seen = ws.messages.length;
    await ws.next(
      isType('quote', (m) => typeof m['ts'] === 'number'),
      TICK_WAIT_MS,
      seen,
    );
    ws.close();
    b.child.kill('SIGTERM');
  }, 240_000);

  it('a user event published on one node reaches the user’s socket on another; a logout reaches it too', async () => {
    const prefix = `kabuto-test-${randomBytes(4).toString('hex')}:`;
    const env = { REDIS_URL: redisUrl, REDIS_PREFIX: prefix };
    const one = await createTestApp(env);
    try {
      // The second node shares the first one's database (as two processes share one PostgreSQL).
      const { buildApp } = await import('../app.js');
      const two = await buildApp({
        config: one.config,
        database: one.database,
        clock: one.clock,
        sms: one.sms,
        logger: false,
        produceTicks: false,
      });
      await two.listen({ port: 0, host: '127.0.0.1' });
      const address = two.server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      const user = await registerAndLogin(one);
      const ws = await TestSocket.open(`ws://127.0.0.1:${port}/api/ws`);
      ws.send({ op: 'auth', token: user.token });
      await ws.next(isType('ready', (m) => m['user_id'] === user.userId));
      await one.app.ctx.realtime.publishUserEvent(user.userId, { kind: 'test.cross', at: '', data: {} });
      expect((await ws.next(isType('event')))['event']).toMatchObject({ kind: 'test.cross' });
      ws.close();

      // A logout on one node ends the session on the other at once, though the other had it cached.
      const me = () => two.inject({ url: '/api/index/getUserInfo', headers: { token: user.token } });
      expect((await me()).statusCode).toBe(200);
      expect(two.ctx.sessionCache.size).toBeGreaterThan(0);
      const logout = await one.app.inject({
        method: 'POST',
        url: '/api/auth/logout',
        headers: { token: user.token },
      });
      expect(logout.statusCode).toBe(200);
      await until(async () => (await me()).statusCode === 401, 5_000, 'the other node to drop the session');
      expect(two.ctx.sessionCache.size).toBe(0);
      await two.close();
    } finally {
      await one.close();
    }
  });
});
