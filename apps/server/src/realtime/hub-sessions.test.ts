import { afterEach, describe, expect, it, vi } from 'vitest';
import { FixedClock } from '../lib/clock.js';
import { TEST_NOW } from '../test/harness.js';
import { TestMarket, testIndex } from '../test/test-market.js';
import { FakeSocket, silentLog } from '../test/ws-fakes.js';
import { RealtimeHub } from './hub.js';
import { SoleLeader } from './leader.js';
import { LocalPubSub } from './pubsub.js';

type Session = { sessionId: number; userId: number } | null;
const hubs: RealtimeHub[] = [];
/** The last hub's market: its index ticks reach every socket, which makes them sentinels. */
let market: TestMarket;
afterEach(async () => {
  for (const hub of hubs.splice(0)) await hub.stop();
});

async function hubWith(authenticate: (token: string) => Promise<Session>) {
  market = new TestMarket(new FixedClock(TEST_NOW));
  const hub = new RealtimeHub({
    market,
    pubsub: new LocalPubSub(),
    leader: new SoleLeader(),
    log: silentLog,
    nodeId: 'test',
    maxBufferedBytes: 1 << 20,
    authenticate,
  });
  await hub.start({ produce: true });
  hubs.push(hub);
  return hub;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

/** A new socket on the hub that sends `auth` and gives the hub a moment to look the session up. */
async function authAttempt(hub: RealtimeHub): Promise<FakeSocket> {
  const socket = new FakeSocket();
  hub.attach(socket, 'en');
  socket.say({ op: 'auth', token: 't'.repeat(43) });
  await settle();
  return socket;
}

describe('a WebSocket auth and a revocation at the same moment', () => {
  it('looks the session up again when a revocation came while the first lookup was out', async () => {
    let calls = 0;
    let release: (session: Session) => void = () => undefined;
    const hub = await hubWith((): Promise<Session> => {
      calls += 1;
      // The first lookup read the row before the revocation committed; the second sees it revoked.
      if (calls === 1) return new Promise((resolve) => (release = resolve));
      return Promise.resolve(null);
    });
    const socket = await authAttempt(hub);
    hub.endSessions({ sessionId: 7 });
    release({ sessionId: 7, userId: 5 });
    await settle();
    expect(calls).toBe(2);
    expect(socket.messages().at(-1)).toMatchObject({ type: 'error', code: 401 });
    // The user's event, then a sentinel on the same path: had the socket been let in, the event would
    // have arrived before it.
    await hub.publishUserEvent(5, { kind: 'test.secret', at: '', data: {} });
    market.tickIndex(testIndex(1));
    await vi.waitFor(() => {
      expect(socket.messages().at(-1)).toMatchObject({ type: 'index', index: { level: 1 } });
    });
    expect(socket.messages().some((m) => m['type'] === 'event')).toBe(false);
  });

  it('refuses a session it could not read without a revocation coming in between, after three tries', async () => {
    let calls = 0;
    const holder: { hub?: RealtimeHub } = {};
    const hub = await hubWith(() => {
      calls += 1;
      holder.hub?.endSessions({ sessionId: 1000 + calls });
      return Promise.resolve({ sessionId: 9, userId: 7 });
    });
    holder.hub = hub;
    const socket = await authAttempt(hub);
    expect(calls).toBe(3);
    expect(socket.messages().at(-1)).toMatchObject({ type: 'error', code: 401 });
  });

  it('looks it up once when no revocation came in between', async () => {
    let calls = 0;
    const hub = await hubWith(() => {
      calls += 1;
      return Promise.resolve({ sessionId: 8, userId: 6 });
    });
    const socket = await authAttempt(hub);
    expect(calls).toBe(1);
    expect(socket.messages().at(-1)).toEqual({ type: 'ready', user_id: 6 });
    await hub.publishUserEvent(6, { kind: 'test.mine', at: '', data: {} });
    await vi.waitFor(() => {
      expect(socket.messages().at(-1)).toMatchObject({ type: 'event', event: { kind: 'test.mine' } });
    });
  });
});
