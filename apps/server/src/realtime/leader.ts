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

/** One grant of the key: it lapses `ttl - margin` after the request that won it was sent. */
interface Lease {
  timer: ReturnType<typeof setTimeout>;
  lapsed: boolean;
}

export class RedisLeader implements LeaderElection {
  isLeader = false;
  private timer: ReturnType<typeof setInterval> | undefined;
  private onChange: (leader: boolean) => void = () => undefined;
  /** a round trip to Redis is out: the next round waits for its answer */
  private asking = false;
  private stopped = false;
  /** Redis last said the key is this node's: the next round renews it rather than asking for it */
  private held = false;
  /** the grant this node produces under, while it is the leader */
  private lease: Lease | undefined;

  constructor(
    private readonly redis: Redis,
    readonly nodeId: string,
    readonly key = 'kabuto:market-leader',
    private readonly ttlMs = 5_000,
    private readonly everyMs = 1_500,
    /** how long before the key can expire in Redis this node stops producing */
    private readonly marginMs = Math.ceil(ttlMs / 10),
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
   *
   * A grant counts from when its request was sent, not answered: Redis set the key's time-to-live at some
   * moment in between, so the key lives at least `ttl` from the sending. The node stops producing `margin`
   * before that, whether or not Redis has answered the renewal by then. A node cut off from Redis (whose
   * client queues commands until it reconnects) thus stops before another node can take the key over.
   */
  private async tick(): Promise<void> {
    if (this.asking) return;
    this.asking = true;
    const lease: Lease = {
      timer: setTimeout(() => {
        this.lapse(lease);
      }, this.ttlMs - this.marginMs),
      lapsed: false,
    };
    lease.timer.unref();
    let granted: boolean;
    try {
      granted = this.held
        ? Number(await this.redis.eval(RENEW, 1, this.key, this.nodeId, String(this.ttlMs))) === 1
        : (await this.redis.set(this.key, this.nodeId, 'PX', this.ttlMs, 'NX')) === 'OK';
    } catch {
      granted = false; // Redis unreachable: stop producing rather than risk two producers.
    } finally {
      this.asking = false;
    }
    this.held = granted;
    if (!granted || lease.lapsed || this.stopped) clearTimeout(lease.timer);
    if (this.stopped) {
      // stop() came while Redis was answering: a lease granted meanwhile is handed back, not used.
      if (granted) await this.release();
      return;
    }
    if (granted && !lease.lapsed) {
      // A grant answered after its own lapse leaves the key held (the next round renews it) but produces nothing.
      if (this.lease) clearTimeout(this.lease.timer);
      this.lease = lease;
      this.become(true);
    } else if (!granted) {
      this.dropLease();
      this.become(false);
    }
  }

  /** A grant's time is up: if it is the one this node produces under, the node stops producing. */
  private lapse(lease: Lease): void {
    lease.lapsed = true;
    if (this.lease !== lease) return;
    this.lease = undefined;
    this.become(false);
  }

  private dropLease(): void {
    if (this.lease) clearTimeout(this.lease.timer);
    this.lease = undefined;
  }

  private become(leader: boolean): void {
    if (leader === this.isLeader) return;
    this.isLeader = leader;
    this.onChange(leader);
  }

  private async release(): Promise<void> {
    this.held = false;
    await this.redis.eval(RELEASE, 1, this.key, this.nodeId).catch(() => undefined);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.dropLease();
    const was = this.isLeader || this.held;
    this.become(false);
    if (was) await this.release();
  }
}
