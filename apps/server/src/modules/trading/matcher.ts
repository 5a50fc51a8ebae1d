import type { FastifyInstance } from 'fastify';
import { enforcePositionRules, expirePtsApplications } from './rules.js';
import { matchPendingOrders } from './pending.js';
import { runScheduledJobs } from '../jobs/scheduled.js';

/**
 * Fills waiting orders when the market reaches them, applies the rules that close positions (day trades
 * before the close, margin calls past their deadline: rules.ts), and runs the scheduled jobs
 * (modules/jobs/scheduled.ts). Runs only in the process that holds the producer
 * lease (so once across processes); every fill is re-checked under the user's lock anyway.
 */
export class Matcher {
  private timer: ReturnType<typeof setInterval> | undefined;
  private running: Promise<number> | undefined;

  constructor(
    private readonly app: FastifyInstance,
    private readonly intervalMs: number,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.pass(), this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One pass; answers how many orders it filled (0 at once if a pass is under way). */
  async pass(): Promise<number> {
    if (this.running) return 0;
    this.running = this.passOnce();
    try {
      return await this.running;
    } finally {
      this.running = undefined;
    }
  }

  /** Waits for the pass under way, if any, then runs one whole pass: what a moved clock needs. */
  async settle(): Promise<number> {
    while (this.running) await this.running;
    return this.pass();
  }

  private async passOnce(): Promise<number> {
    try {
      const { ctx } = this.app;
      const deps = { clock: ctx.clock, market: ctx.market, fees: ctx.fees, locale: 'ja' };
      const outbox = [
        ...(await matchPendingOrders(ctx.db, deps)),
        ...(await expirePtsApplications(ctx.db, deps)),
        ...(await enforcePositionRules(ctx.db, deps)),
        ...(await runScheduledJobs(this.app, deps)),
      ];
      for (const { userId, event } of outbox) await ctx.realtime.publishUserEvent(userId, event);
      return outbox.filter((o) => o.event.kind === 'order.filled').length;
    } catch (error) {
      this.app.log.error({ err: error }, 'matcher pass failed');
      return 0;
    }
  }
}
