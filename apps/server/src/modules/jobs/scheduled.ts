import type { FastifyInstance } from 'fastify';
import { offeringJob } from '../ipo/job.js';
import type { Outbox, TradingDeps } from '../trading/orders.js';
import { productsNavJob } from '../products/nav-job.js';
import { dividendsJob } from '../dividends/dividends.js';
import { loanAccrualJob } from '../loans/accrual.js';
import { feedPollJob } from '../news/feed-job.js';
import { throttleSweepJob } from '../auth/throttle.js';
import type { ScheduledJob } from './job.js';

export type { ScheduledJob };

/**
 * The scheduled jobs, in the order a pass runs them. A feature adds its job here (one line each).
 */
export const SCHEDULED_JOBS: ScheduledJob[] = [
  offeringJob,
  productsNavJob,
  dividendsJob,
  loanAccrualJob,
  feedPollJob,
  throttleSweepJob,
];

/** Runs every scheduled job once; a failing job is logged and does not stop the others. */
export async function runScheduledJobs(
  app: FastifyInstance,
  deps: TradingDeps,
  jobs: readonly ScheduledJob[] = SCHEDULED_JOBS,
): Promise<Outbox> {
  const outbox: Outbox = [];
  for (const job of jobs) {
    try {
      outbox.push(...(await job.run(app, deps)));
    } catch (error) {
      app.log.error({ err: error, job: job.name }, 'scheduled job failed');
    }
  }
  return outbox;
}
