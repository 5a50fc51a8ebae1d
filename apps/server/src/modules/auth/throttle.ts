import { and, eq, lt, or, isNull, sql } from 'drizzle-orm';
import { loginThrottles, smsDailyCounts } from '../../db/schema.js';
import type { Db, Tx } from '../../db/types.js';
import type { ScheduledJob } from '../jobs/job.js';
import { hasRun, runOnce } from '../jobs/run-once.js';
import { AppError } from '../../lib/app-error.js';
import { sha256Hex } from '../../lib/tokens.js';
import { tokyoParts } from '../../lib/tokyo-time.js';

/**
 * The failed-login throttle and the SMS caps (issue 22, ADR 0030). Nothing here is a lock anyone can set on
 * someone else: failures only slow the next attempt down by a doubling delay, the owner signs in past it
 * with an SMS code, and the key is the account as typed, so an unknown number is throttled exactly as a
 * registered one and the answer never tells them apart. Counters live in the database, shared by every
 * process.
 */
export interface ThrottlePolicy {
  /** failures of one account before each next attempt waits */
  accountFree: number;
  /** failures from one client address before each next attempt from it waits */
  clientFree: number;
  /** the first wait, in seconds; doubled by each further failure */
  delaySeconds: number;
  maxDelaySeconds: number;
}

/** A counter with no failure for a day starts again from nothing. */
export const THROTTLE_FORGET_MS = 24 * 3_600_000;

/** The throttle key of an account as typed: a hash, so the table holds no phone numbers. */
export const accountKey = (account: string) => `account:${sha256Hex(account)}`;
export const clientKey = (ip: string) => `client:${ip}`;

/**
 * Counts one attempt against `key` before its password is checked (so concurrent guesses cannot outrun the
 * count) unless the key is waiting; answers the seconds still to wait, or 0 when the attempt may go on.
 */
export async function reserveAttempt(
  db: Db,
  policy: ThrottlePolicy,
  key: string,
  free: number,
  now: Date,
): Promise<number> {
  const at = sql`${now.toISOString()}::timestamptz`;
  const forgetBefore = sql`${new Date(now.getTime() - THROTTLE_FORGET_MS).toISOString()}::timestamptz`;
  const waiting = sql`coalesce(${loginThrottles.nextAt} > ${at}, false)`;
  const counted = sql`case when ${loginThrottles.updatedAt} < ${forgetBefore} then 1 else ${loginThrottles.failures} + 1 end`;
  const delayAfter = (failures: ReturnType<typeof sql>) =>
    sql`case when ${failures} >= ${free} then ${at} + make_interval(secs => least(${policy.maxDelaySeconds}::float8,
      ${policy.delaySeconds}::float8 * power(2, least(${failures} - ${free}, 30)))) end`;
  const [row] = await db
    .insert(loginThrottles)
    .values({
      key,
      failures: 1,
      nextAt: free <= 1 ? new Date(now.getTime() + policy.delaySeconds * 1000) : null,
      blocked: false,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: loginThrottles.key,
      set: {
        // every right-hand side reads the row as it was before this attempt
        blocked: waiting,
        failures: sql`case when ${waiting} then ${loginThrottles.failures} else ${counted} end`,
        nextAt: sql`case when ${waiting} then ${loginThrottles.nextAt} else ${delayAfter(counted)} end`,
        updatedAt: sql`case when ${waiting} then ${loginThrottles.updatedAt} else ${at} end`,
      },
    })
    .returning({ blocked: loginThrottles.blocked, nextAt: loginThrottles.nextAt });
  if (!row?.blocked || !row.nextAt) return 0;
  return Math.max(1, Math.ceil((row.nextAt.getTime() - now.getTime()) / 1000));
}

/** A successful sign-in clears the account's count. */
export async function clearAttempts(db: Db, key: string): Promise<void> {
  await db.delete(loginThrottles).where(eq(loginThrottles.key, key));
}

/**
 * A successful sign-in takes back its own reservation from the client's count (it was no failure), but
 * does not clear the client: one's own account must not wash away guesses at others'.
 */
export async function returnAttempt(db: Db, key: string, free: number): Promise<void> {
  await db
    .update(loginThrottles)
    .set({
      failures: sql`greatest(${loginThrottles.failures} - 1, 0)`,
      nextAt: sql`case when ${loginThrottles.failures} - 1 >= ${free} then ${loginThrottles.nextAt} end`,
    })
    .where(and(eq(loginThrottles.key, key), sql`${loginThrottles.failures} > 0`));
}

/** Throws LOGIN_THROTTLED when either the client or the account must wait (the client first). */
export async function throttleLogin(
  db: Db,
  policy: ThrottlePolicy,
  keys: { account: string; client: string },
  now: Date,
): Promise<void> {
  const clientWait = await reserveAttempt(db, policy, keys.client, policy.clientFree, now);
  if (clientWait > 0) throw throttled(clientWait);
  const accountWait = await reserveAttempt(db, policy, keys.account, policy.accountFree, now);
  if (accountWait > 0) throw throttled(accountWait);
}

const throttled = (seconds: number) =>
  new AppError('LOGIN_THROTTLED', { seconds }, { retry_after_seconds: seconds });

export interface SmsCaps {
  perClient: number;
  perRange: number;
}

/** The range of 10,000 numbers a mobile number belongs to: its first seven digits (090-1234-xxxx). */
export const numberRange = (phone: string) => phone.slice(0, 7);

/**
 * Counts one SMS for the client and the number's range on today's Tokyo date; throws SMS_DAILY_LIMIT once
 * either has had its cap. A refused request is not counted against the range it was refused for.
 */
export async function countSms(
  db: Db,
  caps: SmsCaps,
  keys: { client: string; phone: string },
  now: Date,
): Promise<void> {
  const day = tokyoParts(now).date;
  for (const [key, cap] of [
    [`client:${keys.client}`, caps.perClient],
    [`range:${numberRange(keys.phone)}`, caps.perRange],
  ] as const) {
    const counted = await db
      .insert(smsDailyCounts)
      .values({ key, day, count: 1 })
      .onConflictDoUpdate({
        target: [smsDailyCounts.key, smsDailyCounts.day],
        set: { count: sql`${smsDailyCounts.count} + 1` },
        setWhere: sql`${smsDailyCounts.count} < ${cap}`,
      })
      .returning({ count: smsDailyCounts.count });
    if (counted.length === 0) throw new AppError('SMS_DAILY_LIMIT');
  }
}

/**
 * Deletes what can no longer throttle anything: a login counter with no failure for a day (its next failure
 * would count from 1 again) whose wait is over, and the SMS counts of days before yesterday (Tokyo). Without
 * it the table would keep every number a guesser ever typed. Answers what it deleted.
 */
export async function sweepThrottles(
  db: Db | Tx,
  now: Date,
): Promise<{ throttles: number; sms_days: number }> {
  const forgetBefore = new Date(now.getTime() - THROTTLE_FORGET_MS);
  const throttles = await db
    .delete(loginThrottles)
    .where(
      and(
        lt(loginThrottles.updatedAt, forgetBefore),
        or(isNull(loginThrottles.nextAt), lt(loginThrottles.nextAt, now)),
      ),
    )
    .returning({ key: loginThrottles.key });
  const yesterday = tokyoParts(new Date(now.getTime() - 24 * 3_600_000)).date;
  const days = await db
    .delete(smsDailyCounts)
    .where(lt(smsDailyCounts.day, yesterday))
    .returning({ key: smsDailyCounts.key });
  return { throttles: throttles.length, sms_days: days.length };
}

export const THROTTLE_SWEEP_JOB = 'auth.sweep-throttles';

/** The sweep as a scheduled job: once per Tokyo hour across every process (runOnce). */
export const throttleSweepJob: ScheduledJob = {
  name: THROTTLE_SWEEP_JOB,
  run: async (app, deps) => {
    const now = deps.clock.now();
    const parts = tokyoParts(now);
    const key = `${parts.date}T${String(parts.hour).padStart(2, '0')}`;
    if (!(await hasRun(app.ctx.db, THROTTLE_SWEEP_JOB, key))) {
      await runOnce(app.ctx.db, THROTTLE_SWEEP_JOB, key, now, (tx) => sweepThrottles(tx, now));
    }
    return [];
  },
};
