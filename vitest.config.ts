import { defineConfig } from 'vitest/config';
import NotRunReporter from './scripts/not-run-reporter.js';

/**
 * Unit and integration tests. Integration tests build the Fastify app per file against a fresh
 * database: PGlite in memory by default, a new PostgreSQL database per file when TEST_DATABASE_URL is set
 * (scripts/test.mjs runs the suite a second time that way when DATABASE_URL is set). Suites that need
 * PostgreSQL or Redis go through `describeNeeding` (apps/server/src/test/needs.ts); the not-run reporter
 * names the ones a run skipped.
 */
export default defineConfig({
  resolve: { conditions: ['@kabuto/source'] },
  ssr: { resolve: { conditions: ['@kabuto/source'] } },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    reporters: ['default', new NotRunReporter()],
  },
});
