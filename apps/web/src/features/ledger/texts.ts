import {
  LEDGER_ENTRY_KINDS,
  type LedgerAccount,
  type LedgerEntryKind,
  type TLedgerMovement,
} from '@kabuto/contract';
import type { TFunction } from 'i18next';
import { CONTRACT_NS } from '@kabuto/client/i18n';
import { formatParams, type Formatters } from '@/shared/format/params';

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

/** A movement's state as the customer reads it (the catalogue's `ledger.states`). */
export type MovementState =
  'requested' | 'paid' | 'returned' | 'received' | 'pending' | 'executed' | 'cancelled';

/**
 * The state a movement's latest entry puts it in: a withdrawal requested, then paid or returned; an order
 * open (its cash held), executed or cancelled; a deposit received. A kind that states nothing (demo cash, a
 * lone fee) is null. Typed by the one list, so a new kind must say what state it means.
 */
export const STATE_OF_KIND: Record<LedgerEntryKind, MovementState | null> = {
  demo_funding: null,
  order_reserve: 'pending',
  order_release: 'cancelled',
  trade_buy: 'executed',
  trade_sell: 'executed',
  fee: null,
  margin_open: 'executed',
  margin_close: 'executed',
  deposit: 'received',
  withdrawal_hold: 'requested',
  withdrawal_paid: 'paid',
  withdrawal_release: 'returned',
  tax_withheld: null,
  tax_refund: null,
  fund_apply: 'pending',
  fund_buy: 'executed',
  fund_redeem: 'executed',
  dividend: 'received',
  dividend_adjustment: null,
  // an IPO or distribution application: cash held, released (withdrawn, not won, declined), or paid
  ipo_reserve: 'pending',
  ipo_release: 'cancelled',
  ipo_payment: 'executed',
  // issue 18: a loan's one movement (ref loan:<id>): received, then its repayment (its net is the interest)
  loan_disbursement: 'received',
  loan_repayment: null,
};

/** The business object a movement is, by its first entry's kind: how its title and first amount read. */
export type MovementFamily = 'order' | 'withdrawal' | 'other';
const FAMILY_OF_KIND: Record<LedgerEntryKind, MovementFamily> = {
  demo_funding: 'other',
  order_reserve: 'order',
  order_release: 'order',
  trade_buy: 'order',
  trade_sell: 'order',
  fee: 'other',
  margin_open: 'order',
  margin_close: 'order',
  deposit: 'other',
  withdrawal_hold: 'withdrawal',
  withdrawal_paid: 'withdrawal',
  withdrawal_release: 'withdrawal',
  tax_withheld: 'other',
  tax_refund: 'other',
  fund_apply: 'other',
  fund_buy: 'other',
  fund_redeem: 'other',
  dividend: 'other',
  dividend_adjustment: 'other',
  ipo_reserve: 'other',
  ipo_release: 'other',
  ipo_payment: 'other',
  loan_disbursement: 'other',
  loan_repayment: 'other',
};

export function movementFamily(m: Pick<TLedgerMovement, 'kind'>): MovementFamily {
  return FAMILY_OF_KIND[m.kind];
}

/**
 * A movement's title: an executed order by what it did (purchase, sale, margin opened or closed: the
 * contract's kind labels), an order not executed as an order, a withdrawal as a withdrawal whatever its
 * state, anything else by its kind (deposit, demo cash).
 */
export function movementTitle(t: TFunction, m: Pick<TLedgerMovement, 'kind' | 'state'>): string {
  const family = movementFamily(m);
  if (family === 'order') {
    return STATE_OF_KIND[m.state] === 'executed' ? kindLabel(t, m.state) : t('ledger.movement.order');
  }
  if (family === 'withdrawal') return t('ledger.movement.withdrawal');
  return kindLabel(t, m.kind);
}

export function movementState(t: TFunction, m: Pick<TLedgerMovement, 'state'>): string | null {
  const state = STATE_OF_KIND[m.state];
  return state === null ? null : t(`ledger.states.${state}`);
}

/** What the movement started with, when it is not what it came to (a returned withdrawal, a cancelled order). */
export function movementOpening(
  t: TFunction,
  m: Pick<TLedgerMovement, 'kind' | 'cash' | 'opening_cash'>,
  amount: string,
): string | null {
  return m.cash === m.opening_cash ? null : t(`ledger.opening.${movementFamily(m)}`, { amount });
}

/**
 * A movement's (or line's) memo in the reader's language: the contract catalogue's `ledgerMemos.<kind>` with
 * the entry's params filled in (amounts and prices in the reader's money format, as in messages). An entry
 * written before params existed (params null), or of a kind this app does not know, shows the English memo
 * the server stored, as operators read it.
 */
export function memoText(
  t: TFunction,
  fmt: Formatters,
  m: { kind: string; memo: string | null; params: TLedgerMovement['params'] },
): string | null {
  if (m.params === null || !isLedgerEntryKind(m.kind)) return m.memo === '' ? null : m.memo;
  return t(`ledgerMemos.${m.kind}`, { ns: CONTRACT_NS, ...formatParams(m.params, fmt) });
}
