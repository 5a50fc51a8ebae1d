import { lookup, translate, type Locale, type TLedgerLine } from '@kabuto/contract';
import type { Executor } from '../../db/types.js';
import { ledgerLines, type LineFilter } from './lines.js';
import { statementCsv } from './statement.js';

/**
 * The two answers built from a user's ledger lines, shared by the user's own routes and the console's
 * read-only user lookup: one page of lines with running balances, and the CSV statement.
 */

const HEADER = [
  'seq',
  'entry',
  'timeUtc',
  'timeTokyo',
  'kind',
  'kindLabel',
  'account',
  'amount',
  'balance',
  'prevHash',
  'hash',
];

/** One page of the user's ledger lines, newest first. */
export async function ledgerPage(
  db: Executor,
  userId: number,
  query: LineFilter & { limit: number; offset: number },
): Promise<{ total: number; items: TLedgerLine[] }> {
  const { limit, offset, ...filter } = query;
  const { total, lines } = await ledgerLines(db, userId, filter, { limit, offset, newestFirst: true });
  return {
    total,
    items: lines.map((l) => ({
      seq: l.seq,
      at: l.at,
      kind: l.kind,
      account: l.account as TLedgerLine['account'],
      amount: l.amount,
      balance: l.balance,
      memo: l.memo,
      params: l.params,
      hash: l.hash,
    })),
  };
}

/** The user's statement for a period (Tokyo dates, inclusive) as CSV in the locale, with its file name. */
export async function statementFile(
  db: Executor,
  userId: number,
  locale: Locale,
  period: { from?: string | undefined; to?: string | undefined },
): Promise<{ filename: string; csv: string; lines: number }> {
  const { lines } = await ledgerLines(db, userId, period);
  const time = new Intl.DateTimeFormat(locale, {
    timeZone: 'Asia/Tokyo',
    dateStyle: 'short',
    timeStyle: 'medium',
  });
  const csv = statementCsv(
    lines,
    HEADER.map((h) => translate(locale, `statement.${h}`)),
    (kind) => lookup(locale, `ledgerKinds.${kind}`) ?? kind,
    (account) => lookup(locale, `accounts.${account}`) ?? account,
    (iso) => time.format(new Date(iso)),
  );
  const filename = `kabuto-statement-${period.from ?? 'start'}-${period.to ?? 'now'}.csv`;
  return { filename, csv, lines: lines.length };
}
