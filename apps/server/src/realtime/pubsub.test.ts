import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterAll, expect, it } from 'vitest';
import { describeNeeding } from '../test/needs.js';
import { RedisPubSub } from './pubsub.js';

/** Through the Redis at REDIS_URL (.ci/run requires it; without it the suite is reported as not run). */
describeNeeding('redis', 'RedisPubSub', (redisUrl) => {
  const opened: RedisPubSub[] = [];
  afterAll(async () => {
    for (const pubsub of opened) await pubsub.close();
  });

  // ioredis 5.8.2+ may send SUBSCRIBE during its connection handshake, before its ready check (INFO),
  // which the connection then refuses ("Connection in subscriber mode"): the subscribe rejects and the
  // process that made it never hears the channel (redis/ioredis#2037). A subscribe made as soon as the
  // pub/sub exists must wait for the connection to be ready.
  it('hears the channels it subscribes to while its connection is still being set up', async () => {
    const prefix = `kabuto-test-${randomBytes(4).toString('hex')}:`;
    for (let k = 0; k < 20; k++) {
      const pubsub = new RedisPubSub(redisUrl, prefix);
      opened.push(pubsub);
      const heard: string[] = [];
      // The moment that loses the race: the socket has connected and the handshake is still going; then,
      // as the realtime hub does, the next channel once the first is subscribed.
      const { subscriber } = pubsub as unknown as { subscriber: Redis };
      await new Promise<void>((resolve, reject) => {
        subscriber.once('connect', () => {
          pubsub
            .subscribe('market', (message) => heard.push(message))
            .then(() => pubsub.subscribe('events', (message) => heard.push(message)))
            .then(() => {
              resolve();
            }, reject);
        });
      });
      await pubsub.publish('market', 'tick');
      await pubsub.publish('events', 'hello');
      const deadline = Date.now() + 5_000;
      while (heard.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      expect(heard).toEqual(['tick', 'hello']);
    }
  });
});
