import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, registerAndLogin, type TestApp } from '../test/harness.js';
import { describeNeeding } from '../test/needs.js';
import { TestSocket, isType } from '../test/ws-client.js';

/**
 * Redis lost and back (issue 22, ADR 0032), on a private redis-server this test starts and kills (the
 * shared one at REDIS_URL is left alone; REDIS_URL only says Redis is installed here). The loss and the
 * recovery are logged once each, readiness says `degraded`, the sockets are told their quotes are stale and
 * then live again, and a user event published meanwhile still reaches this process's sockets.
 */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 0;
}

function startRedis(port: number): Promise<ChildProcess> {
  const dir = mkdtempSync(`${tmpdir()}/kabuto-redis-`);
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--dir', dir],
    {
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('Ready to accept connections')) resolve(child);
    });
  });
}

function stopRedis(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => {
      resolve();
    });
    child.kill('SIGKILL');
  });
}

describeNeeding('redis', 'a Redis outage', () => {
  let port = 0;
  let redis: ChildProcess;
  let t: TestApp;
  let url = '';
  const lines: { msg?: string }[] = [];
  beforeAll(async () => {
    port = await freePort();
    redis = await startRedis(port);
    t = await createTestApp(
      { REDIS_URL: `redis://127.0.0.1:${port}`, REDIS_PREFIX: 'outage-test:' },
      undefined,
      {
        logStream: { write: (line) => void lines.push(JSON.parse(line) as { msg?: string }) },
      },
    );
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    url = `ws://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api/ws?lang=en`;
  });
  afterAll(async () => {
    await t.close();
    if (redis.exitCode === null) await stopRedis(redis);
  });

  const said = (text: string) => lines.filter((l) => l.msg?.includes(text)).length;
  const ready = async () =>
    (await t.app.inject({ url: '/api/ready' })).json<{ data: { status: string; pubsub: { ok: boolean } } }>()
      .data;

  it('tells sockets their quotes are stale, says degraded, keeps user events flowing, and recovers', async () => {
    const user = await registerAndLogin(t);
    const ws = await TestSocket.open(url);
    await ws.next(isType('ready'));
    ws.send({ op: 'auth', token: user.token });
    await ws.next(isType('ready', (m) => m['user_id'] === user.userId));
    expect(await ready()).toMatchObject({ status: 'ok', pubsub: { ok: true } });

    await stopRedis(redis);
    expect(await ws.next(isType('stream', (m) => m['stale'] === true))).toEqual({
      type: 'stream',
      stale: true,
    });
    expect(await ready()).toMatchObject({ status: 'degraded', pubsub: { ok: false } });
    expect((await t.app.inject({ url: '/api/ready' })).statusCode).toBe(200);
    const health = (await t.app.inject({ url: '/api/health' })).json<{
      data: { realtime: { stale: boolean } };
    }>();
    expect(health.data.realtime.stale).toBe(true);

    // a socket that connects during the outage is told at once
    const late = await TestSocket.open(url);
    await late.next(isType('stream', (m) => m['stale'] === true));

    // in-process fan-out: this process's own event reaches its socket without Redis
    await t.app.ctx.realtime.publishUserEvent(user.userId, {
      kind: 'test',
      at: '2026-11-24T01:00:00Z',
      data: {},
    });
    await ws.next(isType('event', (m) => (m['event'] as { kind: string }).kind === 'test'));

    redis = await startRedis(port);
    await ws.next(
      isType('stream', (m) => m['stale'] === false),
      20_000,
    );
    await late.next(
      isType('stream', (m) => m['stale'] === false),
      20_000,
    );
    await expect.poll(async () => (await ready()).status, { timeout: 10_000 }).toBe('ok');

    // and through Redis again
    await t.app.ctx.realtime.publishUserEvent(user.userId, {
      kind: 'after',
      at: '2026-11-24T01:00:01Z',
      data: {},
    });
    await ws.next(isType('event', (m) => (m['event'] as { kind: string }).kind === 'after'));

    expect(said('connection lost')).toBe(1);
    expect(said('connection restored')).toBe(1);
    ws.socket.close();
    late.socket.close();
  });
});

describeNeeding('redis', 'a Redis outage with one process producing (the solo fallback)', () => {
  let port = 0;
  let redis: ChildProcess;
  let t: TestApp;
  let url = '';
  const lines: { msg?: string }[] = [];
  beforeAll(async () => {
    port = await freePort();
    redis = await startRedis(port);
    t = await createTestApp(
      { REDIS_URL: `redis://127.0.0.1:${port}`, REDIS_PREFIX: 'solo-test:', MARKET_CLOCK: 'always-open' },
      undefined,
      {
        produceTicks: true,
        logStream: { write: (line) => void lines.push(JSON.parse(line) as { msg?: string }) },
      },
    );
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    url = `ws://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api/ws?lang=en`;
  });
  afterAll(async () => {
    await t.close();
    if (redis.exitCode === null) await stopRedis(redis);
  });

  const said = (text: string) => lines.filter((l) => l.msg?.includes(text)).length;
  const producing = async () =>
    (await t.app.inject({ url: '/api/health' })).json<{ data: { realtime: { producing: boolean } } }>().data
      .realtime.producing;
  /** the next live tick (it carries `ts`; a subscription's snapshot does not) after the messages seen so far */
  const liveTick = (ws: TestSocket) =>
    ws.next(
      isType('quote', (m) => typeof m['ts'] === 'number'),
      30_000,
      ws.messages.length,
    );

  it('keeps the quotes live from this process while Redis is down, then goes back to the Redis lease', async () => {
    await expect.poll(producing, { timeout: 15_000 }).toBe(true);
    const ws = await TestSocket.open(url);
    await ws.next(isType('ready'));
    ws.send({ op: 'subscribe', symbols: ['7203', '6758', '9984', '8306', '6861', '8035', '9983', '4063'] });
    await liveTick(ws);

    await stopRedis(redis);
    const lostAt = Date.now();
    await ws.next(isType('stream', (m) => m['stale'] === true));
    // Once the lease lapses (within its 5 s time-to-live), the lone process produces on without Redis: the
    // socket is told its quotes are live again, and live ticks arrive while Redis is still down.
    await ws.next(
      isType('stream', (m) => m['stale'] === false),
      20_000,
    );
    const tick = await liveTick(ws);
    expect(tick['ts']).toBeGreaterThan(lostAt);
    expect(await producing()).toBe(true);
    expect(said('keeps producing ticks in-process')).toBe(1);

    redis = await startRedis(port);
    await expect.poll(() => said('producing under the Redis lease again'), { timeout: 20_000 }).toBe(1);
    await expect.poll(producing, { timeout: 20_000 }).toBe(true);
    await liveTick(ws);
    expect(said('keeps producing ticks in-process')).toBe(1);
    ws.socket.close();
  }, 120_000);
});
