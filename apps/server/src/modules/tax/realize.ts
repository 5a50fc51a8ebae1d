import { and, eq, sql } from 'drizzle-orm';
import {
  negSen,
  sen,
  withholdingFor,
  type LedgerEntryKind,
  type MarginType,
  type Sen,
  type TaxAccount,
} from '@kabuto/contract';
import type { Executor, Tx } from '../../db/types.js';
import { run, statement } from '../../db/statement.js';
import { brokerageAccounts, realizations } from '../../db/schema.js';
import { tokyoParts } from '../../lib/tokyo-time.js';
import { postEntry, type PostingLine } from '../ledger/ledger.js';
import { taxSettings } from '../settings/settings.js';

/**
 * Realized gains and the tax withheld on them (ADR 0021). Every cash sale and margin close writes a
 * realization; in 特定口座 源泉徴収あり the year's withholding then moves to what the year's net gain calls for.
 */

export interface Realization {
  userId: number;
  orderId: number;
  orderNo: string;
  account: TaxAccount;
  marginType: MarginType;
  code: string;
  quantity: number;
  /** 譲渡の対価 */
  proceeds: Sen;
  /** 取得費 + 譲渡費用 */
  cost: Sen;
  at: Date;
}

/** The Tokyo calendar year of an instant: the tax year. */
export const taxYearOf = (at: Date): number => tokyoParts(at).year;

/** The UTC instant a Tokyo calendar year starts. */
export const taxYearStart = (year: number): Date => new Date(Date.UTC(year - 1, 11, 31, 15));

export const TAX_ENTRY_KINDS = ['tax_withheld', 'tax_refund'] as const satisfies readonly LedgerEntryKind[];

/** The year's net realized gain in an account (sen). */
export async function yearGain(
  db: Executor,
  userId: number,
  year: number,
  account: TaxAccount,
): Promise<Sen> {
  const [row] = await db
    .select({ gain: sql<string>`coalesce(sum(${realizations.gain}), 0)::text` })
    .from(realizations)
    .where(
      and(eq(realizations.userId, userId), eq(realizations.year, year), eq(realizations.taxAccount, account)),
    );
  return sen(BigInt(row?.gain ?? '0'));
}

/**
 * What has been withheld from a user for a year, net of refunds: the house tax accounts' side of the user's
 * tax entries of that year (each has one line on the user's cash, which finds it).
 */
export async function withheldInYear(
  db: Executor,
  userId: number,
  year: number,
): Promise<{ national: Sen; local: Sen }> {
  const [row] = await run(db, withheldStatement, { userId, year });
  return { national: sen(BigInt(row?.national ?? '0')), local: sen(BigInt(row?.local ?? '0')) };
}

const withheldStatement = statement<{ userId: number; year: number }, { national: string; local: string }>(
  'tax_withheld_in_year',
  (p) => `select
      coalesce(sum(h.amount) filter (where a.kind = 'tax_withholding_national'), 0)::text as national,
      coalesce(sum(h.amount) filter (where a.kind = 'tax_withholding_local'), 0)::text as local
    from postings u
    join journal_entries e on e.id = u.entry_id
    join postings h on h.entry_id = e.id and h.user_id is null
    join ledger_accounts a on a.id = h.account_id
    where u.user_id = ${p('userId')}::int and e.kind in ('tax_withheld', 'tax_refund')
      and (e.params->>'year')::int = ${p('year')}::int`,
);

/** Whether the user's 特定口座 withholds (源泉徴収あり). */
async function withholds(db: Executor, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ choice: brokerageAccounts.specificAccount })
    .from(brokerageAccounts)
    .where(eq(brokerageAccounts.userId, userId));
  return row?.choice === 'withholding';
}

/**
 * Records a realization and, in 特定口座 源泉徴収あり, moves the year's withholding to what the year's net gain
 * calls for: more withheld from cash (tax_withheld) or some given back (tax_refund). In the caller's
 * transaction, under the user's lock.
 */
export async function realize(tx: Tx, r: Realization): Promise<void> {
  const year = taxYearOf(r.at);
  await tx.insert(realizations).values({
    userId: r.userId,
    orderId: r.orderId,
    taxAccount: r.account,
    marginType: r.marginType,
    code: r.code,
    quantity: r.quantity,
    proceeds: r.proceeds,
    cost: r.cost,
    gain: sen(r.proceeds - r.cost),
    year,
    realizedAt: r.at,
  });
  if (r.account !== 'specific' || !(await withholds(tx, r.userId))) return;
  const [gain, withheld, rates] = await Promise.all([
    yearGain(tx, r.userId, year, 'specific'),
    withheldInYear(tx, r.userId, year),
    taxSettings(tx),
  ]);
  const target = withholdingFor(gain, rates);
  const national = sen(target.national - withheld.national);
  const local = sen(target.local - withheld.local);
  // One entry when both move the same way (the usual case); two when a changed rate moves them apart.
  const moves =
    Math.sign(national) * Math.sign(local) < 0
      ? [
          { national, local: sen(0) },
          { national: sen(0), local },
        ]
      : [{ national, local }];
  for (const move of moves) {
    const total = sen(move.national + move.local);
    if (total === 0) continue;
    const lines: PostingLine[] = [
      { user: r.userId, account: 'cash', amount: negSen(total) },
      { house: 'tax_withholding_national', amount: move.national },
      { house: 'tax_withholding_local', amount: move.local },
    ];
    await postEntry(tx, {
      kind: total > 0 ? 'tax_withheld' : 'tax_refund',
      params: {
        year,
        gain: target.gainYen * 100,
        national: Math.abs(move.national),
        local: Math.abs(move.local),
        order_no: r.orderNo,
      },
      ref: `tax:${r.orderNo}`,
      at: r.at,
      lines,
    });
  }
}
