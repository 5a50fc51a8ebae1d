// Types of what the benches and tests (TypeScript) use from scripts/lib.mjs, which npm test runs before any install.
/** apt-get install of `packages` as root or with passwordless sudo; undefined when this machine cannot. */
export function aptInstall(packages: string[], missing: string): boolean | undefined;
/** The first of `candidates` that runs, installing Debian's `pkg` when none does; throws with the command. */
export function ensureCommand(candidates: string[], probe: string[], pkg: string, neededFor: string): string;
/** A self-signed certificate and key for 127.0.0.1 in one PEM file in `dir` (HAProxy's `crt`); its path. */
export function selfSignedPem(dir: string, options?: { openssl?: string; days?: number }): string;
