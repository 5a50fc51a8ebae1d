// `npm test`: installs what is missing, then lint, format, type checks, unit and integration tests
// (PGlite, then PostgreSQL again when DATABASE_URL is set), the build, the first-load size check
// (scripts/first-load.mjs), and the end-to-end suite in Chromium.
// What cannot run without PostgreSQL (DATABASE_URL) or Redis (REDIS_URL) is named in a banner at the start
// and, counted from what the test runs themselves reported, at the end. With CI=true both are required.
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  checkNode,
  ensureBuilt,
  ensureInstalled,
  ensureChromium,
  ensureHaproxy,
  HAPROXY_INSTALL,
  listFiles,
  notRunBanner,
  root,
  runBuffered,
  runOrExit,
} from './lib.mjs';

checkNode();
const databaseUrl = process.env.DATABASE_URL || '';
const redisUrl = process.env.REDIS_URL || '';
if (process.env.CI === 'true' && (!databaseUrl || !redisUrl)) {
  const unset = [!databaseUrl && 'DATABASE_URL', !redisUrl && 'REDIS_URL'].filter(Boolean).join(' and ');
  console.error(
    `CI=true but ${unset} ${unset.includes(' and ') ? 'are' : 'is'} not set: in CI every test must run, the ` +
      'PostgreSQL pass and the Redis tests included.\nRun .ci/run (it points the tests at the local ' +
      'PostgreSQL and Redis, and fails when they do not answer), or set both variables.',
  );
  process.exit(1);
}
const chromium = ensureChromium();
if (!chromium) process.exit(1);
// The production front's test (deploy/haproxy.cfg): HAProxy installed like Chromium when it can be; without
// it that suite is reported as not run, and with CI=true it fails (apps/server/src/test/needs.ts).
const haproxy = ensureHaproxy();
if (haproxy) process.env.HAPROXY_PATH = haproxy;
else if (process.env.CI === 'true') {
  console.error(
    `CI=true but HAProxy (and OpenSSL) are missing: in CI every test must run. Install them with:\n  ${HAPROXY_INSTALL}`,
  );
  process.exit(1);
}
ensureInstalled();

// What will not run, from the sources: the PostgreSQL pass (every server test file once more) and the suites
// that go through describeNeeding (apps/server/src/test/needs.ts). The closing banner counts from the runs.
const twoProcess = 'apps/server/src/realtime/redis.test.ts';
const serverTests = listFiles(root, (f) => f.endsWith('.test.ts'), 'apps/server/src');
const needing = (need) =>
  serverTests.filter((f) =>
    new RegExp(`describeNeeding\\(\\s*'${need}'`).test(readFileSync(join(root, f), 'utf8')),
  );
const absences = [];
if (!databaseUrl) {
  absences.push(
    `the PostgreSQL pass: ${serverTests.length - 1} server test files do not run on PostgreSQL (DATABASE_URL is ` +
      'not set), so the pipelined transactions (db/pipelined.ts) and the real races of ' +
      'trading/concurrency.test.ts are not exercised',
    ...needing('postgres').map((f) => `${f}: needs PostgreSQL (DATABASE_URL is not set)`),
  );
}
if (!redisUrl) absences.push(...needing('redis').map((f) => `${f}: needs Redis (REDIS_URL is not set)`));
if (!haproxy)
  absences.push(...needing('haproxy').map((f) => `${f}: needs HAProxy and OpenSSL (${HAPROXY_INSTALL})`));
if (absences.length > 0) console.warn(notRunBanner('WILL NOT RUN (local run without them)', absences));

// Every suite that describeNeeding skipped, one JSON line each (scripts/not-run-reporter.ts).
const notRunLog = join(mkdtempSync(join(tmpdir(), 'kabuto-not-run-')), 'not-run.jsonl');
process.on('exit', () => {
  const lines = existsSync(notRunLog)
    ? readFileSync(notRunLog, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line))
    : [];
  const seen = new Set();
  const suites = lines.filter((l) => !seen.has(`${l.file}|${l.suite}`) && seen.add(`${l.file}|${l.suite}`));
  const tests = suites.reduce((n, l) => n + l.tests, 0);
  const report = [
    ...(databaseUrl ? [] : [absences[0]]),
    ...suites.map((l) => `${l.file} › ${l.suite}: ${l.tests} test${l.tests === 1 ? '' : 's'}, ${l.reason}`),
  ];
  if (report.length > 0) {
    console.warn(
      notRunBanner(
        `NOT RUN: ${databaseUrl ? '' : `${serverTests.length - 1} files on PostgreSQL, `}` +
          `${tests} test${tests === 1 ? '' : 's'} in ${suites.length} suite${suites.length === 1 ? '' : 's'} needing PostgreSQL, Redis or HAProxy`,
        report,
      ),
    );
  }
});

const started = Date.now();
const step = (name, command, args, env = {}) => {
  const t0 = Date.now();
  console.log(`\n▶ ${name}`);
  runOrExit(command, args, { env: { ...process.env, KABUTO_NOT_RUN_LOG: notRunLog, ...env } });
  console.log(`✓ ${name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
};

/** Runs [name, command, args] steps at once; prints each one's step lines and output when it ends. */
async function parallelSteps(steps) {
  console.log(`\n▶ ${steps.map(([name]) => name).join(', ')} (at once)`);
  const results = await Promise.all(
    steps.map(async ([name, command, args]) => {
      const t0 = Date.now();
      const { status, output } = await runBuffered(command, args, {
        env: { ...process.env, KABUTO_NOT_RUN_LOG: notRunLog },
      });
      const seconds = ((Date.now() - t0) / 1000).toFixed(1);
      console.log(`\n▶ ${name}`);
      if (output) process.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
      if (status === 0) console.log(`✓ ${name} (${seconds} s)`);
      else console.error(`✗ ${name}: ${command} ${args.join(' ')} failed (exit ${status}, ${seconds} s)`);
      return status;
    }),
  );
  const failed = results.find((status) => status !== 0);
  if (failed !== undefined) process.exit(failed);
}

// Lint, format and type check are independent and each runs on one core: they run at once, each one's output
// kept until it ends and then printed whole under its own step lines, and any failure fails the run.
await parallelSteps([
  ['lint', 'npx', ['eslint', '--max-warnings=0', '.']],
  ['format', 'npx', ['prettier', '--check', '.']],
  [
    'type check',
    'npx',
    [
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
    ],
  ],
]);
// The two-process Redis test (twoProcess above) starts two servers and times their ticks: it runs on its
// own, after the parallel suites, so that the other test files' load cannot starve its processes.
// Tests of PostgreSQL's own behaviour (*.postgres.test.ts) run in the PostgreSQL step; without DATABASE_URL
// they are loaded in the PGlite step only to be reported as not run.
const postgresOnly = '**/*.postgres.test.ts';
// The server's test files share one module registry per worker (`--no-isolate`, ADR 0051): each builds its own
// app on its own database, and re-importing the server for every file made each pass nearly twice as long
// (the same 115 files: 478 s isolated, 257 s shared). The front ends' and the tools' files keep a fresh
// registry each (happy-dom's document must not carry over from one file to the next).
step(
  'server tests (PGlite)',
  'npx',
  [
    'vitest',
    'run',
    'apps/server',
    '--no-isolate',
    '--exclude',
    twoProcess,
    ...(databaseUrl ? ['--exclude', postgresOnly] : []),
  ],
  { TEST_DATABASE_URL: '' },
);
step(
  'unit tests of the front ends, packages and tools',
  'npx',
  ['vitest', 'run', '--exclude', 'apps/server/**'],
  {
    TEST_DATABASE_URL: '',
  },
);
if (databaseUrl) {
  step(
    'server tests (PostgreSQL at DATABASE_URL)',
    'npx',
    ['vitest', 'run', 'apps/server', '--no-isolate', '--exclude', twoProcess],
    { TEST_DATABASE_URL: databaseUrl },
  );
}
step('two server processes sharing Redis (alone)', 'npx', ['vitest', 'run', twoProcess], {
  TEST_DATABASE_URL: '',
});
ensureBuilt({ force: true });
// What the web app's index.html loads before the first paint, gzipped: fails above 200 KiB, warns above 150
// (issue 21), and names the biggest modules.
step('first-load size of the web app', 'node', ['scripts/first-load.mjs']);
step('end-to-end tests (Chromium)', 'npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts'], {
  CHROMIUM_PATH: chromium,
});
console.log(`\nAll checks passed in ${((Date.now() - started) / 60000).toFixed(1)} min.`);
