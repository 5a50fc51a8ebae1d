import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { envelope } from '@kabuto/contract';
import type { MovableClock } from '../../lib/clock.js';
import { ok } from '../../plugins/reply.js';

const ZAdvance = z.object({
  /** how far to move the clock, in ms: at most 400 days at a time */
  ms: z
    .number()
    .int()
    .min(0)
    .max(400 * 86_400_000),
});
const ZClock = z.object({ now: z.string() });

/**
 * POST /api/clock/advance: moves the server's clock forward, then runs one whole matcher pass (fills, position
 * rules, scheduled jobs) before answering, so a test sees what the new time causes. Registered only with
 * CLOCK_CONTROL=true (end-to-end tests, demos); a real deployment has no such route.
 */
export const clockRoutes: FastifyPluginAsyncZod<{
  clock: MovableClock;
  settle: () => Promise<unknown>;
}> = async (app, { clock, settle }) => {
  app.post(
    '/clock/advance',
    { schema: { tags: ['clock'], hide: true, body: ZAdvance, response: { 200: envelope(ZClock) } } },
    async (request) => {
      clock.advance(request.body.ms);
      await settle();
      return ok(request, { now: clock.now().toISOString() });
    },
  );
};
