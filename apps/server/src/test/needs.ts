import { describe } from 'vitest';

/**
 * The one way a test may depend on a service the machine may lack (PostgreSQL, Redis, HAProxy). When the service
 * is configured the suite runs as usual. When it is not, the suite is skipped with `meta.notRun` set, which
 * the not-run reporter (scripts/not-run-reporter.ts) counts and names at the end of every Vitest run, and
 * which `npm test` gathers into its closing banner: an absence is reported, never quiet. With CI=true an
 * absence is a failure instead (`.ci/run` must provide both services).
 *
 * ESLint forbids `describe.skipIf`/`runIf` and friends in test files so that this stays the only way.
 */
export type Need = 'postgres' | 'redis' | 'haproxy';

export interface NotRun {
  need: Need;
  /** Why it did not run, e.g. "TEST_DATABASE_URL is not set". */
  reason: string;
}

declare module 'vitest' {
  interface TaskMeta {
    notRun?: NotRun;
  }
}

/** HAPROXY_PATH: the haproxy binary (npm test installs Debian's when it can and sets it; scripts/lib.mjs). */
const variable: Record<Need, string> = {
  postgres: 'TEST_DATABASE_URL',
  redis: 'REDIS_URL',
  haproxy: 'HAPROXY_PATH',
};
const service: Record<Need, string> = { postgres: 'PostgreSQL', redis: 'Redis', haproxy: 'HAProxy' };

/** The service's URL, or undefined when it is not configured (an empty variable counts as unset). */
export function serviceUrl(need: Need): string | undefined {
  return process.env[variable[need]] || undefined;
}

/**
 * `describe` for a suite that needs PostgreSQL (TEST_DATABASE_URL), Redis (REDIS_URL) or HAProxy
 * (HAPROXY_PATH). The body receives the URL (the binary's path); put the suite's hooks inside it, so that
 * nothing runs without the service.
 */
export function describeNeeding(need: Need, name: string, body: (url: string) => void): void {
  const url = serviceUrl(need);
  if (url) {
    describe(name, () => {
      body(url);
    });
    return;
  }
  const reason = `${variable[need]} is not set`;
  if (process.env['CI'] === 'true') {
    throw new Error(`CI: “${name}” needs ${service[need]} but ${reason}; CI must run every test.`);
  }
  // The body is still collected (with an empty URL) so that its tests are listed and counted as not run.
  describe(name, { skip: true, meta: { notRun: { need, reason } } }, () => {
    body('');
  });
}
