import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';

/**
 * Messages between server processes. In one process an EventEmitter does; with REDIS_URL every process
 * publishes to and hears from Redis, so a tick or a user event produced on one reaches clients of all.
 */
export interface PubSub {
  readonly kind: 'local' | 'redis';
  /** whether messages can be published and received now (Redis: both connections ready) */
  connected(): boolean;
  publish(channel: string, message: string): Promise<void>;
  subscribe(channel: string, handler: (message: string) => void): Promise<() => Promise<void>>;
  /** Told each time the pub/sub is lost or comes back (once per change); answers the unsubscribe. */
  onAvailability(listener: (available: boolean) => void): () => void;
  close(): Promise<void>;
}

export class LocalPubSub implements PubSub {
  readonly kind = 'local';
  connected(): boolean {
    return true;
  }
  private readonly emitter = new EventEmitter().setMaxListeners(0);
  async publish(channel: string, message: string): Promise<void> {
    this.emitter.emit(channel, message);
  }
  async subscribe(channel: string, handler: (message: string) => void) {
    this.emitter.on(channel, handler);
    return async () => {
      this.emitter.off(channel, handler);
    };
  }
  onAvailability(): () => void {
    return () => undefined; // always available
  }
  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}

export class RedisPubSub implements PubSub {
  readonly kind = 'redis';
  connected(): boolean {
    return this.client.status === 'ready' && this.subscriber.status === 'ready';
  }
  readonly client: Redis;
  private readonly subscriber: Redis;
  private readonly handlers = new Map<string, Set<(message: string) => void>>();

  constructor(
    url: string,
    readonly prefix = 'kabuto:',
  ) {
    const options = { maxRetriesPerRequest: null, lazyConnect: false } as const;
    this.client = new Redis(url, options);
    this.subscriber = new Redis(url, options);
    // ioredis reconnects by itself; an error event without a listener would crash the process.
    this.client.on('error', () => undefined);
    this.subscriber.on('error', () => undefined);
    this.subscriber.on('message', (channel: string, message: string) => {
      this.deliver(channel, message);
    });
    for (const connection of [this.client, this.subscriber]) {
      for (const event of ['ready', 'close', 'end', 'reconnecting'] as const) {
        connection.on(event, () => {
          this.checkAvailability();
        });
      }
    }
  }

  private readonly availabilityListeners = new Set<(available: boolean) => void>();
  /** what listeners were last told; unknown (null) until both connections are first ready */
  private available: boolean | null = null;

  onAvailability(listener: (available: boolean) => void): () => void {
    this.availabilityListeners.add(listener);
    return () => this.availabilityListeners.delete(listener);
  }

  private checkAvailability(): void {
    const now = this.connected();
    if (now === this.available || (this.available === null && !now)) return;
    const change = this.available !== null;
    this.available = now;
    if (change || !now) for (const listener of this.availabilityListeners) listener(now);
  }

  private deliver(channel: string, message: string): void {
    for (const handler of this.handlers.get(channel) ?? []) handler(message);
  }

  /**
   * While Redis is unreachable a message reaches this process's own subscribers at once (in-process fan-out)
   * instead of waiting in ioredis's offline queue, which would flush a burst of stale ticks on reconnection;
   * other processes miss it (ADR 0032).
   */
  async publish(channel: string, message: string): Promise<void> {
    if (this.available === false) {
      this.deliver(this.prefix + channel, message);
      return;
    }
    await this.client.publish(this.prefix + channel, message);
  }

  async subscribe(channel: string, handler: (message: string) => void) {
    const full = this.prefix + channel;
    let set = this.handlers.get(full);
    if (!set) {
      set = new Set();
      this.handlers.set(full, set);
      await this.subscriberReady();
      await this.subscriber.subscribe(full);
    }
    set.add(handler);
    return async () => {
      set.delete(handler);
      if (set.size === 0) {
        this.handlers.delete(full);
        await this.subscriber.unsubscribe(full);
      }
    };
  }

  /**
   * ioredis 5.8.2+ writes a SUBSCRIBE made while its connection is still in its handshake, before its ready
   * check; the INFO of that check is then refused ("Connection in subscriber mode"), the connection is torn
   * down and the commands waiting on it fail: the hub's second subscription rejected and a starting process
   * exited, or, by other timings, heard nothing from the others (redis/ioredis#2037, fixed in ioredis 6;
   * seen here as a server exiting at start beside another, and in the two-process test). Subscribing once the
   * connection is ready avoids it; after a reconnection ioredis itself subscribes again, once ready.
   */
  private async subscriberReady(): Promise<void> {
    if (this.subscriber.status === 'ready') return;
    await new Promise<void>((resolve) => {
      this.subscriber.once('ready', () => {
        resolve();
      });
    });
  }

  async close(): Promise<void> {
    this.handlers.clear();
    this.availabilityListeners.clear();
    this.subscriber.disconnect();
    await this.client.quit().catch(() => undefined);
  }
}
