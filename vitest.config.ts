import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vitest/config';
import NotRunReporter from './scripts/not-run-reporter.js';

/**
 * The front ends' `@/` alias (their vite configs' `resolve.alias`), per app: `@/x` imported from a file of
 * apps/web resolves to apps/web/src/x, from apps/console to apps/console/src/x. Hook tests need it.
 */
const appAlias: Plugin = {
  name: 'kabuto-app-alias',
  enforce: 'pre',
  resolveId(source, importer) {
    if (!source.startsWith('@/') || importer === undefined) return null;
    const app = /[\\/]apps[\\/](web|console)[\\/]/.exec(importer)?.[1];
    if (app === undefined) return null;
    const target = fileURLToPath(new URL(`./apps/${app}/src/${source.slice(2)}`, import.meta.url));
    return this.resolve(target, importer, { skipSelf: true });
  },
};

/**
 * Unit and integration tests. Integration tests build the Fastify app per file against a fresh
 * database: PGlite in memory by default, a new PostgreSQL database per file when TEST_DATABASE_URL is set
 * (scripts/test.mjs runs the suite a second time that way when DATABASE_URL is set). Suites that need
 * PostgreSQL or Redis go through `describeNeeding` (apps/server/src/test/needs.ts); the not-run reporter
 * names the ones a run skipped. Front-end component tests choose happy-dom with a
 * `// @vitest-environment happy-dom` line.
 */
export default defineConfig({
  plugins: [appAlias],
  resolve: { conditions: ['@kabuto/source'] },
  ssr: { resolve: { conditions: ['@kabuto/source'] } },
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'apps/*/src/**/*.test.{ts,tsx}',
      'scripts/**/*.test.ts',
      'bench/**/*.test.ts',
      // e2e/'s own helpers (the split of the spec files over the servers); Playwright runs only *.spec.ts
      'e2e/support/**/*.test.ts',
    ],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    reporters: ['default', new NotRunReporter()],
  },
});
