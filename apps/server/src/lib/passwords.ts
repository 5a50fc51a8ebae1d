import { hash, verify } from '@node-rs/argon2';

/**
 * argon2id with OWASP's recommended minimum (m = 19 MiB, t = 2, p = 1).
 * `Algorithm` is a const enum in the library's types, which isolated modules cannot inline: 2 is Argon2id.
 */
const ARGON2ID = 2;
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

/** A hash to verify against when the account does not exist, so that timing does not reveal it. */
let dummy: Promise<string> | undefined;
export function dummyHash(): Promise<string> {
  dummy ??= hashPassword('not-a-real-password');
  return dummy;
}
