/**
 * What the benches need from the distribution (HAProxy, OpenSSL, a CJK font): installed by apt-get when this
 * process may (root, as .ci/run is, or passwordless sudo), otherwise the bench stops with the one command to
 * run. Debian and Ubuntu only; elsewhere it says what is missing.
 */
import { spawnSync } from 'node:child_process';

/** Whether this process may install packages: root, or sudo without a password. */
function mayInstall(): { root: boolean; sudo: boolean } {
  const root = process.getuid?.() === 0;
  const sudo = !root && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0;
  return { root, sudo };
}

/** apt-get install -y `packages`, as root or through sudo; false when apt-get or the right to use it is missing. */
export function aptInstall(packages: string[]): boolean {
  const { root, sudo } = mayInstall();
  if (spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status !== 0 || !(root || sudo)) return false;
  console.error(`Installing ${packages.join(', ')}: apt-get install -y ${packages.join(' ')}`);
  const args = ['install', '-y', '-qq', ...packages];
  const result = spawnSync(root ? 'apt-get' : 'sudo', root ? args : ['-n', 'apt-get', ...args], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return result.status === 0;
}

/**
 * The first of `candidates` that runs (`probe` as its arguments), installing the Debian package `pkg` when none
 * does and this process may; otherwise an error naming the command to run and what needs it.
 */
export function ensureBinary(candidates: string[], probe: string[], pkg: string, neededFor: string): string {
  const find = () => candidates.find((c) => spawnSync(c, probe, { stdio: 'ignore' }).status === 0);
  const found = find() ?? (aptInstall([pkg]) ? find() : undefined);
  if (found !== undefined) return found;
  throw new Error(`${pkg} is needed for ${neededFor}: run  sudo apt-get install -y ${pkg}`);
}
