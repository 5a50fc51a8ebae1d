import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/app-error.js';

/** What a shed request is told to wait before trying again, in seconds. */
export const OVERLOADED_RETRY_AFTER_SECONDS = 1;

/**
 * Load shedding (issue 21, ADR 0040): past `maxInFlight` API requests in hand in this process, a new one is
 * answered at once with 503 `OVERLOADED` (code 1920) and `Retry-After`, instead of queueing for seconds behind
 * the database pool. Liveness and readiness are never shed (the proxy must see a busy process as alive), nor
 * WebSocket upgrades (they stay open; the socket limits of ADR 0032 bound them), nor the front ends' files.
 * A request leaves the count when its response closes, answered or aborted. 0 turns shedding off.
 */
export function shedLoad(app: FastifyInstance, maxInFlight: number): { inFlight(): number } {
  let inFlight = 0;
  if (maxInFlight > 0) {
    app.addHook('onRequest', (request, reply, done) => {
      const url = request.url;
      if (
        !url.startsWith('/api/') ||
        url.startsWith('/api/health') ||
        url.startsWith('/api/ready') ||
        request.headers.upgrade !== undefined
      ) {
        done();
        return;
      }
      if (inFlight >= maxInFlight) {
        done(new AppError('OVERLOADED', {}, { retry_after_seconds: OVERLOADED_RETRY_AFTER_SECONDS }));
        return;
      }
      inFlight++;
      reply.raw.once('close', () => {
        inFlight--;
      });
      done();
    });
  }
  return { inFlight: () => inFlight };
}
