import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vitest/config';

/**
 * The front ends' `@/` import prefix, as their Vite configs resolve it: `@/x` is `apps/<app>/src/x` of the
 * app the importing file belongs to (the console and the web app both use `@/`, for different folders).
 */
function appAlias(): Plugin {
  const apps = fileURLToPath(new URL('./apps/', import.meta.url));
  return {
    name: 'kabuto-app-alias',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!source.startsWith('@/') || importer === undefined) return null;
      const app = /\/apps\/(web|console)\/src\//.exec(importer)?.[1];
      if (app === undefined) return null;
      return this.resolve(`${apps}${app}/src/${source.slice(2)}`, importer, { ...options, skipSelf: true });
    },
  };
}

/**
 * Unit and integration tests. Integration tests build the Fastify app per file against a fresh
 * database: PGlite in memory by default, a new PostgreSQL database per file when TEST_DATABASE_URL is set
 * (scripts/test.mjs runs the suite a second time that way when DATABASE_URL is set). Front-end component
 * tests choose happy-dom with a `// @vitest-environment happy-dom` line.
 */
export default defineConfig({
  plugins: [appAlias()],
  resolve: { conditions: ['@kabuto/source'] },
  ssr: { resolve: { conditions: ['@kabuto/source'] } },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
