import { createHash } from 'node:crypto';

/**
 * Each user's postings form a hash chain (ADR 0010): a posting's hash covers the previous hash and the
 * posting's fields, starting from GENESIS_HASH. Pure: posting.ts hashes new postings with it, heads.ts checks
 * the heads against it, statement.ts verifies a downloaded statement.
 */
export const GENESIS_HASH = '0'.repeat(64);

/** What a posting's hash covers, in this order; the statement carries the same fields. */
export interface ChainFields {
  seq: number;
  entry: number;
  at: string;
  kind: string;
  account: string;
  amount: number;
}

export function chainHash(prev: string, f: ChainFields): string {
  return createHash('sha256')
    .update([prev, f.seq, f.entry, f.at, f.kind, f.account, f.amount].join('|'))
    .digest('hex');
}
