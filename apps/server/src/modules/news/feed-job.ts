import type { ScheduledJob } from '../jobs/job.js';
import { dueFeeds, pollFeed } from './feeds.js';

const inFlight = new Set<number>();

/**
 * Polls the feeds whose interval has passed. A poll is network I/O of up to FEED_TIMEOUT_MS, so the pass
 * starts it and goes on (the matcher is not held up); a feed already being polled is skipped. Imports are
 * idempotent (one article per feed and guid), so two processes polling the same feed change nothing.
 */
export const feedPollJob: ScheduledJob = {
  name: 'news.feeds',
  async run(app, deps) {
    const now = deps.clock.now();
    for (const feed of await dueFeeds(app.ctx.db, now)) {
      if (inFlight.has(feed.id)) continue;
      inFlight.add(feed.id);
      void pollFeed(app.ctx.db, feed, now)
        .catch((error: unknown) => {
          app.log.warn({ err: error, feed: feed.id }, 'feed poll failed');
        })
        .finally(() => inFlight.delete(feed.id));
    }
    return [];
  },
};
