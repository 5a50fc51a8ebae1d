import { describe, expect, it } from 'vitest';
import { sen } from '@kabuto/contract';
import { journalEntries, orders } from '../../db/schema.js';
import type { Claim } from '../../plugins/idempotency.js';
import { takeClaimedLedger, type ClaimedLedger } from './claim.js';

const read = {
  balances: { cash: sen(100), reserved: sen(0), margin: sen(0), withdrawing: sen(0) },
  drawn: [7, 8],
};
const claimWith = (draw: Parameters<typeof takeClaimedLedger>[1]): Claim<unknown, ClaimedLedger> => ({
  userId: 1,
  key: 'key-12345678',
  held: { read, draw },
});

describe('the ledger a claim read', () => {
  it('is taken once, by a caller that wants ids of the same tables', () => {
    const claim = claimWith([orders, journalEntries]);
    expect(takeClaimedLedger(claim, [orders, journalEntries])).toBe(read);
    expect(takeClaimedLedger(claim, [orders, journalEntries])).toBeUndefined();
  });

  it('is not taken by a caller that wants ids of other tables: that caller reads for itself', () => {
    expect(takeClaimedLedger(claimWith([orders]), [orders, journalEntries])).toBeUndefined();
    expect(takeClaimedLedger(claimWith([journalEntries, orders]), [orders, journalEntries])).toBeUndefined();
    expect(takeClaimedLedger(claimWith([]), [orders])).toBeUndefined();
    expect(takeClaimedLedger(undefined, [orders])).toBeUndefined();
  });
});
