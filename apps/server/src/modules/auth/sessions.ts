import { and, desc, eq, gt, isNull, ne } from 'drizzle-orm';
import type { Executor } from '../../db/types.js';
import { run, statement } from '../../db/statement.js';
import { sessions } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { newToken, sha256Hex } from '../../lib/tokens.js';

/** Session lifetimes (docs/adr/0003-session-tokens.md). */
export interface SessionPolicy {
  idleMs: number;
  absoluteMs: number;
}

/** last_seen_at is written at most this often, so a busy client does not write on every request. */
const TOUCH_INTERVAL_MS = 60_000;

export async function createSession(
  db: Executor,
  clock: Clock,
  policy: SessionPolicy,
  userId: number,
  userAgent: string | undefined,
  ip?: string,
): Promise<{ token: string; expiresAt: Date }> {
  const token = newToken();
  const now = clock.now();
  const expiresAt = new Date(now.getTime() + policy.absoluteMs);
  await db.insert(sessions).values({
    userId,
    tokenHash: sha256Hex(token),
    createdAt: now,
    lastSeenAt: now,
    expiresAt,
    userAgent: userAgent?.slice(0, 300) ?? null,
    ipPrefix: ip === undefined ? null : ipPrefix(ip),
  });
  return { token, expiresAt };
}

/** An address cut to its network, which is all the list of sessions shows: IPv4 /24, IPv6 /48. */
export function ipPrefix(ip: string): string | null {
  const v4 = /^(?:::ffff:)?(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.\d{1,3}$/i.exec(ip);
  if (v4) return `${v4[1]}.${v4[2]}.${v4[3]}.0/24`;
  if (!ip.includes(':')) return null;
  const [head = ''] = ip.split('::');
  const groups = head.split(':').filter((g) => g !== '');
  while (groups.length < 3) groups.push('0');
  return `${groups.slice(0, 3).join(':')}::/48`;
}

/** A browser and system name from a user agent ("Chrome on Android"), or null when neither is known. */
export function deviceOf(userAgent: string | null): string | null {
  if (!userAgent) return null;
  const browser = [
    [/Edg\//, 'Edge'],
    [/OPR\//, 'Opera'],
    [/Firefox\//, 'Firefox'],
    [/CriOS\/|Chrome\//, 'Chrome'],
    [/Safari\//, 'Safari'],
  ].find(([re]) => (re as RegExp).test(userAgent))?.[1] as string | undefined;
  const system = [
    [/iPhone|iPad|iPod/, 'iOS'],
    [/Android/, 'Android'],
    [/Windows/, 'Windows'],
    [/Mac OS X|Macintosh/, 'macOS'],
    [/CrOS/, 'ChromeOS'],
    [/Linux/, 'Linux'],
  ].find(([re]) => (re as RegExp).test(userAgent))?.[1] as string | undefined;
  if (browser && system) return `${browser} / ${system}`;
  return browser ?? system ?? null;
}

/** The user's live sessions (not revoked, within both lifetimes), the newest first. */
export async function listSessions(db: Executor, clock: Clock, policy: SessionPolicy, userId: number) {
  const now = clock.now();
  const rows = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
    .orderBy(desc(sessions.id));
  return rows.filter((r) => now.getTime() < r.lastSeenAt.getTime() + policy.idleMs);
}

/** Revokes one of the user's own sessions; answers whether there was such a live session. */
export async function revokeOwnSession(
  db: Executor,
  clock: Clock,
  userId: number,
  sessionId: number,
): Promise<boolean> {
  const revoked = await db
    .update(sessions)
    .set({ revokedAt: clock.now() })
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return revoked.length > 0;
}

export interface ActiveSession {
  sessionId: number;
  userId: number;
}

/** The session of a token's hash: every authenticated request that misses the cache runs it (src/db/statement.ts). */
const sessionStatement = statement<
  { tokenHash: string },
  { id: number; userId: number; expiresAt: Date; lastSeenAt: Date; revokedAt: Date | null }
>(
  'auth_session',
  (p) => `select id, user_id as "userId", expires_at as "expiresAt", last_seen_at as "lastSeenAt",
    revoked_at as "revokedAt" from sessions where token_hash = ${p('tokenHash')}::text limit 1`,
);

/** Which sessions a revocation ends: one, or all of a user's but the one kept. */
export type Revocation = { sessionId: number } | { userId: number; exceptSessionId: number };

/** Whether a revocation ends this session (the cache's entries and the hub's sockets both ask). */
export function revokes(revocation: Revocation, session: ActiveSession): boolean {
  return 'sessionId' in revocation
    ? session.sessionId === revocation.sessionId
    : session.userId === revocation.userId && session.sessionId !== revocation.exceptSessionId;
}

interface CachedSession extends ActiveSession {
  expiresAt: number;
  lastSeenAt: number;
  /** when (app clock, ms) the row was read */
  readAt: number;
}

/**
 * Live sessions this process read from the database in the last `ttlMs`, so that a client's requests do
 * not each cost a round trip to the database (ADR 0014). What may be cached is only "this token named this
 * live session when it was read": expiry is checked on every request as without the cache, and a revocation
 * takes effect at once, because revokeSession/revokeOtherSessions callers `forget` after their change
 * commits, here and, through the pub/sub channel, in every other process. `ttlMs` bounds how long a
 * revocation that reached a process by no message at all (a write by hand, a lost Redis message) can go
 * unseen there. ttlMs 0 turns the cache off.
 */
export class SessionCache {
  private readonly entries = new Map<string, CachedSession>();
  /** Counts revocations: a read that started before one may be stale, and is not cached. */
  private revocations = 0;

  constructor(
    readonly ttlMs: number,
    private readonly maxEntries = 100_000,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** The cached session of a token hash, if it was read within the TTL and is still within its lifetimes. */
  lookup(tokenHash: string, now: number, policy: SessionPolicy): ActiveSession | undefined {
    const entry = this.entries.get(tokenHash);
    if (!entry) return undefined;
    if (
      now - entry.readAt >= this.ttlMs ||
      now < entry.readAt ||
      now >= entry.expiresAt ||
      now >= entry.lastSeenAt + policy.idleMs ||
      now - entry.lastSeenAt >= TOUCH_INTERVAL_MS
    ) {
      this.entries.delete(tokenHash);
      return undefined;
    }
    return entry;
  }

  /** A ticket for a read about to start: `store` accepts its result only if no revocation came between. */
  ticket(): number {
    return this.revocations;
  }

  store(tokenHash: string, session: CachedSession, ticket: number): void {
    if (this.ttlMs <= 0 || ticket !== this.revocations) return;
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(tokenHash, session);
  }

  /** Drops the cached sessions a revocation ended (and any read in flight: see `ticket`). */
  forget(revocation: Revocation): void {
    this.revocations += 1;
    for (const [hash, entry] of this.entries) if (revokes(revocation, entry)) this.entries.delete(hash);
  }
}

/** The session a token names, if it is neither revoked nor past its idle or absolute expiry. */
export async function resolveSession(
  db: Executor,
  clock: Clock,
  policy: SessionPolicy,
  token: string,
  cache?: SessionCache,
): Promise<ActiveSession | null> {
  if (token.length < 20 || token.length > 200) return null;
  const tokenHash = sha256Hex(token);
  const now = clock.now().getTime();
  const cached = cache?.lookup(tokenHash, now, policy);
  if (cached) return { sessionId: cached.sessionId, userId: cached.userId };
  const ticket = cache?.ticket() ?? 0;
  const [row] = await run(db, sessionStatement, { tokenHash });
  if (!row || row.revokedAt) return null;
  if (now >= row.expiresAt.getTime()) return null;
  if (now >= row.lastSeenAt.getTime() + policy.idleMs) return null;
  let lastSeenAt = row.lastSeenAt.getTime();
  if (now - lastSeenAt >= TOUCH_INTERVAL_MS) {
    await db
      .update(sessions)
      .set({ lastSeenAt: new Date(now) })
      .where(eq(sessions.id, row.id));
    lastSeenAt = now;
  }
  const session = { sessionId: row.id, userId: row.userId };
  cache?.store(
    tokenHash,
    { ...session, expiresAt: row.expiresAt.getTime(), lastSeenAt, readAt: now },
    ticket,
  );
  return session;
}

/** Revokes one session. The caller then has SessionCache.forget it (see AppContext.revokedSessions). */
export async function revokeSession(db: Executor, clock: Clock, sessionId: number): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: clock.now() })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

/**
 * Revokes every live session of a user except the one given; answers how many were revoked. The caller
 * has SessionCache.forget them once its transaction has committed.
 */
export async function revokeOtherSessions(
  db: Executor,
  clock: Clock,
  userId: number,
  keepSessionId: number,
): Promise<number> {
  const revoked = await db
    .update(sessions)
    .set({ revokedAt: clock.now() })
    .where(and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return revoked.length;
}
