/**
 * An injectable clock. Everything that depends on "now" (sessions, market hours, withdrawal hours,
 * expiry) takes a Clock so that tests can fix the time.
 */
export interface Clock {
  now(): Date;
}

/** A clock that can be moved forward (a test's FixedClock, a CLOCK_CONTROL server's OffsetClock). */
export interface MovableClock extends Clock {
  advance(ms: number): void;
}

export const isMovable = (clock: Clock): clock is MovableClock =>
  typeof (clock as Partial<MovableClock>).advance === 'function';

export const systemClock: Clock = { now: () => new Date() };

/** A clock for tests: starts at the given instant and moves only when told to. */
export class FixedClock implements MovableClock {
  private current: number;
  constructor(start: Date | string) {
    this.current = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.current);
  }
  set(to: Date | string): void {
    this.current = new Date(to).getTime();
  }
  advance(ms: number): void {
    this.current += ms;
  }
}

/**
 * The system clock moved forward by an offset that only grows: what `CLOCK_CONTROL=true` gives a test or a
 * demo server, so that end-to-end tests can pass a close, a drawing time or a due date without waiting
 * (POST /api/clock/advance, modules/jobs/clock-routes.ts). Never on a real deployment.
 */
export class OffsetClock implements MovableClock {
  private offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('the clock only moves forward');
    this.offsetMs += ms;
  }
  get offset(): number {
    return this.offsetMs;
  }
}
