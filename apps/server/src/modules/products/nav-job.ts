import { and, desc, eq, lt, lte } from 'drizzle-orm';
import { productNavs, products } from '../../db/schema.js';
import type { Db, Tx } from '../../db/types.js';
import { nextBusinessDay } from '../../market/calendar.js';
import type { MarketDataProvider } from '../../market/provider.js';
import { hasRun, runOnce } from '../jobs/run-once.js';
import type { ScheduledJob } from '../jobs/job.js';
import type { EventOutbox } from '../messages/messages.js';
import { closeOf, daysBetween, lastStrikeDate, strikeNav } from './nav.js';
import { dueRecords, settleRecords, SETTLE_BATCH, versionFor } from './products.js';

export const NAV_JOB = 'products.nav';
/** How many missed business dates one pass strikes (a server that was down strikes them in order). */
const MAX_CATCH_UP = 30;

/**
 * Strikes every product's NAV of one business date (in the job's one transaction): from the previous NAV
 * and the closing prices it was struck from, the constituents' closes of `date`, and the fee of the calendar
 * days between (nav.ts). A product with no earlier NAV (published after) is left alone.
 */
export async function strikeDate(
  tx: Tx,
  market: MarketDataProvider,
  date: string,
  at: Date,
): Promise<{ date: string; products: number }> {
  const list = await tx.select({ id: products.id }).from(products);
  let struck = 0;
  for (const { id } of list) {
    const [prev] = await tx
      .select()
      .from(productNavs)
      .where(and(eq(productNavs.productId, id), lt(productNavs.date, date)))
      .orderBy(desc(productNavs.date))
      .limit(1);
    if (!prev) continue;
    const version = await versionFor(tx, id, date);
    if (!version) continue;
    const closes: Record<string, number> = {};
    const prevCloses: Record<string, number> = { ...prev.closes };
    for (const c of version.constituents) {
      closes[c.code] = await closeOf(market, c.code, date);
      // a constituent added by a new version: its ratio starts from its close of the previous NAV's date
      prevCloses[c.code] ??= await closeOf(market, c.code, prev.date);
    }
    const nav = strikeNav({
      prevNav: prev.nav,
      constituents: version.constituents,
      prevCloses,
      closes,
      feePpm: version.feePpm,
      days: daysBetween(prev.date, date),
    });
    const written = await tx
      .insert(productNavs)
      .values({ productId: id, date, nav, closes, createdAt: at })
      .onConflictDoNothing()
      .returning({ id: productNavs.productId });
    struck += written.length;
  }
  return { date, products: struck };
}

/** The business dates due for a strike at `at`: after the oldest latest NAV, up to the last strike date. */
async function dueDates(db: Db, at: Date): Promise<string[]> {
  const last = lastStrikeDate(at);
  const latest = await db
    .selectDistinctOn([productNavs.productId], { date: productNavs.date })
    .from(productNavs)
    .where(lte(productNavs.date, last))
    .orderBy(productNavs.productId, desc(productNavs.date));
  if (latest.length === 0) return [];
  const oldest = latest.map((r) => r.date).sort()[0] ?? last;
  const dates: string[] = [];
  for (let d = nextBusinessDay(oldest); d <= last && dates.length < MAX_CATCH_UP; d = nextBusinessDay(d)) {
    dates.push(d);
  }
  return dates;
}

/**
 * Settlement transactions the NAV job keeps open at once (each on its own connection of the pool; PGlite runs
 * them one after another). Two batches never wait on each other in a cycle: each takes its holders' locks in
 * ascending user id (lockUsers), and re-reads its records' status under them, so a record is settled once
 * whichever batch or process gets there first (ADR 0037).
 */
export const SETTLE_CONCURRENCY = 2;

/** Strikes the due NAVs (each date exactly once, runOnce), then settles the records waiting for them. */
export async function runNavJob(
  db: Db,
  market: MarketDataProvider,
  at: Date,
  options: { batchSize?: number } = {},
): Promise<EventOutbox> {
  const batchSize = options.batchSize ?? SETTLE_BATCH;
  for (const date of await dueDates(db, at)) {
    if (await hasRun(db, NAV_JOB, date)) continue;
    await runOnce(db, NAV_JOB, date, at, (tx) => strikeDate(tx, market, date, at));
  }
  const outbox: EventOutbox = [];
  const due = await dueRecords(db);
  let next = 0;
  const worker = async () => {
    while (next < due.length) {
      const start = next;
      next += batchSize;
      try {
        await settleRecords(db, due.slice(start, start + batchSize), at, outbox);
      } catch (error) {
        next = due.length; // the other workers take no new batch; the next pass settles what is left
        throw error;
      }
    }
  };
  // every worker's transaction has ended before the job answers, even when one failed
  const ended = await Promise.allSettled(Array.from({ length: SETTLE_CONCURRENCY }, worker));
  const failed = ended.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  return outbox;
}

export const productsNavJob: ScheduledJob = {
  name: NAV_JOB,
  run: (app, deps) => runNavJob(app.ctx.db, deps.market, deps.clock.now()),
};
