/**
 * The double-entry ledger (ADR 0002, ADR 0010, ADR 0016), as the rest of the server imports it: this file
 * only re-exports (ADR 0017). Every movement of money is one journal entry whose postings sum to zero,
 * written in the caller's transaction; balances are sums of postings, cached per user in the user's ledger
 * head, and each user's postings form a hash chain.
 *
 * accounts.ts  account kinds, opening a user's accounts, account ids (remembered per database)
 * chain.ts     the postings' hash chain
 * heads.ts     the users' ledger heads: the user's lock, reading balances, the heads' check
 * posting.ts   writing entries: entryCtes, the one SQL generator behind postEntry and the order path;
 *              postEntries, the daily jobs' batches of many entries in one statement (or drawEntryIds,
 *              prepareEntries and writeEntries, for a batch that sends its other writes behind them)
 * claim.ts     the Idempotency-Key claim under the user's lock (ledgerClaim, takeClaimedLedger)
 */
export {
  HOUSE_ACCOUNT_KINDS,
  LedgerError,
  USER_ACCOUNT_KINDS,
  houseAccountId,
  openUserAccounts,
  userAccountId,
  type HouseAccountKind,
  type UserAccountKind,
} from './accounts.js';
export { GENESIS_HASH, chainHash, type ChainFields } from './chain.js';
export {
  balanceOf,
  headCheckSql,
  ledgerColumns,
  ledgerHeadMismatches,
  lockUser,
  lockUsers,
  readLedger,
  takeLedgerRow,
  userBalances,
  userLockCte,
  type LedgerRead,
  type LedgerRow,
  type UserBalances,
} from './heads.js';
export {
  drawEntryIds,
  entryCtes,
  entryParams,
  fundDemoCash,
  postEntries,
  postEntry,
  prepareEntries,
  writeEntries,
  type EntriesParams,
  type EntryDraft,
  type EntryParams,
  type PostingLine,
} from './posting.js';
export { ledgerClaim, takeClaimedLedger, type ClaimedLedger } from './claim.js';
