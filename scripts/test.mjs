// `npm test`: installs what is missing, then lint, format, type checks, unit and integration tests
// (PGlite, then PostgreSQL again when DATABASE_URL is set), the build, and the end-to-end suite in Chromium.
import { checkNode, ensureBuilt, ensureInstalled, findChromium, runOrExit } from './lib.mjs';

checkNode();
const chromium = findChromium();
if (!chromium) {
  console.error(
    'Chromium was not found (looked at CHROMIUM_PATH, /usr/bin/chromium and /usr/bin/chromium-browser).\n' +
      'The end-to-end tests drive a real Chromium. On Debian or Ubuntu install it with:\n' +
      '  sudo apt-get install -y chromium\n' +
      'or point CHROMIUM_PATH at an existing Chromium or Chrome binary.',
  );
  process.exit(1);
}
ensureInstalled();

const started = Date.now();
const step = (name, command, args, env = {}) => {
  const t0 = Date.now();
  console.log(`\n▶ ${name}`);
  runOrExit(command, args, { env: { ...process.env, ...env } });
  console.log(`✓ ${name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
};

step('lint', 'npx', ['eslint', '--max-warnings=0', '.']);
step('format', 'npx', ['prettier', '--check', '.']);
step('type check', 'npx', [
  'tsc',
  '-b',
  'tsconfig.json',
  'packages/contract',
  'packages/client',
  'apps/server',
  'apps/web',
  'apps/console',
  'e2e',
  'bench',
]);
// The two-process Redis test starts two servers and times their ticks: it runs on its own, after the
// parallel suites, so that the other test files' load cannot starve its processes.
const twoProcess = 'apps/server/src/realtime/redis.test.ts';
// Tests of PostgreSQL's own behaviour (*.postgres.test.ts) run in the PostgreSQL step only.
const postgresOnly = '**/*.postgres.test.ts';
step(
  'unit and integration tests (PGlite)',
  'npx',
  ['vitest', 'run', '--exclude', twoProcess, '--exclude', postgresOnly],
  { TEST_DATABASE_URL: '' },
);
if (process.env.DATABASE_URL) {
  step(
    'integration tests (PostgreSQL at DATABASE_URL)',
    'npx',
    ['vitest', 'run', 'apps/server', '--exclude', twoProcess],
    { TEST_DATABASE_URL: process.env.DATABASE_URL },
  );
} else {
  console.log('\n(DATABASE_URL is not set: the integration tests ran on PGlite only.)');
}
step('two server processes sharing Redis (alone)', 'npx', ['vitest', 'run', twoProcess], {
  TEST_DATABASE_URL: '',
});
ensureBuilt({ force: true });
step('end-to-end tests (Chromium)', 'npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts'], {
  CHROMIUM_PATH: chromium,
});
console.log(`\nAll checks passed in ${((Date.now() - started) / 60000).toFixed(1)} min.`);
