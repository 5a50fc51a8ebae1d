import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerAndLogin, type TestApp } from '../test/harness.js';
import { injectStepped } from '../test/step-up.js';
import { MARKET_CHANNEL } from './hub.js';
import { TestMarket, testIndex } from '../test/test-market.js';
import { TestSocket, isType } from '../test/ws-client.js';

/**
 * The stream against a market whose ticks the test makes (TestMarket.tick/tickIndex). A message that must
 * not arrive is checked with a sentinel: a later message that takes the same path to the same socket (an
 * index tick reaches every socket), after which the unwanted one would already have been received.
 */
let t: TestApp;
let market: TestMarket;
let url: string;
beforeAll(async () => {
  t = await createTestApp({ MARKET_CLOCK: 'always-open' }, undefined, {
    produceTicks: true,
    maxBufferedBytes: 64 * 1024,
    market: (clock) => (market = new TestMarket(clock)),
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  url = `ws://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api/ws`;
  for (const [code, yen] of [
    ['7203', 3000],
    ['6758', 2000],
  ] as const)
    market.set(code, yen);
});
afterAll(() => t.close());

const quoteOf = (code: string) => isType('quote', (m) => (m['quote'] as { code: string }).code === code);
const live = (m: Record<string, unknown>) => typeof m['ts'] === 'number';

const sentinelAt = (level: number) =>
  isType('index', (m) => (m['index'] as { level: number }).level === level && live(m));

describe('the quote stream', () => {
  it('greets, answers pings, sends a snapshot on subscribe, then live ticks and index ticks', async () => {
    expect(market.listening).toBe(1);
    const ws = await TestSocket.open(`${url}?lang=en`);
    await ws.next(isType('ready', (m) => m['user_id'] === null));
    ws.send({ op: 'ping', t: 42 });
    expect(await ws.next(isType('pong'))).toEqual({ type: 'pong', t: 42 });
    ws.send({ op: 'subscribe', symbols: ['7203', '6758', 'NOPE'] });
    expect(await ws.next(isType('subscribed'))).toEqual({ type: 'subscribed', symbols: ['7203', '6758'] });
    const snapshot = await ws.next(quoteOf('7203'));
    expect(snapshot['ts']).toBeUndefined();
    expect(snapshot['quote']).toMatchObject({ last: 300_000 });

    market.tick('7203', 3010);
    const tick = await ws.next(
      isType('quote', (m) => live(m) && (m['quote'] as { code: string }).code === '7203'),
    );
    expect(tick['quote']).toMatchObject({ code: '7203', last: 301_000 });
    market.tickIndex(testIndex(40_000));
    await ws.next(sentinelAt(40_000));

    // Unsubscribed: the next ticks of both stocks do not reach the socket; the index tick sent after them does.
    ws.send({ op: 'unsubscribe', symbols: ['7203', '6758'] });
    await ws.next(isType('subscribed', (m) => (m['symbols'] as string[]).length === 0));
    const count = ws.messages.length;
    market.tick('7203', 3020);
    market.tick('6758', 2010);
    market.tickIndex(testIndex(40_001));
    await ws.next(sentinelAt(40_001), 10_000, count);
    expect(ws.messages.slice(count).filter((m) => m['type'] === 'quote')).toEqual([]);
    ws.close();
  });

  it('answers bad commands with a localized error and keeps the connection', async () => {
    const ws = await TestSocket.open(`${url}?lang=jp`);
    await ws.next(isType('ready'));
    ws.socket.send('{not json');
    expect(await ws.next(isType('error'))).toEqual({
      type: 'error',
      code: 400,
      msg: 'リクエスト本文が正しいJSONではありません',
    });
    ws.send({ op: 'subscribe', symbols: 'all' });
    await ws.next(isType('error', (m) => m['msg'] === '入力内容をご確認ください'));
    ws.send({ op: 'auth', token: 'x'.repeat(43) });
    await ws.next(isType('error', (m) => m['code'] === 401));
    ws.send({ op: 'ping' });
    await ws.next(isType('pong'));
    ws.close();
  });
});

describe('the user channel', () => {
  it('delivers a user’s events to their own sockets only', async () => {
    const alice = await registerAndLogin(t);
    const bob = await registerAndLogin(t);
    const a = await TestSocket.open(url);
    const b = await TestSocket.open(url);
    const anonymous = await TestSocket.open(url);
    a.send({ op: 'auth', token: alice.token });
    b.send({ op: 'auth', token: bob.token });
    await a.next(isType('ready', (m) => m['user_id'] === alice.userId));
    await b.next(isType('ready', (m) => m['user_id'] === bob.userId));
    await t.app.ctx.realtime.publishUserEvent(alice.userId, {
      kind: 'test.hello',
      at: new Date().toISOString(),
      data: { n: 1 },
    });
    // Sentinels: Bob's own event after Alice's, then an index tick that reaches every socket.
    await t.app.ctx.realtime.publishUserEvent(bob.userId, { kind: 'test.sentinel', at: '', data: {} });
    market.tickIndex(testIndex(41_000));
    const event = await a.next(isType('event'));
    expect(event['event']).toMatchObject({ kind: 'test.hello', data: { n: 1 } });
    await b.next(isType('event', (m) => (m['event'] as { kind: string }).kind === 'test.sentinel'));
    for (const ws of [a, b, anonymous]) await ws.next(sentinelAt(41_000));
    const events = (ws: TestSocket) =>
      ws.messages.filter((m) => m['type'] === 'event').map((m) => (m['event'] as { kind: string }).kind);
    expect([events(a), events(b), events(anonymous)]).toEqual([['test.hello'], ['test.sentinel'], []]);
    for (const s of [a, b, anonymous]) s.close();
  });

  it('stops a socket’s user events when its session ends (ADR 0014), and only that session’s', async () => {
    const user = await registerAndLogin(t);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { account: user.phone, password: user.password, agree: true },
    });
    const other = login.json<{ data: { token: string } }>().data.token;
    const [first, second, third] = [
      await TestSocket.open(url),
      await TestSocket.open(url),
      await TestSocket.open(url),
    ];
    first.send({ op: 'auth', token: user.token });
    second.send({ op: 'auth', token: other });
    third.send({ op: 'auth', token: other });
    for (const ws of [first, second, third])
      await ws.next(isType('ready', (m) => m['user_id'] === user.userId));
    // The user's event n, then an index tick (every socket hears it) after which event n has arrived if
    // it was going to.
    const event = async (n: number) => {
      await t.app.ctx.realtime.publishUserEvent(user.userId, { kind: 'test.n', at: '', data: { n } });
      market.tickIndex(testIndex(42_000 + n));
      for (const ws of [first, second, third]) await ws.next(sentinelAt(42_000 + n));
    };
    const got = (ws: TestSocket, n: number) =>
      ws.messages.some((m) => m['type'] === 'event' && (m['event'] as { data: { n: number } }).data.n === n);

    // The password change from the first session ends the other session: its two sockets hear 401 and
    // no more of the user's events; the first socket goes on.
    const change = await injectStepped(t, {
      method: 'POST',
      url: '/api/user/changePassword',
      payload: { old_password: user.password, new_password: 'newpw9', confirm_password: 'newpw9' },
      headers: { token: user.token },
    });
    expect(change.statusCode).toBe(200);
    for (const ws of [second, third]) await ws.next(isType('error', (m) => m['code'] === 401));
    await event(1);
    expect([got(first, 1), got(second, 1), got(third, 1)]).toEqual([true, false, false]);
    // The market stream of an ended socket goes on.
    second.send({ op: 'ping' });
    await second.next(isType('pong'));

    // A logout ends the first session's socket too.
    const logout = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { token: user.token },
    });
    expect(logout.statusCode).toBe(200);
    await first.next(isType('error', (m) => m['code'] === 401));
    await event(2);
    expect(got(first, 2)).toBe(false);
    for (const ws of [first, second, third]) ws.close();
  });

  it('drops a client that does not read rather than buffering without bound', async () => {
    const user = await registerAndLogin(t);
    const slow = await TestSocket.open(url);
    slow.send({ op: 'auth', token: user.token });
    await slow.next(isType('ready', (m) => m['user_id'] === user.userId));
    const closed = new Promise<void>((resolve) =>
      slow.socket.once('close', () => {
        resolve();
      }),
    );
    // Stop reading: the kernel buffers fill, then the server's own buffer passes its limit.
    (slow.socket as unknown as { _socket: { pause(): void } })._socket.pause();
    const big = 'x'.repeat(64 * 1024);
    const before = t.app.ctx.realtime.stats().dropped;
    for (let i = 0; i < 400 && t.app.ctx.realtime.stats().dropped === before; i++) {
      await t.app.ctx.realtime.publishUserEvent(user.userId, { kind: 'test.big', at: '', data: { big } });
      await new Promise((r) => setImmediate(r));
    }
    expect(t.app.ctx.realtime.stats().dropped).toBe(before + 1);
    (slow.socket as unknown as { _socket: { resume(): void } })._socket.resume();
    await closed;
  });

  it('drops a quote subscriber that does not read: the frames written once for all count in its buffer', async () => {
    const slow = await TestSocket.open(url);
    const fast = await TestSocket.open(url);
    for (const ws of [slow, fast]) {
      ws.send({ op: 'subscribe', symbols: ['7203'] });
      await ws.next(isType('subscribed'));
    }
    const closed = new Promise<void>((resolve) =>
      slow.socket.once('close', () => {
        resolve();
      }),
    );
    (slow.socket as unknown as { _socket: { pause(): void } })._socket.pause();
    const before = t.app.ctx.realtime.stats().dropped;
    const big = 'x'.repeat(64 * 1024);
    let sent = 0;
    for (; sent < 400 && t.app.ctx.realtime.stats().dropped === before; sent++) {
      const tick = { type: 'index', index: { code: 'BIG', big, n: sent }, ts: sent };
      await t.app.ctx.pubsub.publish(MARKET_CHANNEL, `7203\n${JSON.stringify(tick)}`);
      await new Promise((r) => setImmediate(r));
    }
    expect(t.app.ctx.realtime.stats().dropped).toBe(before + 1);
    // the subscriber that reads got every one of them, whole and in order
    const isBig = (m: Record<string, unknown>) => (m['index'] as { code: string }).code === 'BIG';
    await fast.next(isType('index', (m) => isBig(m) && (m['index'] as { n: number }).n === sent - 1));
    const got = fast.messages
      .filter(isType('index', isBig))
      .map((m) => m['index'] as { n: number; big: string });
    expect(got.map((i) => i.n)).toEqual(Array.from({ length: sent }, (_, n) => n));
    expect(got.every((i) => i.big === big)).toBe(true);
    (slow.socket as unknown as { _socket: { resume(): void } })._socket.resume();
    await closed;
    fast.close();
  });
});
