import { LEDGER_ENTRY_KINDS, type LedgerAccount, type LedgerEntryKind } from '@kabuto/contract';
import type { TFunction } from 'i18next';
import { CONTRACT_NS } from '@kabuto/client/i18n';

/**
 * The transaction log's names for entry kinds and accounts: the contract's catalogues (`ledgerKinds`,
 * `accounts`), the same texts the statement CSV and the console use, so there is one label per kind and
 * every kind of LEDGER_ENTRY_KINDS has one in each language (texts.test.ts).
 */
export function isLedgerEntryKind(kind: string): kind is LedgerEntryKind {
  return (LEDGER_ENTRY_KINDS as readonly string[]).includes(kind);
}

/** A kind's label; a kind this app does not know yet (a newer server) is shown as it came. */
export function kindLabel(t: TFunction, kind: string): string {
  return isLedgerEntryKind(kind) ? t(`ledgerKinds.${kind}`, { ns: CONTRACT_NS }) : kind;
}

export function accountLabel(t: TFunction, account: LedgerAccount): string {
  return t(`accounts.${account}`, { ns: CONTRACT_NS });
}
