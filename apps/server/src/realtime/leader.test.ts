import type { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RedisLeader } from './leader.js';

/** A Redis whose answers the test gives, one at a time, when it chooses. */
class SlowRedis {
  readonly calls: string[] = [];
  /** ioredis's connection state: 'ready' while connected */
  status = 'ready';
  /** what PUBSUB NUMSUB answers at once (the solo fallback's count of processes) */
  subscribers = 1;
  pubsub(subcommand: string, channel: string): Promise<unknown> {
    this.calls.push(`count ${subcommand} ${channel}`);
    return Promise.resolve([channel, this.subscribers]);
  }
  private readonly answers: { resolve: (value: unknown) => void; reject: (error: Error) => void }[] = [];
  set(): Promise<unknown> {
    this.calls.push('set');
    return new Promise((resolve, reject) => this.answers.push({ resolve, reject }));
  }
  eval(script: string): Promise<unknown> {
    this.calls.push(script.includes("'del'") ? 'release' : 'renew');
    return new Promise((resolve, reject) => this.answers.push({ resolve, reject }));
  }
  get waiting(): number {
    return this.answers.length;
  }
  /** Answers the oldest command still waiting. */
  answer(value: unknown): void {
    this.answers.shift()?.resolve(value);
  }
  /** Fails the oldest command still waiting. */
  fail(error: Error): void {
    this.answers.shift()?.reject(error);
  }
}

const EVERY_MS = 1_500;

describe('the producer lease', () => {
  let redis: SlowRedis;
  let leader: RedisLeader;
  let changes: boolean[];
  beforeEach(() => {
    vi.useFakeTimers();
    redis = new SlowRedis();
    leader = new RedisLeader(redis as unknown as Redis, 'node-a', 'test:leader', 5_000, EVERY_MS);
    changes = [];
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('asks again only once Redis has answered, so a late answer cannot undo the lease just taken', async () => {
    // A key living 10 s: the grant, answered after 3 s, is still good when the renewal is answered.
    leader = new RedisLeader(redis as unknown as Redis, 'node-a', 'test:leader', 10_000, EVERY_MS);
    leader.start((isLeader) => changes.push(isLeader));
    // Redis takes longer than the renewal period to answer the first SET NX (a paused process, a busy
    // machine). A second SET NX sent meanwhile would be refused (the key is by then this node's own) and,
    // answered after the first, would make the node give up the lease it holds: it would stop producing
    // and, having stopped renewing, could lose the key to another node when it expires.
    await vi.advanceTimersByTimeAsync(EVERY_MS * 2);
    redis.answer('OK');
    while (redis.waiting > 0) redis.answer(null);
    await vi.advanceTimersByTimeAsync(0);
    expect(changes).toEqual([true]);
    expect(leader.isLeader).toBe(true);
    expect(redis.calls).toEqual(['set']);

    // The next round renews it.
    await vi.advanceTimersByTimeAsync(EVERY_MS);
    expect(redis.calls).toEqual(['set', 'renew']);
    redis.answer(1);
    await vi.advanceTimersByTimeAsync(0);
    expect(changes).toEqual([true]);
  });

  it('hands back a lease that Redis grants after the node has stopped, without producing', async () => {
    leader.start((isLeader) => changes.push(isLeader));
    await leader.stop();
    redis.answer('OK');
    await vi.advanceTimersByTimeAsync(EVERY_MS * 3);
    expect(changes).toEqual([]);
    expect(leader.isLeader).toBe(false);
    expect(redis.calls).toEqual(['set', 'release']);
  });

  it('stops producing when a renewal goes unanswered until the key could expire, and renews when Redis is back', async () => {
    leader.start((isLeader) => changes.push(isLeader));
    redis.answer('OK'); // granted at 0 ms: the key lives at least until 5,000 ms
    await vi.advanceTimersByTimeAsync(0);
    expect(changes).toEqual([true]);

    // At 1,500 ms the renewal goes out and Redis is cut off: the client queues it and nothing comes back.
    await vi.advanceTimersByTimeAsync(EVERY_MS);
    expect(redis.calls).toEqual(['set', 'renew']);
    await vi.advanceTimersByTimeAsync(4_499 - EVERY_MS);
    expect(leader.isLeader).toBe(true);
    // A tenth of the time-to-live before the key can expire, and so before another node can take it, this
    // node stops producing.
    await vi.advanceTimersByTimeAsync(1);
    expect(changes).toEqual([true, false]);
    expect(leader.isLeader).toBe(false);
    // No second request meanwhile.
    await vi.advanceTimersByTimeAsync(EVERY_MS * 2);
    expect(redis.calls).toEqual(['set', 'renew']);

    // Redis comes back at 7,500 ms and answers the queued renewal: the key is still this node's, but the
    // grant counts from 1,500 ms and has lapsed, so it produces nothing on it...
    redis.answer(1);
    await vi.advanceTimersByTimeAsync(0);
    expect(changes).toEqual([true, false]);
    // ...and renews it next round, rather than asking for a key it holds, and produces again.
    await vi.advanceTimersByTimeAsync(EVERY_MS);
    expect(redis.calls).toEqual(['set', 'renew', 'renew']);
    redis.answer(1);
    await vi.advanceTimersByTimeAsync(0);
    expect(changes).toEqual([true, false, true]);
    // That grant runs its own time: answered renewals keep the node producing.
    for (let round = 0; round < 5; round += 1) {
      await vi.advanceTimersByTimeAsync(EVERY_MS);
      redis.answer(1);
    }
    await vi.advanceTimersByTimeAsync(0);
    expect(changes).toEqual([true, false, true]);
  });

  it('stops at once when a renewal is refused or fails, and then asks for the key again', async () => {
    leader.start((isLeader) => changes.push(isLeader));
    redis.answer('OK');
    await vi.advanceTimersByTimeAsync(EVERY_MS);
    redis.answer(0); // the key is another node's (it expired and was taken)
    await vi.advanceTimersByTimeAsync(0);
    expect(changes).toEqual([true, false]);
    await vi.advanceTimersByTimeAsync(EVERY_MS);
    expect(redis.calls).toEqual(['set', 'renew', 'set']);
    redis.answer('OK');
    await vi.advanceTimersByTimeAsync(0);
    expect(changes).toEqual([true, false, true]);
    // A renewal that fails (the connection reset, a script error) stops production just the same.
    await vi.advanceTimersByTimeAsync(EVERY_MS);
    redis.fail(new Error('ECONNRESET'));
    await vi.advanceTimersByTimeAsync(0);
    expect(changes).toEqual([true, false, true, false]);
    await vi.advanceTimersByTimeAsync(EVERY_MS);
    expect(redis.calls).toEqual(['set', 'renew', 'set', 'renew', 'set']);
  });

  it('gives the key back on stop, so another node need not wait for it to expire', async () => {
    leader.start((isLeader) => changes.push(isLeader));
    redis.answer('OK');
    await vi.advanceTimersByTimeAsync(0);
    const stopped = leader.stop();
    redis.answer(1);
    await stopped;
    expect(changes).toEqual([true, false]);
    expect(redis.calls).toEqual(['set', 'release']);
    // Its lease's timer is gone with it: nothing more happens.
    await vi.advanceTimersByTimeAsync(10_000);
    expect(changes).toEqual([true, false]);
    expect(redis.calls).toEqual(['set', 'release']);
  });
});

describe('the solo fallback (one process, Redis lost)', () => {
  let redis: SlowRedis;
  let changes: boolean[];
  let solos: boolean[];
  const start = () => {
    const leader = new RedisLeader(
      redis as unknown as Redis,
      'node-a',
      'test:leader',
      5_000,
      EVERY_MS,
      undefined,
      {
        channel: 'test:market',
        onSolo: (solo) => solos.push(solo),
      },
    );
    leader.start((isLeader) => changes.push(isLeader));
    return leader;
  };
  beforeEach(() => {
    vi.useFakeTimers();
    redis = new SlowRedis();
    changes = [];
    solos = [];
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Takes the lease at 0 ms; at 1,500 ms the renewal goes out and Redis is cut off (nothing answers). */
  async function leadThenLoseRedis(): Promise<void> {
    redis.answer('OK');
    await vi.advanceTimersByTimeAsync(0);
    expect(redis.calls).toEqual(['set', 'count NUMSUB test:market']);
    await vi.advanceTimersByTimeAsync(EVERY_MS);
    redis.status = 'reconnecting';
  }

  it('keeps producing when Redis counted it alone, and goes back to the lease when Redis answers again', async () => {
    const leader = start();
    await leadThenLoseRedis();
    // Past the lease's lapse (4,500 ms) the node is still the producer, now without Redis.
    await vi.advanceTimersByTimeAsync(10_000);
    expect(changes).toEqual([true]);
    expect(solos).toEqual([true]);
    expect(leader.isLeader).toBe(true);
    expect(leader.isSolo).toBe(true);
    // Redis is back; the queued renewal is refused (the key expired meanwhile): the node stops, then takes the
    // key again in the next round like any node.
    redis.status = 'ready';
    redis.answer(0);
    await vi.advanceTimersByTimeAsync(0);
    expect(changes).toEqual([true, false]);
    expect(solos).toEqual([true, false]);
    await vi.advanceTimersByTimeAsync(EVERY_MS);
    redis.answer('OK');
    await vi.advanceTimersByTimeAsync(0);
    expect(changes).toEqual([true, false, true]);
    expect(leader.isSolo).toBe(false);
    const stopped = leader.stop();
    while (redis.waiting > 0) redis.answer(1);
    await stopped;
    expect(solos).toEqual([true, false]);
  });

  it('stops producing when Redis counted another process, as without the fallback', async () => {
    redis.subscribers = 2;
    const leader = start();
    await leadThenLoseRedis();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(changes).toEqual([true, false]);
    expect(solos).toEqual([]);
    expect(leader.isLeader).toBe(false);
  });

  it('stops producing when Redis is connected but slow: only an unreachable Redis allows the fallback', async () => {
    const leader = start();
    redis.answer('OK');
    await vi.advanceTimersByTimeAsync(EVERY_MS); // the renewal goes out; Redis stays 'ready' and never answers
    await vi.advanceTimersByTimeAsync(10_000);
    expect(changes).toEqual([true, false]);
    expect(solos).toEqual([]);
    expect(leader.isLeader).toBe(false);
  });

  it('has no fallback when none was configured (MARKET_SOLO_FALLBACK=false)', async () => {
    const leader = new RedisLeader(redis as unknown as Redis, 'node-a', 'test:leader', 5_000, EVERY_MS);
    leader.start((isLeader) => changes.push(isLeader));
    redis.answer('OK');
    await vi.advanceTimersByTimeAsync(EVERY_MS);
    redis.status = 'reconnecting';
    await vi.advanceTimersByTimeAsync(10_000);
    expect(redis.calls).toEqual(['set', 'renew']);
    expect(changes).toEqual([true, false]);
  });
});
