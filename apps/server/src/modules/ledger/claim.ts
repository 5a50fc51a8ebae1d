import { getTableName } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { run, statement, type Statement } from '../../db/statement.js';
import { keyClaimCte, type Claim, type ClaimParams, type KeyClaimer } from '../../plugins/idempotency.js';
import { takeLedgerRow, userLockCte, type LedgerRead, type LedgerRow } from './heads.js';

/**
 * The ledger's claim of an Idempotency-Key (plugins/idempotency.ts runs it first in the request's
 * transaction): the user's lock with the read of the user's ledger and ids drawn for the tables of `draw`
 * (userLockCte), then the key's claim, whose value reads the locked row, in one statement.
 */

/** What ledgerClaim holds for the request: the user's ledger as read under the lock, and what it drew for. */
export interface ClaimedLedger {
  read: LedgerRead;
  draw: readonly PgTable[];
}

type ClaimRow = LedgerRow & { key: string | null };
const claimStatements = new Map<string, Statement<ClaimParams, ClaimRow>>();

function claimStatement(draw: readonly PgTable[]): Statement<ClaimParams, ClaimRow> {
  const name = ['idempotency_claim', ...draw.map((table) => getTableName(table))].join('_');
  let found = claimStatements.get(name);
  if (!found) {
    found = statement<ClaimParams, ClaimRow>(
      name,
      (p) => `with ${userLockCte(p, draw)}, ${keyClaimCte(p, '(select id from locked_user)')}
        select l.*, c.key from locked_user l left join claimed c on true`,
    );
    claimStatements.set(name, found);
  }
  return found;
}

/** The claimer of a request that moves the user's money: it takes the user's lock and reads the ledger. */
export function ledgerClaim(draw: readonly PgTable[] = []): KeyClaimer<ClaimedLedger> {
  return async (tx, params) => {
    const [row] = await run(tx, claimStatement(draw), params);
    const read = takeLedgerRow(tx, params.userId, row, { draw, locked: true });
    return { claimed: Boolean(row?.key), held: { read, draw } };
  };
}

/**
 * The ledger the claim read, if it drew ids for exactly the tables of `draw`; once: afterwards, or when it
 * drew for other tables, the caller reads it itself (readLedger). It is current until the request moves
 * money: take it before anything else.
 */
export function takeClaimedLedger(
  claim: Claim<unknown, ClaimedLedger> | undefined,
  draw: readonly PgTable[],
): LedgerRead | undefined {
  const ledger = claim?.held;
  if (claim) delete claim.held;
  const same = ledger?.draw.length === draw.length && ledger.draw.every((table, i) => table === draw[i]);
  return same ? ledger.read : undefined;
}
