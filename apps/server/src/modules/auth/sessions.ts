import { and, eq, isNull, ne } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
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
  });
  return { token, expiresAt };
}

export interface ActiveSession {
  sessionId: number;
  userId: number;
}

/** The session of a token's hash: every authenticated request runs it (src/db/statement.ts). */
const sessionStatement = statement<
  { tokenHash: string },
  { id: number; userId: number; expiresAt: Date; lastSeenAt: Date; revokedAt: Date | null }
>(
  'auth_session',
  (p) => `select id, user_id as "userId", expires_at as "expiresAt", last_seen_at as "lastSeenAt",
    revoked_at as "revokedAt" from sessions where token_hash = ${p('tokenHash')}::text limit 1`,
);

/** The session a token names, if it is neither revoked nor past its idle or absolute expiry. */
export async function resolveSession(
  db: Executor,
  clock: Clock,
  policy: SessionPolicy,
  token: string,
): Promise<ActiveSession | null> {
  if (token.length < 20 || token.length > 200) return null;
  const [row] = await run(db, sessionStatement, { tokenHash: sha256Hex(token) });
  if (!row || row.revokedAt) return null;
  const now = clock.now().getTime();
  if (now >= row.expiresAt.getTime()) return null;
  if (now >= row.lastSeenAt.getTime() + policy.idleMs) return null;
  if (now - row.lastSeenAt.getTime() >= TOUCH_INTERVAL_MS) {
    await db
      .update(sessions)
      .set({ lastSeenAt: new Date(now) })
      .where(eq(sessions.id, row.id));
  }
  return { sessionId: row.id, userId: row.userId };
}

export async function revokeSession(db: Executor, clock: Clock, sessionId: number): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: clock.now() })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

/** Revokes every live session of a user except the one given; answers how many were revoked. */
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
