import type { FastifyInstance } from 'fastify';
import type { Outbox, TradingDeps } from '../trading/orders.js';

/**
 * A job the leader process runs on every matcher pass (modules/trading/matcher.ts): it looks at the clock,
 * decides which keys are due (a business date whose close has passed, an offering whose drawing time has
 * come...) and runs each through runOnce, so that running it on every pass, in two processes, or again after
 * a restart changes nothing. It answers the events to push to users. (Its own file, so that the jobs the
 * registry in scheduled.ts imports do not import the registry back.)
 */
export interface ScheduledJob {
  /** the job's name in job_runs and in logs */
  name: string;
  run(app: FastifyInstance, deps: TradingDeps): Promise<Outbox>;
}
