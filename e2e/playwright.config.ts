import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, devices } from '@playwright/test';
import { splitByDuration, type Durations } from './support/split.js';

/**
 * End-to-end tests: the built server (web app + API on one port) on a fresh PGlite data folder, driven
 * through a real Chromium (Debian's, never a downloaded one) at a phone-sized viewport.
 *
 * The suite runs on E2E_SERVERS servers at once (default 2, ADR 0045): server i (from 1) listens on
 * E2E_PORT + i - 1 (E2E_PORT defaults to 8181) with its own data folder, server-i under E2E_DATA_DIR (a new
 * temporary folder by default), and is one Playwright project with one worker. Flows never share a server
 * with a flow running at the same time: some move the server's clock, read its SMS outbox or change the
 * seeded administrator's password. The spec files are spread over the projects by their recorded durations
 * (e2e/durations.json, support/split.ts); a spec file not recorded there still runs, on some server. A flow
 * reads its server's port and data folder from its project (support/app.ts, `currentServer()`).
 *
 * With REDIS_URL set (CI sets it), every server uses that Redis under a prefix of its own (REDIS_PREFIX, from
 * its data folder): servers of one run, and of two runs on one machine, are separate deployments. Sharing the
 * default prefix made them one cluster with one market leader, so a server whose clock a flow had moved was
 * sent another server's ticks, stamped with that server's time, and its pages kept the newer quote they had.
 */
const here = dirname(fileURLToPath(import.meta.url));
const firstPort = Number(process.env['E2E_PORT'] ?? 8181);
export const dataDir = process.env['E2E_DATA_DIR'] ?? mkdtempSync(join(tmpdir(), 'kabuto-e2e-'));
// the workers load this file again: they must find the same folder, not make new ones
process.env['E2E_DATA_DIR'] = dataDir;

const specFiles = readdirSync(here, { recursive: true, encoding: 'utf8' })
  .map((f) => f.split(sep).join('/'))
  .filter((f) => f.endsWith('.spec.ts') && !f.split('/').includes('node_modules'));
const durations = JSON.parse(readFileSync(join(here, 'durations.json'), 'utf8')) as Durations;
const requested = Math.floor(Number(process.env['E2E_SERVERS'] ?? 2));
const serverCount = Math.max(1, Math.min(Number.isFinite(requested) ? requested : 2, specFiles.length));
const servers = splitByDuration(specFiles, durations, serverCount).map((files, i) => {
  const folder = join(dataDir, `server-${i + 1}`);
  mkdirSync(folder, { recursive: true });
  return { name: `server-${i + 1}`, port: firstPort + i, dataDir: folder, files };
});
/** A file as a testMatch pattern of its whole name: a.spec.ts must not match b-a.spec.ts. */
const exactly = (file: string) => new RegExp(`(^|[\\\\/])${file.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')}$`);

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  fullyParallel: false,
  // one worker per server (each project's own `workers: 1` below)
  workers: servers.length,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  outputDir: '../test-results',
  use: {
    ...devices['Pixel 7'],
    viewport: { width: 390, height: 844 },
    locale: 'ja-JP',
    // the app's service worker (ADR 0039) is tested in pwa.spec.ts; elsewhere it is kept out, so that a flow's
    // page.route() sees every request the page makes
    serviceWorkers: 'block',
    timezoneId: 'Asia/Tokyo',
    // No trace while the suite runs: recording one (a screencast and a DOM snapshot at every action) made
    // the flows half as slow again (ipo.spec.ts and console.spec.ts on one server: 85-88 s without, 102 s
    // with snapshots only, 126 s with both), and CI keeps only the log. To see a failure step by step, run
    // the flow again with `--trace retain-on-failure` (or `--trace on`) and open it with `npx playwright
    // show-trace`. A failure still prints the error and the call log of the step that failed.
    trace: 'off',
    launchOptions: {
      executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: servers.map(({ name, port, dataDir: folder, files }) => ({
    name,
    testMatch: files.map(exactly),
    workers: 1,
    metadata: { port, dataDir: folder },
    use: {
      baseURL: `http://127.0.0.1:${port}`,
      // The flows of other features answer "not now" to the passkey offer after sign-in (ADR 0031) ahead of
      // time; passkeys.spec.ts runs on http://localhost (a WebAuthn origin), where the offer is shown.
      storageState: {
        cookies: [],
        origins: [
          {
            origin: `http://127.0.0.1:${port}`,
            localStorage: [{ name: 'kabuto.passkeyOfferDismissed', value: '1' }],
          },
        ],
      },
    },
  })),
  // one server per project, each on its own port and data folder
  webServer: servers.map(({ name, port, dataDir: folder }) => ({
    name,
    command: 'node ../apps/server/dist/main.js',
    url: `http://127.0.0.1:${port}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: folder,
      DATABASE_URL: '',
      REDIS_PREFIX: `kabuto-e2e-${createHash('sha256').update(folder).digest('hex').slice(0, 16)}:`,
      LOG_LEVEL: 'warn',
      DEMO_MODE: 'true',
      MARKET_CLOCK: 'always-open',
      // POST /api/clock/advance: flows that must pass a close, a drawing time or a due date move the clock
      CLOCK_CONTROL: 'true',
      SESSION_IDLE_MINUTES: '30',
      // every flow registers from 127.0.0.1, in the 080 range: the SMS caps and client throttle (ADR 0030)
      // would stop the suite, not an attacker; login-throttle.spec.ts exercises the per-account throttle
      SMS_DAILY_PER_CLIENT: '100000',
      SMS_DAILY_PER_RANGE: '100000',
      LOGIN_CLIENT_FREE_FAILURES: '100000',
      // and so would the per-client rate limit of the routes that check a secret (sign-up, sign-in, passwords,
      // withdrawals, bank accounts): every flow is the same client here. Its 429 is tested in
      // apps/server/src/modules/auth/throttle.test.ts
      AUTH_RATE_LIMIT_PER_MINUTE: '100000',
      // the suite's flows sign the seeded administrator in by password (support/operator-api.ts, console.ts);
      // console-passkeys.spec.ts goes through the passkey flow with an administrator of its own (ADR 0033)
      CONSOLE_ADMIN_PASSKEY: 'optional',
      // the seeded administrator's one-time password (support/operator-api.ts changes it at first use)
      CONSOLE_ADMIN_PASSWORD: 'e2e-admin-once-2026',
    },
  })),
});
