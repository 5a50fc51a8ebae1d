import { and, eq, sql } from 'drizzle-orm';
import { MESSAGES, interpolate, type Locale } from '@kabuto/contract';
import { secretFailures } from '../../db/schema.js';
import type { Db } from '../../db/types.js';
import { AppError } from '../../lib/app-error.js';
import type { Clock } from '../../lib/clock.js';
import { verifyPassword } from '../../lib/passwords.js';
import type { SmsSender } from '../../lib/sms.js';
import { audit } from '../console/audit.js';
import { notify, publishOutbox, type EventOutbox } from '../messages/messages.js';
import type { RealtimeHub } from '../../realtime/hub.js';

/**
 * One failure counter per user and secret, shared by every route that checks that secret (issue 22): the login
 * password where it authorizes a change (new login or transaction password, bank accounts; the login route
 * has its own lockout), and the transaction password (withdrawals, its own change). Each attempt is counted
 * BEFORE its password is checked, so concurrent guesses, even spread over processes, cannot outrun the limit;
 * a success clears the count. Within a process the checks of one user's secret run one at a time, so that a
 * client's honest concurrent requests (a double tap) each see the count the previous one left.
 * The fifth failure locks the secret's uses for 30 minutes, tells the user (a message and an SMS) and writes
 * an audit row; while locked, no attempt is checked at all.
 */
export type Secret = 'login' | 'txn';
export const SECRET_MAX_FAILURES = 5;
export const SECRET_LOCK_MINUTES = 30;

const WRONG = { login: 'PASSWORD_WRONG', txn: 'TXN_PASSWORD_WRONG' } as const;
const LOCKED_KIND = { login: 'security.login_password_locked', txn: 'security.txn_password_locked' } as const;

export interface SecretDeps {
  db: Db;
  clock: Clock;
  sms: SmsSender;
  /** pushes the lock's message to the user's open screens */
  realtime: RealtimeHub;
}

export interface SecretOwner {
  id: number;
  phone: string;
}

/** The tail of each (user, secret)'s queue of checks in this process. */
const queues = new Map<string, Promise<unknown>>();

/** Runs `work` after every earlier check of the same user's secret in this process has finished. */
async function oneAtATime<T>(key: string, work: () => Promise<T>): Promise<T> {
  const before = queues.get(key) ?? Promise.resolve();
  const run = before.then(work, work);
  const tail = run.catch(() => undefined);
  queues.set(key, tail);
  try {
    return await run;
  } finally {
    if (queues.get(key) === tail) queues.delete(key);
  }
}

const minutesLeft = (until: Date, now: Date) =>
  Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 60_000));

/**
 * Checks `attempt` against `hash`, the user's `secret`; throws the secret's "wrong" error (with the attempts
 * left) or SECRET_LOCKED. Must not run inside a transaction: the count has to outlive the caller's rollback.
 */
export async function checkSecret(
  deps: SecretDeps,
  owner: SecretOwner,
  secret: Secret,
  hash: string,
  attempt: string,
  locale: Locale,
): Promise<void> {
  return oneAtATime(`${owner.id}:${secret}`, () => countedCheck(deps, owner, secret, hash, attempt, locale));
}

async function countedCheck(
  deps: SecretDeps,
  owner: SecretOwner,
  secret: Secret,
  hash: string,
  attempt: string,
  locale: Locale,
): Promise<void> {
  const now = deps.clock.now();
  const [counted] = await deps.db
    .insert(secretFailures)
    .values({ userId: owner.id, secret, failures: 1, updatedAt: now })
    .onConflictDoUpdate({
      target: [secretFailures.userId, secretFailures.secret],
      set: {
        // a lock that has run out starts a fresh count; a live one counts nothing
        failures: sql`case when ${secretFailures.lockedUntil} > ${now} then ${secretFailures.failures}
          when ${secretFailures.lockedUntil} is not null then 1 else ${secretFailures.failures} + 1 end`,
        lockedUntil: sql`case when ${secretFailures.lockedUntil} > ${now} then ${secretFailures.lockedUntil} end`,
        updatedAt: now,
      },
    })
    .returning({ failures: secretFailures.failures, lockedUntil: secretFailures.lockedUntil });
  if (!counted) throw new Error('the secret failure counter returned no row');
  if (counted.lockedUntil && counted.lockedUntil > now) {
    throw new AppError('SECRET_LOCKED', { minutes: minutesLeft(counted.lockedUntil, now) });
  }
  if (counted.failures > SECRET_MAX_FAILURES) {
    // concurrent attempts past the fifth, counted before the fifth failure's lock was written
    throw new AppError('SECRET_LOCKED', { minutes: SECRET_LOCK_MINUTES });
  }

  if (await verifyPassword(hash, attempt)) {
    await deps.db
      .update(secretFailures)
      .set({ failures: 0, updatedAt: now })
      .where(and(eq(secretFailures.userId, owner.id), eq(secretFailures.secret, secret)));
    return;
  }

  if (counted.failures < SECRET_MAX_FAILURES) {
    throw new AppError(WRONG[secret], {}, { attempts_left: SECRET_MAX_FAILURES - counted.failures });
  }
  await lockSecret(deps, owner, secret, now, locale);
  throw new AppError('SECRET_LOCKED', { minutes: SECRET_LOCK_MINUTES });
}

/** Locks the secret (once, however many attempts failed together), audits it and tells the user. */
async function lockSecret(deps: SecretDeps, owner: SecretOwner, secret: Secret, now: Date, locale: Locale) {
  const until = new Date(now.getTime() + SECRET_LOCK_MINUTES * 60_000);
  const outbox: EventOutbox = [];
  const locked = await deps.db.transaction(async (tx) => {
    const rows = await tx
      .update(secretFailures)
      .set({ lockedUntil: until, failures: 0, updatedAt: now })
      .where(
        and(
          eq(secretFailures.userId, owner.id),
          eq(secretFailures.secret, secret),
          sql`(${secretFailures.lockedUntil} is null or ${secretFailures.lockedUntil} <= ${now})`,
        ),
      )
      .returning({ userId: secretFailures.userId });
    if (rows.length === 0) return false;
    await audit(tx, {
      operatorId: null,
      action: 'security.secret_locked',
      targetType: 'user',
      targetId: owner.id,
      userId: owner.id,
      after: { secret, failures: SECRET_MAX_FAILURES, until: until.toISOString() },
      at: now,
    });
    await notify(tx, outbox, owner.id, LOCKED_KIND[secret], { until: until.toISOString() }, now);
    return true;
  });
  if (!locked) return;
  await publishOutbox(deps.realtime, outbox);
  const when = new Intl.DateTimeFormat(locale, {
    timeZone: 'Asia/Tokyo',
    dateStyle: 'short',
    timeStyle: 'short',
  }).format(until);
  const template = MESSAGES[locale].messageKinds[LOCKED_KIND[secret]];
  await deps.sms.send({
    phone: owner.phone,
    purpose: LOCKED_KIND[secret],
    text: interpolate(template, { until: when }),
    sentAt: now.toISOString(),
  });
}
