import type { Redis } from 'ioredis';

/**
 * Who produces the simulated ticks. Alone, this process does. With Redis, processes compete for a key
 * with a time-to-live: the holder renews it, the others retry, and when the holder stops (or dies, and the
 * key expires) another takes over. Exactly one process holds the key at a time.
 */
export interface LeaderElection {
  readonly isLeader: boolean;
  start(onChange: (leader: boolean) => void): void;
  stop(): Promise<void>;
}

export class SoleLeader implements LeaderElection {
  isLeader = false;
  start(onChange: (leader: boolean) => void): void {
    this.isLeader = true;
    onChange(true);
  }
  async stop(): Promise<void> {
    this.isLeader = false;
  }
}

const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

export class RedisLeader implements LeaderElection {
  isLeader = false;
  private timer: ReturnType<typeof setInterval> | undefined;
  private onChange: (leader: boolean) => void = () => undefined;
  /** a round trip to Redis is out: the next round waits for its answer */
  private asking = false;
  private stopped = false;

  constructor(
    private readonly redis: Redis,
    readonly nodeId: string,
    readonly key = 'kabuto:market-leader',
    private readonly ttlMs = 5_000,
    private readonly everyMs = 1_500,
  ) {}

  start(onChange: (leader: boolean) => void): void {
    this.onChange = onChange;
    this.stopped = false;
    void this.tick();
    this.timer = setInterval(() => void this.tick(), this.everyMs);
    this.timer.unref();
  }

  /**
   * One round: take the key or renew it. Rounds never overlap: when Redis answers later than the next
   * round is due, that round is skipped. Otherwise a second SET NX, refused because the first had just
   * taken the key, could be answered last and make the holder give the lease up.
   */
  private async tick(): Promise<void> {
    if (this.asking) return;
    this.asking = true;
    let leader: boolean;
    try {
      if (this.isLeader) {
        leader = Number(await this.redis.eval(RENEW, 1, this.key, this.nodeId, String(this.ttlMs))) === 1;
      } else {
        leader = (await this.redis.set(this.key, this.nodeId, 'PX', this.ttlMs, 'NX')) === 'OK';
      }
    } catch {
      leader = false; // Redis unreachable: stop producing rather than risk two producers.
    } finally {
      this.asking = false;
    }
    if (this.stopped) {
      // stop() came while Redis was answering: a lease granted meanwhile is handed back, not used.
      if (leader && !this.isLeader) await this.release();
      return;
    }
    if (leader !== this.isLeader) {
      this.isLeader = leader;
      this.onChange(leader);
    }
  }

  private async release(): Promise<void> {
    await this.redis.eval(RELEASE, 1, this.key, this.nodeId).catch(() => undefined);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.isLeader) {
      this.isLeader = false;
      this.onChange(false);
      await this.release();
    }
  }
}
