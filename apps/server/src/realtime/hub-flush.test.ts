import { afterEach, describe, expect, it } from 'vitest';
import { FixedClock } from '../lib/clock.js';
import { TEST_NOW } from '../test/harness.js';
import { TestMarket } from '../test/test-market.js';
import { FakeSocket, silentLog } from '../test/ws-fakes.js';
import { FLUSH_SLICE, MARKET_CHANNEL, RealtimeHub } from './hub.js';
import { SoleLeader } from './leader.js';
import { LocalPubSub } from './pubsub.js';

const hubs: RealtimeHub[] = [];
afterEach(async () => {
  for (const hub of hubs.splice(0)) await hub.stop();
});

async function hub(maxBufferedBytes = 1 << 20) {
  const pubsub = new LocalPubSub();
  const realtime = new RealtimeHub({
    market: new TestMarket(new FixedClock(TEST_NOW)),
    pubsub,
    leader: new SoleLeader(),
    log: silentLog,
    nodeId: 'test',
    maxBufferedBytes,
    authenticate: () => Promise.resolve({ sessionId: 1, userId: 42 }),
  });
  await realtime.start({ produce: false });
  hubs.push(realtime);
  /** an index tick, which every socket gets (as a beat's ticks, published one after another) */
  const tick = (n: number) =>
    pubsub.publish(MARKET_CHANNEL, `\n${JSON.stringify({ type: 'index', index: { n }, ts: n })}`);
  return { realtime, pubsub, tick };
}

function wired(realtime: RealtimeHub): FakeSocket {
  const socket = new FakeSocket();
  realtime.attach(socket, 'en', socket);
  socket.writes.length = 0; // the greeting
  return socket;
}

const turn = () => new Promise((resolve) => setImmediate(resolve));
const ns = (socket: FakeSocket) =>
  socket
    .messages()
    .filter((m) => m['type'] === 'index')
    .map((m) => (m['index'] as { n: number }).n);

describe('a beat written once a socket', () => {
  it('writes a burst of ticks to each socket as one write after the burst, in order', async () => {
    const { realtime, tick } = await hub();
    const a = wired(realtime);
    const b = wired(realtime);
    for (let n = 1; n <= 8; n++) await tick(n);
    expect(a.writes).toEqual([]); // nothing while the burst is still coming
    await turn();
    for (const socket of [a, b]) {
      expect(socket.writes).toHaveLength(1);
      expect(ns(socket)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    }
  });

  it('sends a reply after the ticks the socket was given before it', async () => {
    const { realtime, tick } = await hub();
    const socket = wired(realtime);
    await tick(1);
    await tick(2);
    socket.say({ op: 'ping', t: 7 });
    await tick(3);
    await turn();
    expect(socket.messages().map((m) => m['type'] ?? '')).toEqual(['index', 'index', 'pong', 'index']);
    expect(ns(socket)).toEqual([1, 2, 3]);
  });

  it("writes a user's own event at once, after the ticks before it, not after the other sockets' bursts", async () => {
    const { realtime, tick } = await hub();
    const socket = wired(realtime);
    socket.say({ op: 'auth', token: 't'.repeat(43) });
    await new Promise((resolve) => setTimeout(resolve, 10));
    socket.writes.length = 0;
    await tick(1);
    await realtime.publishUserEvent(42, { kind: 'order.filled', at: '', data: {} });
    // written before the turn in which the burst of every socket is written
    expect(socket.messages().map((m) => m['type'])).toEqual(['index', 'event']);
    await tick(2);
    await turn();
    expect(socket.messages().map((m) => m['type'])).toEqual(['index', 'event', 'index']);
    expect(ns(socket)).toEqual([1, 2]);
  });

  it('writes the sockets of a beat in slices of FLUSH_SLICE, one a turn of the event loop', async () => {
    const { realtime, tick } = await hub();
    const sockets = Array.from({ length: FLUSH_SLICE + 5 }, () => wired(realtime));
    await tick(1);
    await tick(2);
    await turn();
    const written = () => sockets.filter((s) => s.writes.length > 0).length;
    expect(written()).toBe(FLUSH_SLICE);
    // a tick that comes between slices joins the burst of a socket still waiting, behind the others
    await tick(3);
    await turn();
    expect(written()).toBe(FLUSH_SLICE + 5);
    await turn();
    expect(sockets.map((s) => ns(s).join())).toEqual(sockets.map(() => '1,2,3'));
    expect(sockets.at(-1)?.writes).toHaveLength(1);
    expect(sockets[0]?.writes).toHaveLength(2);
  });

  it('drops a client whose unsent bytes, written and waiting, pass the limit', async () => {
    const { realtime, tick } = await hub(4096);
    const slow = wired(realtime);
    const fast = wired(realtime);
    slow.bufferedAmount = 4000;
    for (let n = 1; n <= 20; n++) await tick(n);
    await turn();
    expect(realtime.stats().dropped).toBe(1);
    expect(slow.readyState).toBe(3);
    expect(ns(fast)).toHaveLength(20);
  });
});
