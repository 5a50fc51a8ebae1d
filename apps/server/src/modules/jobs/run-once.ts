import { and, eq, sql } from 'drizzle-orm';
import { jobRuns } from '../../db/schema.js';
import type { Db, Executor, Tx } from '../../db/types.js';

/** What a run of a job reports: stored as the run's summary (counts and totals, never personal data). */
export type JobSummary = Record<string, unknown>;

export type RunOnceResult<T extends JobSummary> = { ran: true; summary: T } | { ran: false };

/**
 * Runs `work` for (job, key) exactly once across every process and restart: the run's row is inserted first,
 * in the transaction that then does the work, so
 * - a second caller with the same key (another process, a second pass, a replay) waits on the first's row
 *   and, once it has committed, finds it and does nothing;
 * - a run that fails or whose process dies rolls back with its row, and the next pass runs it again from the
 *   start, whole.
 * The work therefore must be one transaction's worth: what it writes commits with the row or not at all.
 */
export async function runOnce<T extends JobSummary>(
  db: Db,
  job: string,
  key: string,
  at: Date,
  work: (tx: Tx) => Promise<T>,
): Promise<RunOnceResult<T>> {
  return db.transaction(async (tx) => {
    const claimed = await tx
      .insert(jobRuns)
      .values({ job, runKey: key, doneAt: at })
      .onConflictDoNothing()
      .returning({ job: jobRuns.job });
    if (claimed.length === 0) return { ran: false } as const;
    const summary = await work(tx);
    await tx
      .update(jobRuns)
      .set({ summary: sql`${JSON.stringify(summary)}::jsonb` })
      .where(and(eq(jobRuns.job, job), eq(jobRuns.runKey, key)));
    return { ran: true, summary } as const;
  });
}

/**
 * The (job, key) pairs each database (or transaction) has been seen to have run. A run's row, once committed,
 * is never deleted, so a yes stays true and is not asked again; a no is always asked again. The matcher's pass
 * looks every half second whether each day's or each offering's run is done: six of its 17 statements on an
 * idle pass were these looks. A database restored from a backup older than a run needs its processes restarted
 * (which a restore does anyway) for that run to be seen as not done.
 */
const seenRuns = new WeakMap<Executor, Set<string>>();

/** Whether (job, key) has run: a cheap look before a pass opens a transaction for it. */
export async function hasRun(db: Executor, job: string, key: string): Promise<boolean> {
  const id = `${job}\u0000${key}`;
  const seen = seenRuns.get(db);
  if (seen?.has(id)) return true;
  const rows = await db
    .select({ job: jobRuns.job })
    .from(jobRuns)
    .where(and(eq(jobRuns.job, job), eq(jobRuns.runKey, key)))
    .limit(1);
  if (rows.length === 0) return false;
  if (seen) seen.add(id);
  else seenRuns.set(db, new Set([id]));
  return true;
}

/** The keys (job, key) has run for, newest first: what operators and tests read. */
export async function runsOf(db: Executor, job: string, limit = 50) {
  return db
    .select()
    .from(jobRuns)
    .where(eq(jobRuns.job, job))
    .orderBy(sql`${jobRuns.doneAt} desc`)
    .limit(limit);
}
