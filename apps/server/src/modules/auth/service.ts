import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import {
  SMS_CODE_LENGTH,
  SMS_CODE_MAX_ATTEMPTS,
  SMS_CODE_TTL_SECONDS,
  SMS_RESEND_SECONDS,
  normalizeJapaneseMobile,
  yen,
  type Locale,
} from '@kabuto/contract';
import type { Db, Executor } from '../../db/types.js';
import { invitationCodes, smsCodes, users } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import type { Clock } from '../../lib/clock.js';
import { dummyHash, hashPassword, verifyPassword } from '../../lib/passwords.js';
import { requireStepUp } from '../passkeys/passkeys.js';
import { checkSecret, type SecretDeps } from './secrets.js';
import { refuseCommonPassword } from './common-passwords.js';
import {
  accountKey,
  clearAttempts,
  clientKey,
  countSms,
  returnAttempt,
  throttleLogin,
  type SmsCaps,
  type ThrottlePolicy,
} from './throttle.js';
import type { SmsSender } from '../../lib/sms.js';
import { newInvitationCode, newNumericCode, sha256Hex } from '../../lib/tokens.js';
import { fundDemoCash, openUserAccounts } from '../ledger/ledger.js';
import { createSession, revokeOtherSessions, type Revocation, type SessionPolicy } from './sessions.js';

export interface AuthDeps {
  db: Db;
  clock: Clock;
  sms: SmsSender;
  sessionPolicy: SessionPolicy;
  /** Called once sessions revoked here have committed (AppContext.revokedSessions). */
  revokedSessions: (revocation: Revocation) => Promise<void>;
  /** the failed-login throttle and the SMS caps (throttle.ts, ADR 0030) */
  loginThrottle: ThrottlePolicy;
  smsCaps: SmsCaps;
  /** Demo cash given to each new account in demo mode, in yen; 0 gives none. */
  demoCashYen: number;
  /** Tells the user of a sign-in from a new device (new-device.ts); called before the session is written. */
  newDevice?: (userId: number, userAgent: string | undefined, ip: string | undefined) => Promise<unknown>;
}

const smsHash = (phone: string, code: string) => sha256Hex(`${phone}:${code}`);

/**
 * Sends a code to `phone` for registration or for signing in past the failed-login throttle. The answer is
 * the same whether or not the number is registered (ADR 0030): a registration code goes out either way (the
 * taken number is told only to whoever holds its code, at registration), and a login code is stored for any
 * number but sent only to a registered one. Each request counts against the client's and the number range's
 * daily caps (SMS pumping).
 */
export async function sendSmsCode(
  deps: AuthDeps,
  phone: string,
  purpose: 'register' | 'login',
  client: string,
  /** where a login code's failed send is reported (it is sent after the answer) */
  onSendError: (error: unknown) => void,
): Promise<{ resend_after_seconds: number; expires_in_seconds: number }> {
  const { db, clock } = deps;
  const now = clock.now();
  const [last] = await db
    .select({ createdAt: smsCodes.createdAt })
    .from(smsCodes)
    .where(and(eq(smsCodes.phone, phone), eq(smsCodes.purpose, purpose)))
    .orderBy(desc(smsCodes.createdAt))
    .limit(1);
  if (last) {
    const waitMs = last.createdAt.getTime() + SMS_RESEND_SECONDS * 1000 - now.getTime();
    if (waitMs > 0) throw new AppError('SMS_RESEND_TOO_SOON', { seconds: Math.ceil(waitMs / 1000) });
  }
  await countSms(db, deps.smsCaps, { client, phone }, now);
  const [registered] = await db.select({ id: users.id }).from(users).where(eq(users.phone, phone)).limit(1);
  const code = newNumericCode(SMS_CODE_LENGTH);
  await db.insert(smsCodes).values({
    phone,
    purpose,
    codeHash: smsHash(phone, code),
    createdAt: now,
    expiresAt: new Date(now.getTime() + SMS_CODE_TTL_SECONDS * 1000),
  });
  const message = { phone, code, purpose, sentAt: now.toISOString() };
  if (purpose === 'register') {
    await deps.sms.send(message);
  } else if (registered) {
    // not awaited: a gateway's round trip would otherwise time the answer apart from an unknown number's
    deps.sms.send(message).catch(onSendError);
  }
  return { resend_after_seconds: SMS_RESEND_SECONDS, expires_in_seconds: SMS_CODE_TTL_SECONDS };
}

/**
 * Checks an SMS code. A wrong guess is counted in its own statement (not in the caller's transaction)
 * so that a failed registration cannot roll the count back. Answers the code's id when it matches.
 */
async function checkSmsCode(
  deps: AuthDeps,
  phone: string,
  purpose: 'register' | 'login',
  code: string,
): Promise<number> {
  const { db, clock } = deps;
  const [row] = await db
    .select()
    .from(smsCodes)
    .where(and(eq(smsCodes.phone, phone), eq(smsCodes.purpose, purpose), isNull(smsCodes.consumedAt)))
    .orderBy(desc(smsCodes.createdAt))
    .limit(1);
  if (!row) throw new AppError('SMS_CODE_INVALID');
  if (row.expiresAt.getTime() <= clock.now().getTime()) throw new AppError('SMS_CODE_EXPIRED');
  const [counted] = await db
    .update(smsCodes)
    .set({ attempts: sql`${smsCodes.attempts} + 1` })
    .where(and(eq(smsCodes.id, row.id), sql`${smsCodes.attempts} < ${SMS_CODE_MAX_ATTEMPTS}`))
    .returning({ attempts: smsCodes.attempts });
  if (!counted) throw new AppError('SMS_TOO_MANY_ATTEMPTS');
  if (row.codeHash !== smsHash(phone, code)) {
    throw new AppError(
      counted.attempts >= SMS_CODE_MAX_ATTEMPTS ? 'SMS_TOO_MANY_ATTEMPTS' : 'SMS_CODE_INVALID',
    );
  }
  return row.id;
}

export interface RegisterInput {
  phone: string;
  password: string;
  invite_code: string;
  sms_code: string;
}

export async function register(deps: AuthDeps, input: RegisterInput): Promise<{ user_id: number }> {
  const { db } = deps;
  const [invite] = await db
    .select()
    .from(invitationCodes)
    .where(and(eq(invitationCodes.code, input.invite_code), eq(invitationCodes.active, true)))
    .limit(1);
  if (!invite) throw new AppError('INVITE_CODE_INVALID');
  refuseCommonPassword(input.password);
  // the code first: only whoever holds the number learns that it is taken (ADR 0030)
  const smsId = await checkSmsCode(deps, input.phone, 'register', input.sms_code);
  const [taken] = await db.select({ id: users.id }).from(users).where(eq(users.phone, input.phone)).limit(1);
  if (taken) throw new AppError('PHONE_TAKEN');
  const passwordHash = await hashPassword(input.password);
  try {
    return await db.transaction(async (tx) => {
      const consumed = await tx
        .update(smsCodes)
        .set({ consumedAt: deps.clock.now() })
        .where(and(eq(smsCodes.id, smsId), isNull(smsCodes.consumedAt)))
        .returning({ id: smsCodes.id });
      if (consumed.length === 0) throw new AppError('SMS_CODE_INVALID');
      const userId = await createUser(tx, deps, {
        phone: input.phone,
        passwordHash,
        invitedByCode: invite.code,
        inviterUserId: invite.ownerUserId,
      });
      return { user_id: userId };
    });
  } catch (error) {
    if (isUniqueViolation(error, 'users_phone_uq')) throw new AppError('PHONE_TAKEN');
    throw error;
  }
}

/** Creates a user with their own invitation code and ledger accounts (and demo cash in demo mode). */
export async function createUser(
  tx: Executor,
  deps: Pick<AuthDeps, 'clock' | 'demoCashYen'>,
  fields: { phone: string; passwordHash: string; invitedByCode: string; inviterUserId: number | null },
): Promise<number> {
  const ownCode = await unusedInvitationCode(tx);
  const [user] = await tx
    .insert(users)
    .values({ ...fields, invitationCode: ownCode, createdAt: deps.clock.now() })
    .returning({ id: users.id });
  if (!user) throw new Error('user was not created');
  await tx.insert(invitationCodes).values({ code: ownCode, kind: 'user', ownerUserId: user.id });
  await openUserAccounts(tx, user.id);
  if (deps.demoCashYen > 0) await fundDemoCash(tx, user.id, yen(deps.demoCashYen), deps.clock.now());
  return user.id;
}

async function unusedInvitationCode(db: Executor): Promise<string> {
  for (;;) {
    const code = newInvitationCode();
    const [exists] = await db
      .select({ code: invitationCodes.code })
      .from(invitationCodes)
      .where(eq(invitationCodes.code, code))
      .limit(1);
    if (!exists) return code;
  }
}

export interface LoginResult {
  token: string;
  userId: number;
  expiresAt: Date;
}

export interface LoginInput {
  account: string;
  password: string;
  /** a login code from sendSmsCode: signs in past the throttle */
  smsCode?: string | undefined;
  /** the client's address (the throttle's second key; also the session's network, ADR 0031) */
  client: string;
  userAgent: string | undefined;
}

/**
 * Signs in (ADR 0030). Without an SMS code, the attempt is first counted against the client and the account
 * as typed; either one waiting answers LOGIN_THROTTLED, the same for an unknown account as for a known one
 * and before any password is checked. With a login SMS code, the throttle is passed by: the code's own five
 * attempts bound the guesses, each sign-in attempt with it using one.
 */
export async function login(deps: AuthDeps, input: LoginInput): Promise<LoginResult> {
  const { db, clock } = deps;
  const now = clock.now();
  const phone = normalizeJapaneseMobile(input.account);
  const keys = {
    account: accountKey(phone ?? input.account.trim().toLowerCase()),
    client: clientKey(input.client),
  };
  let smsId: number | undefined;
  if (input.smsCode === undefined) {
    await throttleLogin(db, deps.loginThrottle, keys, now);
  } else {
    if (!phone) throw new AppError('SMS_CODE_INVALID');
    smsId = await checkSmsCode(deps, phone, 'login', input.smsCode);
  }
  const [user] = phone ? await db.select().from(users).where(eq(users.phone, phone)).limit(1) : [];
  if (!user) {
    await verifyPassword(await dummyHash(), input.password);
    throw new AppError('LOGIN_FAILED');
  }
  if (!(await verifyPassword(user.passwordHash, input.password))) throw new AppError('LOGIN_FAILED');
  if (smsId !== undefined) {
    const consumed = await db
      .update(smsCodes)
      .set({ consumedAt: now })
      .where(and(eq(smsCodes.id, smsId), isNull(smsCodes.consumedAt)))
      .returning({ id: smsCodes.id });
    if (consumed.length === 0) throw new AppError('SMS_CODE_INVALID');
  } else {
    await returnAttempt(db, keys.client, deps.loginThrottle.clientFree);
  }
  await clearAttempts(db, keys.account);
  if (deps.newDevice) await deps.newDevice(user.id, input.userAgent, input.client);
  const session = await createSession(db, clock, deps.sessionPolicy, user.id, input.userAgent, input.client);
  return { token: session.token, userId: user.id, expiresAt: session.expiresAt };
}

async function loadUser(db: Executor, userId: number) {
  const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!user) throw new AppError('UNAUTHENTICATED');
  return user;
}

export async function changePassword(
  deps: AuthDeps & SecretDeps,
  session: { userId: number; sessionId: number },
  oldPassword: string,
  newPassword: string,
  locale: Locale,
  stepUpToken?: string,
): Promise<{ revoked_sessions: number }> {
  refuseCommonPassword(newPassword);
  const user = await loadUser(deps.db, session.userId);
  await checkSecret(deps, user, 'login', user.passwordHash, oldPassword, locale);
  if (oldPassword === newPassword) throw new AppError('PASSWORD_SAME_AS_OLD');
  const passwordHash = await hashPassword(newPassword);
  const revoked = await deps.db.transaction(async (tx) => {
    await requireStepUp({ db: tx, clock: deps.clock }, user.id, { action: 'change_password' }, stepUpToken);
    await tx
      .update(users)
      .set({ passwordHash, passwordChangedAt: deps.clock.now() })
      .where(eq(users.id, user.id));
    return revokeOtherSessions(tx, deps.clock, user.id, session.sessionId);
  });
  await deps.revokedSessions({ userId: user.id, exceptSessionId: session.sessionId });
  return { revoked_sessions: revoked };
}

export async function setTxnPassword(
  deps: AuthDeps & SecretDeps,
  userId: number,
  loginPassword: string,
  newPassword: string,
  locale: Locale,
): Promise<void> {
  const user = await loadUser(deps.db, userId);
  if (user.txnPasswordHash) throw new AppError('TXN_PASSWORD_ALREADY_SET');
  await checkSecret(deps, user, 'login', user.passwordHash, loginPassword, locale);
  const txnPasswordHash = await hashPassword(newPassword);
  const updated = await deps.db
    .update(users)
    .set({ txnPasswordHash })
    .where(and(eq(users.id, userId), isNull(users.txnPasswordHash)))
    .returning({ id: users.id });
  if (updated.length === 0) throw new AppError('TXN_PASSWORD_ALREADY_SET');
}

export async function changeTxnPassword(
  deps: AuthDeps & SecretDeps,
  userId: number,
  oldPassword: string,
  newPassword: string,
  locale: Locale,
  stepUpToken?: string,
): Promise<void> {
  const user = await loadUser(deps.db, userId);
  if (!user.txnPasswordHash) throw new AppError('TXN_PASSWORD_NOT_SET');
  await checkSecret(deps, user, 'txn', user.txnPasswordHash, oldPassword, locale);
  if (oldPassword === newPassword) throw new AppError('PASSWORD_SAME_AS_OLD');
  const txnPasswordHash = await hashPassword(newPassword);
  await deps.db.transaction(async (tx) => {
    await requireStepUp(
      { db: tx, clock: deps.clock },
      userId,
      { action: 'change_txn_password' },
      stepUpToken,
    );
    await tx.update(users).set({ txnPasswordHash }).where(eq(users.id, userId));
  });
}

/** Postgres unique violation (23505) on a named constraint; drizzle wraps driver errors in `cause`. */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  for (let e: unknown = error; e instanceof Error || (typeof e === 'object' && e !== null);) {
    const rec = e as { code?: unknown; constraint?: unknown; message?: unknown; cause?: unknown };
    if (rec.code === '23505' && (rec.constraint === constraint || String(rec.message).includes(constraint))) {
      return true;
    }
    e = rec.cause;
    if (e === undefined) break;
  }
  return false;
}
