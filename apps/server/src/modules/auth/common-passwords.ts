import { readFileSync } from 'node:fs';
import { AppError } from '../../lib/app-error.js';

/** The shipped list (apps/server/security-data/common-passwords.txt, see SOURCES.md beside it). */
const LIST_URL = new URL('../../../security-data/common-passwords.txt', import.meta.url);

let list: ReadonlySet<string> | undefined;

/** The common and breached passwords of 6-10 characters, read once. Compared exactly and lower-cased. */
export function commonPasswords(): ReadonlySet<string> {
  list ??= new Set(
    readFileSync(LIST_URL, 'utf8')
      .split('\n')
      .filter((line) => line.length > 0),
  );
  return list;
}

export function isCommonPassword(password: string): boolean {
  const set = commonPasswords();
  return set.has(password) || set.has(password.toLowerCase());
}

/** Refuses a new login password that is on the list (ADR 0030): a clear message, the length rule unchanged. */
export function refuseCommonPassword(password: string): void {
  if (isCommonPassword(password)) throw new AppError('PASSWORD_TOO_COMMON');
}
