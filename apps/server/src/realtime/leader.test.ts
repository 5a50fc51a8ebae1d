import type { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RedisLeader } from './leader.js';

/** A Redis whose answers the test gives, one at a time, when it chooses. */
class SlowRedis {
  readonly calls: string[] = [];
  private readonly answers: ((value: unknown) => void)[] = [];
  set(): Promise<unknown> {
    this.calls.push('set');
    return new Promise((resolve) => this.answers.push(resolve));
  }
  eval(script: string): Promise<unknown> {
    this.calls.push(script.includes("'del'") ? 'release' : 'renew');
    return new Promise((resolve) => this.answers.push(resolve));
  }
  get waiting(): number {
    return this.answers.length;
  }
  /** Answers the oldest command still waiting. */
  answer(value: unknown): void {
    this.answers.shift()?.(value);
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
});
