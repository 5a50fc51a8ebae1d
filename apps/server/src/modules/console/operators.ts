import { randomBytes } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { LOGIN_MAX_FAILURES, type TOperator, type TOperatorRole } from '@kabuto/contract';
import type { Executor } from '../../db/types.js';
import { operatorSessions, operators, passkeys } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import type { Clock } from '../../lib/clock.js';
import { dummyHash, hashPassword, verifyPassword } from '../../lib/passwords.js';
import { newToken, sha256Hex } from '../../lib/tokens.js';
import type { SessionPolicy } from '../auth/sessions.js';
import { audit } from './audit.js';

export type OperatorRow = typeof operators.$inferSelect;

/** What a console request knows of its operator. */
export interface OperatorPrincipal {
  id: number;
  username: string;
  displayName: string;
  role: TOperatorRole;
  mustChangePassword: boolean;
  /** whether the operator has registered a passkey (an administrator without one is held, ADR 0033) */
  hasPasskey: boolean;
  sessionId: number;
}

/** What an administrator's change needs: the clock, and who is acting (admin.ts, four-eyes.ts). */
export interface AdminDeps {
  clock: Clock;
  operator: OperatorPrincipal;
}

export const BOOTSTRAP_ADMIN = 'admin';

export function operatorView(row: OperatorRow): TOperator {
  return {
    id: row.id,
    username: row.username,
    display_name: row.displayName,
    role: row.role,
    must_change_password: row.mustChangePassword,
    active: row.active,
    locked_until: row.lockedUntil?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

/** A one-time password: 18 random bytes, base64url (24 characters). */
export function oneTimePassword(): string {
  return randomBytes(18).toString('base64url');
}

/**
 * At first start, when there is no operator at all: creates the administrator `admin` with a one-time
 * password (CONSOLE_ADMIN_PASSWORD, or a random one) that must be changed at first login. Answers the
 * password when it was generated here, so the caller prints it once; null when nothing was created.
 */
export async function ensureBootstrapAdmin(
  db: Executor,
  clock: Clock,
  configured: string | undefined,
): Promise<{ created: boolean; generatedPassword: string | null }> {
  const [any] = await db.select({ id: operators.id }).from(operators).limit(1);
  if (any) return { created: false, generatedPassword: null };
  const password = configured ?? oneTimePassword();
  const [created] = await db
    .insert(operators)
    .values({
      username: BOOTSTRAP_ADMIN,
      displayName: 'Administrator',
      passwordHash: await hashPassword(password),
      role: 'administrator',
      mustChangePassword: true,
      createdAt: clock.now(),
    })
    .onConflictDoNothing()
    .returning({ id: operators.id });
  if (!created) return { created: false, generatedPassword: null };
  await audit(db, {
    operatorId: null,
    action: 'operator.create',
    targetType: 'operator',
    targetId: created.id,
    after: { username: BOOTSTRAP_ADMIN, role: 'administrator' },
    at: clock.now(),
  });
  return { created: true, generatedPassword: configured === undefined ? password : null };
}

export interface OperatorAuthDeps {
  db: Executor;
  clock: Clock;
  policy: SessionPolicy;
  lockMinutes: number;
}

/** Checks a username and password; counts failures and locks the account after LOGIN_MAX_FAILURES in a row. */
export async function operatorLogin(
  deps: OperatorAuthDeps,
  username: string,
  password: string,
  locale: string,
): Promise<{ token: string; expiresAt: Date; operator: OperatorRow }> {
  const { db, clock } = deps;
  const now = clock.now();
  const [row] = await db.select().from(operators).where(eq(operators.username, username.toLowerCase()));
  if (!row || !row.active) {
    await verifyPassword(await dummyHash(), password);
    throw new AppError('OPERATOR_LOGIN_FAILED');
  }
  if (row.lockedUntil && row.lockedUntil > now) {
    throw new AppError('OPERATOR_LOCKED', {
      until: row.lockedUntil.toLocaleString(locale, { timeZone: 'Asia/Tokyo' }),
    });
  }
  // An administrator with a passkey signs in with it (ADR 0033). Refused before the password is checked:
  // the answer never says whether the password was right, and guessing it counts for nothing.
  if (row.role === 'administrator' && (await operatorHasPasskey(db, row.id))) {
    throw new AppError('OPERATOR_PASSKEY_SIGN_IN');
  }
  if (!(await verifyPassword(row.passwordHash, password))) {
    await countOperatorPasswordFailure(deps, row.id, 'operator.login_failed');
    throw new AppError('OPERATOR_LOGIN_FAILED');
  }
  await db.update(operators).set({ failedLogins: 0, lockedUntil: null }).where(eq(operators.id, row.id));
  const { token, expiresAt } = await openOperatorSession(deps, row.id, 'operator.login');
  return { token, expiresAt, operator: { ...row, failedLogins: 0, lockedUntil: null } };
}

/**
 * A wrong operator password (at sign-in, or at a console step-up, ADR 0049): counts toward the lockout of
 * LOGIN_MAX_FAILURES in a row, and is audited under `action`.
 */
export async function countOperatorPasswordFailure(
  deps: Pick<OperatorAuthDeps, 'db' | 'clock' | 'lockMinutes'>,
  operatorId: number,
  action: 'operator.login_failed' | 'operator.step_up_failed',
): Promise<void> {
  const { db, clock } = deps;
  const now = clock.now();
  const lockedUntil = new Date(now.getTime() + deps.lockMinutes * 60_000);
  await db
    .update(operators)
    .set({
      failedLogins: sql`case when ${operators.failedLogins} + 1 >= ${LOGIN_MAX_FAILURES} then 0 else ${operators.failedLogins} + 1 end`,
      lockedUntil: sql`case when ${operators.failedLogins} + 1 >= ${LOGIN_MAX_FAILURES} then ${lockedUntil.toISOString()}::timestamptz else ${operators.lockedUntil} end`,
    })
    .where(eq(operators.id, operatorId));
  await audit(db, { operatorId, action, targetType: 'operator', targetId: operatorId, at: now });
}

export async function operatorHasPasskey(db: Executor, operatorId: number): Promise<boolean> {
  const [key] = await db
    .select({ id: passkeys.id })
    .from(passkeys)
    .where(eq(passkeys.operatorId, operatorId))
    .limit(1);
  return key !== undefined;
}

/** A new console session for the operator, audited as `action` (a password or a passkey sign-in). */
export async function openOperatorSession(
  deps: Omit<OperatorAuthDeps, 'lockMinutes'>,
  operatorId: number,
  action: 'operator.login' | 'operator.login_passkey',
  after?: unknown,
): Promise<{ token: string; expiresAt: Date }> {
  const now = deps.clock.now();
  const token = newToken();
  const expiresAt = new Date(now.getTime() + deps.policy.absoluteMs);
  await deps.db.insert(operatorSessions).values({
    operatorId,
    tokenHash: sha256Hex(token),
    createdAt: now,
    lastSeenAt: now,
    expiresAt,
  });
  await audit(deps.db, { operatorId, action, targetType: 'operator', targetId: operatorId, after, at: now });
  return { token, expiresAt };
}

const TOUCH_INTERVAL_MS = 60_000;

/** The operator a bearer token names, if its session is live and the operator still active. */
export async function resolveOperator(
  deps: Omit<OperatorAuthDeps, 'lockMinutes'>,
  token: string,
): Promise<OperatorPrincipal | null> {
  if (token.length < 20 || token.length > 200) return null;
  const [row] = await deps.db
    .select({
      session: operatorSessions,
      operator: operators,
      hasPasskey: sql<boolean>`exists (select 1 from ${passkeys} where ${passkeys.operatorId} = ${operators.id})`,
    })
    .from(operatorSessions)
    .innerJoin(operators, eq(operators.id, operatorSessions.operatorId))
    .where(eq(operatorSessions.tokenHash, sha256Hex(token)))
    .limit(1);
  if (!row || row.session.revokedAt || !row.operator.active) return null;
  const now = deps.clock.now().getTime();
  if (now >= row.session.expiresAt.getTime()) return null;
  if (now >= row.session.lastSeenAt.getTime() + deps.policy.idleMs) return null;
  if (now - row.session.lastSeenAt.getTime() >= TOUCH_INTERVAL_MS) {
    await deps.db
      .update(operatorSessions)
      .set({ lastSeenAt: new Date(now) })
      .where(eq(operatorSessions.id, row.session.id));
  }
  return {
    id: row.operator.id,
    username: row.operator.username,
    displayName: row.operator.displayName,
    role: row.operator.role,
    mustChangePassword: row.operator.mustChangePassword,
    hasPasskey: row.hasPasskey,
    sessionId: row.session.id,
  };
}

export async function operatorLogout(db: Executor, clock: Clock, sessionId: number): Promise<void> {
  await db
    .update(operatorSessions)
    .set({ revokedAt: clock.now() })
    .where(and(eq(operatorSessions.id, sessionId), isNull(operatorSessions.revokedAt)));
}

/** Changes the operator's password; every other session of the operator ends. */
export async function changeOperatorPassword(
  db: Executor,
  clock: Clock,
  principal: OperatorPrincipal,
  oldPassword: string,
  newPassword: string,
): Promise<OperatorRow> {
  const [row] = await db.select().from(operators).where(eq(operators.id, principal.id));
  if (!row || !(await verifyPassword(row.passwordHash, oldPassword))) throw new AppError('PASSWORD_WRONG');
  if (oldPassword === newPassword) throw new AppError('PASSWORD_SAME_AS_OLD');
  const now = clock.now();
  const [updated] = await db
    .update(operators)
    .set({ passwordHash: await hashPassword(newPassword), mustChangePassword: false })
    .where(eq(operators.id, principal.id))
    .returning();
  await db
    .update(operatorSessions)
    .set({ revokedAt: now })
    .where(
      and(
        eq(operatorSessions.operatorId, principal.id),
        isNull(operatorSessions.revokedAt),
        sql`${operatorSessions.id} <> ${principal.sessionId}`,
      ),
    );
  await audit(db, {
    operatorId: principal.id,
    action: 'operator.password_change',
    targetType: 'operator',
    targetId: principal.id,
    at: now,
  });
  if (!updated) throw new AppError('NOT_FOUND');
  return updated;
}
