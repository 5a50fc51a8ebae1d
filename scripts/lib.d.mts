// Types of what the benches (TypeScript) use from scripts/lib.mjs, which npm test runs before any install.
/** apt-get install of `packages` as root or with passwordless sudo; undefined when this machine cannot. */
export function aptInstall(packages: string[], missing: string): boolean | undefined;
/** The first of `candidates` that runs, installing Debian's `pkg` when none does; throws with the command. */
export function ensureCommand(candidates: string[], probe: string[], pkg: string, neededFor: string): string;
