import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Config } from '../../config.js';

/**
 * My Numbers (個人番号) at rest (ADR 0022): AES-256-GCM with a 12-byte random IV per number, stored as
 * `iv.tag.ciphertext` in base64url; the 16-byte tag makes any change to the stored text fail to decrypt.
 * The key comes from MY_NUMBER_KEY, or is generated once into DATA_DIR/keys/my-number.key (mode 0600).
 */
export const KEY_BYTES = 32;

/** The key file under DATA_DIR used when MY_NUMBER_KEY is unset. */
export function myNumberKeyPath(dataDir: string): string {
  return join(dataDir, 'keys', 'my-number.key');
}

export function loadMyNumberKey(config: Pick<Config, 'MY_NUMBER_KEY' | 'DATA_DIR'>): Buffer {
  if (config.MY_NUMBER_KEY !== undefined) return Buffer.from(config.MY_NUMBER_KEY, 'base64');
  const path = myNumberKeyPath(config.DATA_DIR);
  try {
    const stored = Buffer.from(readFileSync(path, 'utf8').trim(), 'base64');
    if (stored.length !== KEY_BYTES) throw new Error(`${path} does not hold a ${KEY_BYTES}-byte key`);
    return stored;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const key = randomBytes(KEY_BYTES);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  // wx: of two processes starting at once, the second fails here rather than overwrite the first's key.
  writeFileSync(path, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(path, 0o600);
  return key;
}

export function encryptMyNumber(key: Buffer, myNumber: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(myNumber, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), ciphertext].map((b) => b.toString('base64url')).join('.');
}

/** Throws when the text was not made with this key or was changed since. */
export function decryptMyNumber(key: Buffer, stored: string): string {
  const parts = stored.split('.');
  if (parts.length !== 3) throw new Error('not an encrypted My Number');
  const [iv, tag, ciphertext] = parts.map((p) => Buffer.from(p, 'base64url')) as [Buffer, Buffer, Buffer];
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
}
