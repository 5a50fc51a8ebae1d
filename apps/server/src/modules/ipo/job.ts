import type { FastifyInstance } from 'fastify';
import { and, eq, gt, isNull, or } from 'drizzle-orm';
import { offerings } from '../../db/schema.js';
import type { Db, Tx } from '../../db/types.js';
import { hasRun, runOnce, type JobSummary } from '../jobs/run-once.js';
import type { ScheduledJob } from '../jobs/job.js';
import type { EventOutbox } from '../messages/messages.js';
import { AppError } from '../../lib/app-error.js';
import type { MarketDataProvider } from '../../market/provider.js';
import { publishListings } from './listings.js';
import {
  closeWindow,
  fixDistributionPrice,
  lapseWins,
  listShares,
  runDraw,
  type OfferingRow,
} from './offerings.js';

export const OFFERING_JOB = 'offerings';

/**
 * The steps of an offering's life, each run exactly once per offering through runOnce (keys `close:<id>`,
 * `draw:<id>`, `lapse:<id>`, `list:<id>`): a second process, a second pass or a restart after a crash finds
 * the row and does nothing, and a step killed midway rolls back whole and runs again with the same seed and
 * list, so with the same result. Each step re-reads its offering under a row lock inside the run.
 */
export async function runOfferingSteps(
  db: Db,
  now: Date,
  market?: MarketDataProvider,
  /** told of each step this call ran (not of those another pass or process had run) */
  onStep?: (step: string, o: OfferingRow) => void,
): Promise<EventOutbox> {
  const outbox: EventOutbox = [];
  const day = 24 * 3600 * 1000;
  const candidates = await db
    .select()
    .from(offerings)
    .where(
      and(
        isNull(offerings.cancelledAt),
        or(isNull(offerings.drawnAt), gt(offerings.listingAt, new Date(now.getTime() - day))),
      ),
    );
  const once = async (
    o: OfferingRow,
    step: string,
    work: (tx: Tx, fresh: OfferingRow) => Promise<JobSummary>,
  ): Promise<boolean> => {
    const key = `${step}:${o.id}`;
    if (await hasRun(db, OFFERING_JOB, key)) return true;
    const result = await runOnce(db, OFFERING_JOB, key, now, async (tx) => {
      const [fresh] = await tx.select().from(offerings).where(eq(offerings.id, o.id)).for('update');
      if (!fresh) throw new Error(`offering ${o.id} vanished`);
      return work(tx, fresh);
    });
    if (result.ran) onStep?.(step, o);
    return result.ran || (await hasRun(db, OFFERING_JOB, key));
  };
  for (const candidate of candidates) {
    let o = candidate;
    // a distribution's price, fixed from the previous close as its window opens (the first application or the
    // publication may have done it already: then this writes nothing). A stock without a close leaves it
    // unpriced, and the close step waits, rather than stopping the other offerings' steps.
    if (market && o.kind === 'distribution' && o.offerPrice === null && now >= o.windowOpen) {
      try {
        o = await db.transaction((tx) => fixDistributionPrice(tx, candidate, market, now));
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
      }
    }
    // the close waits for the window's end and, for an IPO, the fixed offer price
    if (now < o.windowClose || o.offerPrice === null) continue;
    await once(o, 'close', (tx, fresh) => closeWindow(tx, fresh, now, outbox));
    if (now < o.drawAt) continue;
    await once(o, 'draw', (tx, fresh) => runDraw(tx, fresh, now, outbox));
    if (o.kind !== 'ipo' || !o.purchaseDeadline || now < o.purchaseDeadline) continue;
    await once(o, 'lapse', (tx, fresh) => lapseWins(tx, fresh, now, outbox));
    if (now < o.listingAt) continue;
    await once(o, 'list', (tx, fresh) => listShares(tx, fresh, now, outbox));
  }
  return outbox;
}

export const offeringJob: ScheduledJob = {
  name: OFFERING_JOB,
  run: async (app: FastifyInstance, deps) => {
    // a draw reveals the seed a listing's first day is drawn from (ADR 0035): every process reloads its listings
    const drawn = new Set<number>();
    const outbox = await runOfferingSteps(app.ctx.db, deps.clock.now(), app.ctx.market, (step, o) => {
      if (o.kind === 'ipo' && (step === 'draw' || step === 'list')) drawn.add(o.id);
    });
    if (drawn.size > 0) {
      await publishListings(app.ctx).catch((error: unknown) => {
        app.log.warn({ err: error }, 'could not publish the listed IPOs');
      });
    }
    return outbox;
  },
};
