import type { Redis } from 'ioredis';

/**
 * Who produces the simulated ticks. Alone, this process does. With Redis, processes compete for a key
 * with a time-to-live: the holder renews it, the others retry, and when the holder stops (or dies, and the
 * key expires) another takes over. Exactly one process holds the key at a time.
 */
export interface LeaderElection {
  readonly isLeader: boolean;
  /** producing without Redis, as the only process (RedisLeader's solo fallback); false otherwise */
  readonly isSolo: boolean;
  start(onChange: (leader: boolean) => void): void;
  stop(): Promise<void>;
}

export class SoleLeader implements LeaderElection {
  isLeader = false;
  readonly isSolo = false;
  start(onChange: (leader: boolean) => void): void {
    this.isLeader = true;
    onChange(true);
  }
  async stop(): Promise<void> {
    this.isLeader = false;
  }
}

const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
/** Deletes KEYS[1] only while it still holds ARGV[1]: a lease (or a claim, deployment.ts) handed back by its holder. */
export const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

/** One grant of the key: it lapses `ttl - margin` after the request that won it was sent. */
interface Lease {
  timer: ReturnType<typeof setTimeout>;
  lapsed: boolean;
}

/**
 * The solo fallback (ADR 0032): a leader that Redis last counted as the ONLY process (one subscriber on the
 * market channel: each process has one) keeps producing when Redis becomes unreachable and its lease lapses,
 * its ticks fanned out in-process (RedisPubSub.publish); with two or more processes none produces until Redis
 * returns, as before. When Redis answers again the node goes back to the lease: it renews it, or, the key
 * having expired, stops and takes it in the next round like any node.
 */
export interface SoloFallback {
  /** the market channel's full name, whose subscribers Redis counts */
  channel: string;
  /** told when the node starts or stops producing without Redis */
  onSolo(solo: boolean): void;
}

export class RedisLeader implements LeaderElection {
  isLeader = false;
  isSolo = false;
  /** processes Redis last counted on the market channel (0: not counted yet) */
  private processes = 0;
  private counting = false;
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
    private readonly solo?: SoloFallback,
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
      this.setSolo(false);
      this.become(true);
      void this.countProcesses();
    } else if (!granted) {
      this.dropLease();
      this.setSolo(false);
      this.become(false);
    }
  }

  /** How many processes listen on the market channel, asked after each grant (for the solo fallback). */
  private async countProcesses(): Promise<void> {
    if (!this.solo || this.counting) return;
    this.counting = true;
    try {
      const reply = await this.redis.pubsub('NUMSUB', this.solo.channel);
      this.processes = Number(reply[1]);
    } catch {
      this.processes = 0; // unknown: no solo fallback
    } finally {
      this.counting = false;
    }
  }

  /**
   * A grant's time is up: if it is the one this node produces under, the node stops producing, unless Redis
   * is unreachable and last counted this node alone (the solo fallback above).
   */
  private lapse(lease: Lease): void {
    lease.lapsed = true;
    if (this.lease !== lease) return;
    this.lease = undefined;
    if (this.solo && this.processes === 1 && this.redis.status !== 'ready' && !this.stopped) {
      this.setSolo(true);
      return;
    }
    this.become(false);
  }

  private setSolo(solo: boolean): void {
    if (solo === this.isSolo) return;
    this.isSolo = solo;
    this.solo?.onSolo(solo);
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
    this.setSolo(false);
    this.become(false);
    if (was) await this.release();
  }
}
