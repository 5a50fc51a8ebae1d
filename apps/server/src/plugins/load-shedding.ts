import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/app-error.js';

/** What a shed request is told to wait before trying again, in seconds. */
export const OVERLOADED_RETRY_AFTER_SECONDS = 1;

/** How often the event loop's lateness is sampled, in ms. */
export const LOOP_SAMPLE_MS = 20;

/** Whether the process is behind on its work right now (ADR 0062). */
export interface Pressure {
  overloaded(): boolean;
}

/**
 * The event loop's standing delay, on CoDel's rule (ADR 0062): the loop is overloaded once every sample of its
 * lateness has been over `targetMs` for at least `intervalMs`, and no longer at the first sample under it.
 * One long task (a collection, a big query on the embedded database) makes one late sample and sheds nothing;
 * a process whose every turn of the loop is late, because more requests arrive than it can answer or the
 * machine's cores are taken, has a standing queue: requests read from its sockets have already waited that
 * long, and answering them at once with 503 lets it catch up instead of making every later one wait longer.
 * `sample` is what the timer calls; tests call it with their own times.
 */
export class LoopPressure implements Pressure {
  private lateSince: number | undefined;
  private over = false;

  constructor(
    private readonly targetMs: number,
    private readonly intervalMs: number,
    private readonly onChange: (overloaded: boolean, lagMs: number) => void = () => undefined,
  ) {}

  overloaded(): boolean {
    return this.over;
  }

  /** One sample: the timer meant for `atMs - lagMs` ran at `atMs`. */
  sample(lagMs: number, atMs: number): void {
    if (lagMs <= this.targetMs) {
      this.lateSince = undefined;
      if (this.over) {
        this.over = false;
        this.onChange(false, lagMs);
      }
      return;
    }
    this.lateSince ??= atMs;
    if (!this.over && atMs - this.lateSince >= this.intervalMs) {
      this.over = true;
      this.onChange(true, lagMs);
    }
  }
}

/**
 * Samples the event loop's lateness every LOOP_SAMPLE_MS into a LoopPressure; the timer does not keep the
 * process alive. Returns the pressure and a stop.
 */
export function watchEventLoop(
  targetMs: number,
  intervalMs: number,
  log: { warn(fields: object, message: string): void },
): { pressure: LoopPressure; stop: () => void } {
  const pressure = new LoopPressure(targetMs, intervalMs, (overloaded, lagMs) => {
    // transitions only: an operator sees when and for how long a process shed load
    if (overloaded) {
      log.warn(
        { lagMs: Math.round(lagMs), targetMs, intervalMs },
        'event loop behind: shedding new API requests',
      );
    } else {
      log.warn({ lagMs: Math.round(lagMs) }, 'event loop caught up: no longer shedding');
    }
  });
  let timer: NodeJS.Timeout | undefined;
  const arm = (): void => {
    const due = performance.now() + LOOP_SAMPLE_MS;
    timer = setTimeout(() => {
      const now = performance.now();
      pressure.sample(Math.max(0, now - due), now);
      arm();
    }, LOOP_SAMPLE_MS);
    timer.unref();
  };
  arm();
  return {
    pressure,
    stop: () => {
      clearTimeout(timer);
    },
  };
}

/**
 * Load shedding (issue 21, ADR 0040 and ADR 0062): a new API request is answered at once with 503 `OVERLOADED`
 * (code 1920) and `Retry-After`, instead of queueing for seconds, when this process already holds
 * `maxInFlight` API requests (the database behind it is the bound), or when `pressure` says its event loop has
 * a standing delay (its CPU is the bound; requests waited unread in its sockets, where no count sees them).
 * Liveness and readiness are never shed (the proxy must see a busy process as alive), nor WebSocket upgrades
 * (they stay open; the socket limits of ADR 0032 bound them), nor the front ends' files. A request leaves the
 * count when its response closes, answered or aborted. `maxInFlight` 0 and no pressure turn shedding off.
 */
export function shedLoad(
  app: FastifyInstance,
  maxInFlight: number,
  pressure?: Pressure,
): { inFlight(): number } {
  let inFlight = 0;
  if (maxInFlight > 0 || pressure !== undefined) {
    const cap = maxInFlight > 0 ? maxInFlight : Infinity;
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
      if (inFlight >= cap || pressure?.overloaded() === true) {
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
