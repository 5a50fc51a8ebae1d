import { describe, expect, it } from 'vitest';
import { SessionCache } from './sessions.js';

const policy = { idleMs: 30 * 60_000, absoluteMs: 12 * 3_600_000 };
const T0 = Date.parse('2026-11-24T01:00:00Z');
const session = (
  sessionId: number,
  userId: number,
  over: Partial<{ expiresAt: number; lastSeenAt: number }> = {},
) => ({
  sessionId,
  userId,
  expiresAt: T0 + policy.absoluteMs,
  lastSeenAt: T0,
  readAt: T0,
  ...over,
});

describe('SessionCache', () => {
  it('answers a session read less than the TTL ago, and forgets it at the TTL', () => {
    const cache = new SessionCache(5_000);
    cache.store('h1', session(1, 10), cache.ticket());
    expect(cache.lookup('h1', T0 + 4_999, policy)).toMatchObject({ sessionId: 1, userId: 10 });
    expect(cache.lookup('h1', T0 + 5_000, policy)).toBeUndefined();
    expect(cache.size).toBe(0);
    expect(cache.lookup('unknown', T0, policy)).toBeUndefined();
  });

  it('checks the absolute and idle expiry on every lookup, within the TTL too', () => {
    const cache = new SessionCache(60_000);
    cache.store('abs', session(1, 10, { expiresAt: T0 + 1_000 }), cache.ticket());
    expect(cache.lookup('abs', T0 + 999, policy)).toBeDefined();
    expect(cache.lookup('abs', T0 + 1_000, policy)).toBeUndefined();
    // An idle limit shorter than the touch interval, so that the idle check itself is what refuses.
    const shortIdle = { ...policy, idleMs: 30_000 };
    const idleCache = new SessionCache(60_000);
    idleCache.store('idle', session(2, 10, { lastSeenAt: T0 - 29_500 }), idleCache.ticket());
    expect(idleCache.lookup('idle', T0 + 499, shortIdle)).toBeDefined();
    expect(idleCache.lookup('idle', T0 + 500, shortIdle)).toBeUndefined();
  });

  it('sends a lookup to the database when the session is due to be touched', () => {
    const cache = new SessionCache(60_000);
    cache.store('h', session(1, 10, { lastSeenAt: T0 - 59_000 }), cache.ticket());
    expect(cache.lookup('h', T0 + 999, policy)).toBeDefined();
    expect(cache.lookup('h', T0 + 1_000, policy)).toBeUndefined();
  });

  it('does not answer for a time before the read (a clock set back)', () => {
    const cache = new SessionCache(5_000);
    cache.store('h', session(1, 10), cache.ticket());
    expect(cache.lookup('h', T0 - 1, policy)).toBeUndefined();
  });

  it('forgets one session, or all of a user’s but the one kept', () => {
    const cache = new SessionCache(5_000);
    cache.store('a', session(1, 10), cache.ticket());
    cache.store('b', session(2, 10), cache.ticket());
    cache.store('c', session(3, 10), cache.ticket());
    cache.store('d', session(4, 11), cache.ticket());
    cache.forget({ sessionId: 1 });
    expect(cache.lookup('a', T0, policy)).toBeUndefined();
    expect(cache.lookup('b', T0, policy)).toBeDefined();
    cache.forget({ userId: 10, exceptSessionId: 3 });
    expect(cache.lookup('b', T0, policy)).toBeUndefined();
    expect(cache.lookup('c', T0, policy)).toBeDefined();
    expect(cache.lookup('d', T0, policy)).toBeDefined();
  });

  it('does not keep a read that was in flight when a revocation came (it may predate the revocation)', () => {
    const cache = new SessionCache(5_000);
    const ticket = cache.ticket();
    cache.forget({ sessionId: 99 });
    cache.store('late', session(1, 10), ticket);
    expect(cache.lookup('late', T0, policy)).toBeUndefined();
    cache.store('late', session(1, 10), cache.ticket());
    expect(cache.lookup('late', T0, policy)).toBeDefined();
  });

  it('keeps nothing with a TTL of 0, and at most maxEntries (the oldest go first)', () => {
    const off = new SessionCache(0);
    off.store('h', session(1, 10), off.ticket());
    expect(off.size).toBe(0);
    const small = new SessionCache(5_000, 2);
    small.store('a', session(1, 10), small.ticket());
    small.store('b', session(2, 10), small.ticket());
    small.store('c', session(3, 10), small.ticket());
    expect(small.size).toBe(2);
    expect(small.lookup('a', T0, policy)).toBeUndefined();
    expect(small.lookup('c', T0, policy)).toBeDefined();
  });
});
