// Helpers shared by `npm start` and `npm test`. Node built-ins only: this runs before dependencies exist.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export function checkNode() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < 20 || (major === 20 && minor < 19)) {
    console.error(`Kabuto needs Node.js 20.19 or newer; this is ${process.versions.node}.`);
    process.exit(1);
  }
}

export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

export function runOrExit(command, args, options = {}) {
  const status = run(command, args, options);
  if (status !== 0) {
    console.error(`\n✗ ${command} ${args.join(' ')} failed (exit ${status})`);
    process.exit(status);
  }
}

/**
 * Runs a command with its stdout and stderr kept together in one buffer, in the order they came: for steps
 * run at once, whose output is printed whole when each ends. Answers the exit status and the output.
 */
export function runBuffered(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], ...options });
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
    child.on('error', (error) => {
      chunks.push(Buffer.from(`${error.message}\n`));
      resolve({ status: 1, output: Buffer.concat(chunks).toString('utf8') });
    });
    child.on('close', (code, signal) =>
      resolve({ status: code ?? (signal ? 1 : 0), output: Buffer.concat(chunks).toString('utf8') }),
    );
  });
}

/** Installs dependencies when they are missing or older than the lockfile. */
export function ensureInstalled() {
  const marker = join(root, 'node_modules', '.package-lock.json');
  const lock = join(root, 'package-lock.json');
  if (!existsSync(marker)) {
    console.log('Installing dependencies (npm ci)…');
    runOrExit('npm', ['ci', '--no-audit', '--no-fund']);
  } else if (statSync(lock).mtimeMs > statSync(marker).mtimeMs) {
    console.log('The lockfile changed: installing dependencies…');
    runOrExit('npm', ['install', '--no-audit', '--no-fund']);
  }
}

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

const buildInputs = [
  'package-lock.json',
  'tsconfig.base.json',
  'packages/contract',
  'apps/server/src',
  'apps/server/drizzle',
  'apps/server/market-data',
  'apps/server/security-data',
  'apps/server/package.json',
  'apps/server/tsconfig.json',
  'apps/web',
  'apps/console',
];
const stamp = join(root, 'node_modules', '.cache', 'kabuto-build-stamp');

/** Builds the contract, the server, the web app and the console when a source is newer than the last build. */
export function ensureBuilt({ force = false } = {}) {
  const newest = Math.max(...buildInputs.map((p) => newestMtime(join(root, p))));
  const built = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
  const outputs = [
    'apps/server/dist/main.js',
    'apps/web/dist/index.html',
    'apps/console/dist/index.html',
  ].every((p) => existsSync(join(root, p)));
  if (!force && outputs && built >= newest) return;
  console.log('Building…');
  runOrExit('npm', ['run', 'build']); // its postbuild step writes the stamp
}

/**
 * Notes that the tree was just built (`npm run build`'s postbuild step, scripts/build-stamp.mjs), so that the
 * next `npm start` does not build it again.
 */
export function writeBuildStamp() {
  mkdirSync(dirname(stamp), { recursive: true });
  writeFileSync(stamp, new Date().toISOString());
}

/**
 * The files under `dir/prefix` (as paths relative to `dir`, `/`-separated) that `keep` accepts; node_modules
 * and dist left out.
 */
export function listFiles(dir, keep, prefix = '') {
  const found = [];
  for (const entry of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) found.push(...listFiles(dir, keep, path));
    else if (keep(path)) found.push(path);
  }
  return found.sort();
}

/** A banner that a scrolling terminal does not hide: a title and one line per item between two rules. */
export function notRunBanner(title, items) {
  const rule = '!'.repeat(100);
  return ['', rule, `!! ${title}:`, ...items.map((item) => `!!   - ${item}`), rule, ''].join('\n');
}

export function findChromium() {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(
    Boolean,
  );
  return candidates.find((p) => existsSync(p));
}

/** The one command that installs Debian's Chromium, as the user must type it. */
export const CHROMIUM_INSTALL = 'sudo apt-get update && sudo apt-get install -y chromium';

/**
 * Chromium for the end-to-end tests: the one found, or Debian's package installed here when this machine can
 * (Debian or Ubuntu, as root or with passwordless sudo). Answers the binary's path, or undefined after saying
 * what to run when it cannot install it.
 */
/**
 * Installs Debian packages with apt-get (the package lists refreshed first), as root or with passwordless
 * sudo, saying what was `missing`. undefined when this machine cannot (no apt-get, or neither), else whether
 * it worked.
 */
export function aptInstall(packages, missing) {
  const apt = existsSync('/usr/bin/apt-get');
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const sudo = !root && apt && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0;
  if (!apt || !(root || sudo)) return undefined;
  console.log(`${missing} is missing: installing Debian's ${packages.join(' and ')} (apt-get)…`);
  const run = (args) =>
    spawnSync(root ? args[0] : 'sudo', root ? args.slice(1) : ['-n', ...args], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    }).status === 0;
  return run(['apt-get', 'update', '-qq']) && run(['apt-get', 'install', '-y', '-qq', ...packages]);
}

export function ensureChromium() {
  const found = findChromium();
  if (found) return found;
  const installed = aptInstall(['chromium'], 'Chromium');
  if (installed !== undefined) {
    const path = installed ? findChromium() : undefined;
    if (path) return path;
    console.error('Installing chromium with apt-get failed (its output is above).');
  }
  console.error(
    'Chromium was not found (looked at CHROMIUM_PATH, /usr/bin/chromium and /usr/bin/chromium-browser), and ' +
      'this machine cannot install it by itself (no apt-get, or neither root nor passwordless sudo).\n' +
      'The end-to-end tests drive a real Chromium. Install it with:\n' +
      `  ${CHROMIUM_INSTALL}\n` +
      'or point CHROMIUM_PATH at an existing Chromium or Chrome binary, then run npm test again.',
  );
  return undefined;
}

/** HAProxy and OpenSSL's command: what the production front's test (deploy/haproxy.cfg) runs. */
export const HAPROXY_INSTALL = 'sudo apt-get update && sudo apt-get install -y haproxy openssl';

/** The haproxy binary (HAPROXY_PATH, the PATH, /usr/sbin), when it and openssl both run. */
export function findHaproxy() {
  const runs = (command, args) => spawnSync(command, args, { stdio: 'ignore' }).status === 0;
  if (!runs('openssl', ['version'])) return undefined;
  return [process.env.HAPROXY_PATH, 'haproxy', '/usr/sbin/haproxy'].find((c) => c && runs(c, ['-v']));
}

/**
 * HAProxy for the test of the production front, installed from Debian when missing and this machine may (as
 * Chromium is). undefined when it is still missing: that suite is then reported as not run (CI fails on it).
 */
export function ensureHaproxy() {
  const found = findHaproxy();
  if (found) return found;
  if (aptInstall(['haproxy', 'openssl'], 'HAProxy or OpenSSL')) return findHaproxy();
  console.warn(
    `HAProxy could not be installed here; the production front's test will not run. Install it with:\n  ${HAPROXY_INSTALL}`,
  );
  return undefined;
}

/**
 * The first of `candidates` that runs (with `probe` as its arguments), installing the Debian package `pkg` when
 * none does and this machine may; otherwise an error naming the command to run and what needs it (the benches'
 * HAProxy and OpenSSL).
 */
export function ensureCommand(candidates, probe, pkg, neededFor) {
  const find = () => candidates.find((c) => spawnSync(c, probe, { stdio: 'ignore' }).status === 0);
  const found = find() ?? (aptInstall([pkg], pkg) ? find() : undefined);
  if (found !== undefined) return found;
  throw new Error(`${pkg} is needed for ${neededFor}: run  sudo apt-get install -y ${pkg}`);
}

/**
 * A self-signed certificate for 127.0.0.1 made by OpenSSL in `dir`, valid for `days`, as the one PEM file (the
 * certificate, then its key) that HAProxy's `crt` takes: the production front's test and the HTTP/2 bench run
 * deploy/haproxy.cfg with it. Returns the file's path; throws with OpenSSL's message when it fails.
 */
export function selfSignedPem(dir, { openssl = 'openssl', days = 1 } = {}) {
  const key = join(dir, 'key.pem');
  const cert = join(dir, 'cert.pem');
  const subject = ['-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'];
  const args = ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', String(days), ...subject];
  const made = spawnSync(openssl, [...args, '-keyout', key, '-out', cert], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`openssl could not make a certificate: ${made.stderr}`);
  const pem = join(dir, 'site.pem');
  writeFileSync(pem, readFileSync(cert, 'utf8') + readFileSync(key, 'utf8'));
  return pem;
}
