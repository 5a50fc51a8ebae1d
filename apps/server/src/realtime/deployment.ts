import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { deployment } from '../db/schema.js';
import type { Db } from '../db/types.js';
import { RELEASE } from './leader.js';

/**
 * One deployment per Redis prefix (ADR 0052).
 *
 * Processes that share Redis under one REDIS_PREFIX are one cluster to each other: one market leader, one quote
 * channel, and one channel each of sign-outs and user events, addressed by user id. Two deployments (two
 * databases) on one prefix would send each other's users their order fills and end each other's sessions:
 * user 5 of one is not user 5 of the other. It happened once, to the end-to-end suite's two servers (ADR 0045
 * amendment), as ticks from the wrong clock; with real users it is a leak.
 *
 * So the database holds an id of its own (the `deployment` table, written at its first start), and every
 * process claims `<prefix>deployment` for that id in Redis, with a time-to-live it keeps renewing. A process
 * whose database has another id than the holder's does not start; a running process that finds the key
 * taken by another deployment (both having started while Redis was unreachable, or after its own claim
 * lapsed) is told, and stops.
 */

/** This database's deployment id, written by the first start on it (an insert that loses a race reads the winner's). */
export async function deploymentId(db: Db): Promise<string> {
  await db.insert(deployment).values({ id: randomUUID() }).onConflictDoNothing();
  const [row] = await db.select({ id: deployment.id }).from(deployment);
  if (row === undefined) throw new Error('the deployment table has no row after inserting one');
  return row.id;
}

/** Takes or renews the key when it is free or ours; otherwise answers who holds it and for how long. */
const CLAIM = `local v = redis.call('get', KEYS[1])
if (not v) or v == ARGV[1] then
  redis.call('set', KEYS[1], ARGV[1], 'px', ARGV[2])
  return {1, ARGV[1], tonumber(ARGV[2])}
end
return {0, v, redis.call('pttl', KEYS[1])}`;

export class DeploymentConflictError extends Error {
  constructor(
    readonly prefix: string,
    readonly ours: string,
    readonly theirs: string,
    readonly lapsesInMs: number,
  ) {
    super(
      `Another deployment uses REDIS_PREFIX "${prefix}" on this Redis: its database is deployment ${theirs}, ` +
        `this one's is ${ours}. Processes of one deployment share one database; two deployments on one prefix ` +
        `would exchange live events and sign-outs by user id, so this process does not start. Give each ` +
        `deployment a REDIS_PREFIX of its own` +
        (lapsesInMs > 0
          ? ` (or, if the other deployment is gone, its claim lapses in ${Math.ceil(lapsesInMs / 1000)} s).`
          : '.'),
    );
    this.name = 'DeploymentConflictError';
  }
}

export class DeploymentClaim {
  private timer: ReturnType<typeof setInterval> | undefined;
  private asking = false;
  private stopped = false;

  constructor(
    private readonly redis: Redis,
    readonly prefix: string,
    readonly id: string,
    /** told once when a renewal finds the key held by another deployment */
    private readonly onConflict: (error: DeploymentConflictError) => void,
    private readonly ttlMs = 30_000,
    private readonly everyMs = 10_000,
  ) {}

  get key(): string {
    return `${this.prefix}deployment`;
  }

  /** One claim: resolves when the key is ours, throws DeploymentConflictError when it is another's. */
  async claim(): Promise<void> {
    const [granted, holder, remainingMs] = (await this.redis.eval(
      CLAIM,
      1,
      this.key,
      this.id,
      String(this.ttlMs),
    )) as unknown[];
    if (Number(granted) !== 1) {
      throw new DeploymentConflictError(this.prefix, this.id, String(holder), Number(remainingMs));
    }
  }

  /** Claims now (throwing on a conflict), then renews every `everyMs` until stop(). */
  async start(): Promise<void> {
    await this.claim();
    this.timer = setInterval(() => void this.renew(), this.everyMs);
    this.timer.unref();
  }

  /**
   * A renewal. While Redis is unreachable its client holds the command until it reconnects: rounds never
   * overlap, and a claim that lapsed meanwhile is simply taken again if no one else has.
   */
  private async renew(): Promise<void> {
    if (this.asking || this.stopped) return;
    this.asking = true;
    try {
      await this.claim();
    } catch (error) {
      // another failure (Redis unreachable): the next round tries again
      if (error instanceof DeploymentConflictError) this.conflict(error);
    } finally {
      this.asking = false;
    }
  }

  /** Told once, unless stop() came while Redis was answering. */
  private conflict(error: DeploymentConflictError): void {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.timer);
    this.onConflict(error);
  }

  /**
   * Stops renewing and gives the key back, if it is still ours: a new database on this prefix (a data folder
   * made anew) may then start at once. Other processes of this deployment take it again at their next renewal.
   */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.timer);
    if (this.redis.status !== 'ready') return;
    await this.redis.eval(RELEASE, 1, this.key, this.id).catch(() => undefined);
  }
}
