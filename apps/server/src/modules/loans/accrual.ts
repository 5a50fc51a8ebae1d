import { and, eq, inArray, sql } from 'drizzle-orm';
import { addIsoDays, chargesThrough, daysBetween, dayState, sen } from '@kabuto/contract';
import type { Db, Tx } from '../../db/types.js';
import { jobRuns, loans } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import type { ScheduledJob } from '../jobs/job.js';
import { runOnce } from '../jobs/run-once.js';
import { notify, type EventOutbox } from '../messages/messages.js';
import { OWED_STATUSES, accrueThrough, loanSettings, principalOwed, termsOf, todayOf } from './loans.js';

/**
 * The daily accrual (issue 18, ADR 0028): once a Tokyo calendar day has ended, each loan owed gets that day's
 * interest or late charge as a `loan_accruals` row (the terms engine's day), moves to overdue after its due
 * date and to collection `collection_days` after it, and its owner is reminded `reminder_days` before the due
 * date. Each day is one run of `runOnce('loans.accrue', day)`: exactly once across processes and restarts
 * (the run's row is claimed in the transaction that writes the day). After downtime a pass catches up every
 * day missed, oldest first (at most MAX_DAYS_PER_PASS per pass, the rest on the next pass).
 */

export const LOAN_ACCRUAL_JOB = 'loans.accrue';
export const MAX_DAYS_PER_PASS = 370;

/** The days to run now: after the last day run (or the oldest loan owed's disbursement), through yesterday. */
async function dueDays(db: Db, today: string): Promise<string[]> {
  const [last] = await db
    .select({ key: sql<string | null>`max(${jobRuns.runKey})` })
    .from(jobRuns)
    .where(eq(jobRuns.job, LOAN_ACCRUAL_JOB));
  let from: string;
  if (last?.key) {
    from = addIsoDays(last.key, 1);
  } else {
    const [oldest] = await db
      .select({ day: sql<string | null>`min(${loans.disbursedOn})` })
      .from(loans)
      .where(inArray(loans.status, [...OWED_STATUSES]));
    from = oldest?.day ?? addIsoDays(today, -1);
  }
  const days: string[] = [];
  for (let day = from; day < today && days.length < MAX_DAYS_PER_PASS; day = addIsoDays(day, 1))
    days.push(day);
  return days;
}

/** One day's work for every loan owed: its row, its state, its reminder. */
async function accrueDay(tx: Tx, day: string, now: Date, outbox: EventOutbox) {
  const policy = await loanSettings(tx);
  const rows = await tx
    .select()
    .from(loans)
    .where(and(inArray(loans.status, [...OWED_STATUSES]), sql`${loans.disbursedOn} < ${day}`));
  const principals = await principalOwed(
    tx,
    rows.map((r) => r.id),
  );
  const after = addIsoDays(day, 1);
  let interest = 0;
  let late = 0;
  let overdue = 0;
  let collection = 0;
  for (const row of rows) {
    await accrueThrough(tx, row, day);
    const terms = termsOf(row);
    const state = dayState(terms.due_on, after, policy.collection_days);
    const owedYen = Math.floor((principals.get(row.id) ?? 0) / 100);
    const charges = chargesThrough(terms, day);
    interest += charges.interest_yen;
    late += charges.late_yen;
    const amount = sen((owedYen + charges.interest_yen + charges.late_yen) * 100);
    if (state === 'current' && daysBetween(after, terms.due_on) === policy.reminder_days) {
      await notify(
        tx,
        outbox,
        row.userId,
        'loan.due_soon',
        { loan_id: row.id, due_on: terms.due_on, amount },
        now,
      );
    }
    if (state !== 'current' && row.status === 'repaying') {
      await tx.update(loans).set({ status: 'overdue' }).where(eq(loans.id, row.id));
      await notify(
        tx,
        outbox,
        row.userId,
        'loan.overdue',
        { loan_id: row.id, due_on: terms.due_on, amount, grace: terms.late_grace_days },
        now,
      );
      overdue += 1;
    }
    if (state === 'collection' && row.status !== 'collection') {
      await tx.update(loans).set({ status: 'collection' }).where(eq(loans.id, row.id));
      await notify(
        tx,
        outbox,
        row.userId,
        'loan.collection',
        { loan_id: row.id, days: daysBetween(terms.due_on, after), amount },
        now,
      );
      collection += 1;
    }
  }
  return { loans: rows.length, overdue, collection, interest_to_date_yen: interest, late_to_date_yen: late };
}

/** Runs every day due; answers the users' events to push. */
export async function runLoanAccrual(db: Db, clock: Clock): Promise<EventOutbox> {
  const now = clock.now();
  const outbox: EventOutbox = [];
  for (const day of await dueDays(db, todayOf(now))) {
    const events: EventOutbox = [];
    const result = await runOnce(db, LOAN_ACCRUAL_JOB, day, now, (tx) => accrueDay(tx, day, now, events));
    if (result.ran) outbox.push(...events);
  }
  return outbox;
}

export const loanAccrualJob: ScheduledJob = {
  name: LOAN_ACCRUAL_JOB,
  run: async (app, deps) => runLoanAccrual(app.ctx.db, deps.clock),
};
