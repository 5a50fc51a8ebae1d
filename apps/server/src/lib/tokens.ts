import { createHash, randomBytes, randomInt } from 'node:crypto';

/** A session token: 256 random bits, base64url. Only its SHA-256 is stored. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** Uppercase letters and digits without the ones people confuse (0/O, 1/I/L). */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

export function newInvitationCode(length = 8): string {
  let code = '';
  for (let i = 0; i < length; i++) code += CODE_ALPHABET.charAt(randomInt(CODE_ALPHABET.length));
  return code;
}

export function newNumericCode(digits: number): string {
  return String(randomInt(10 ** digits)).padStart(digits, '0');
}
