import { negSen, senToDecimalString, parseYenInput, type Sen } from '@kabuto/contract';
import { parseCsv } from '../../market/csv.js';
import { GENESIS_HASH, chainHash } from './ledger.js';

/**
 * The downloadable statement (CSV) and its verification (ADR 0010). Columns, in this order:
 * seq, entry, time (UTC, ISO), time (Tokyo, for reading), kind, kind label, account, amount (JPY),
 * balance after (JPY), previous hash, hash. The hash covers seq, entry, time, kind, account and amount
 * chained to the previous hash, so a changed, removed or reordered line breaks the chain.
 */
export interface StatementLine {
  seq: number;
  entry: number;
  at: string;
  kind: string;
  account: string;
  amount: Sen;
  balance: Sen;
  prevHash: string;
  hash: string;
}

const quote = (field: string) => (/[",\n\r]/.test(field) ? `"${field.replaceAll('"', '""')}"` : field);

export function statementCsv(
  lines: readonly StatementLine[],
  header: readonly string[],
  label: (kind: string) => string,
  accountLabel: (account: string) => string,
  tokyoTime: (iso: string) => string,
): string {
  const rows = [header.map(quote).join(',')];
  for (const l of lines) {
    rows.push(
      [
        String(l.seq),
        String(l.entry),
        l.at,
        tokyoTime(l.at),
        l.kind,
        label(l.kind),
        `${l.account}:${accountLabel(l.account)}`,
        senToDecimalString(l.amount),
        senToDecimalString(l.balance),
        l.prevHash,
        l.hash,
      ]
        .map(quote)
        .join(','),
    );
  }
  // A byte-order mark so that spreadsheet programs read the UTF-8 labels correctly.
  return `\uFEFF${rows.join('\r\n')}\r\n`;
}

export interface VerifyOutcome {
  valid: boolean;
  lines: number;
  first_bad_line: number | null;
  problem: string | null;
}

const bad = (lines: number, line: number, problem: string): VerifyOutcome => ({
  valid: false,
  lines,
  first_bad_line: line,
  problem,
});

/** "-1234.50" → -123450 sen; null when it is not an amount. */
function signedYen(text: string): Sen | null {
  const negative = text.startsWith('-');
  const value = parseYenInput(negative ? text.slice(1) : text);
  return value === null ? null : negative ? negSen(value) : value;
}

/** Reads a statement back; null for a file that is not one. */
export function parseStatement(text: string): StatementLine[] | null {
  const rows = parseCsv(text.replace(/^\uFEFF/, '')).filter((r) => r.length > 1 || (r[0] ?? '') !== '');
  if (rows.length === 0 || rows[0]?.length !== 11) return null;
  const lines: StatementLine[] = [];
  for (const row of rows.slice(1)) {
    if (row.length !== 11) return null;
    const [seq, entry, at, , kind, , account, amount, balance, prevHash, hash] = row as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    const amountSen = signedYen(amount);
    const balanceSen = signedYen(balance);
    if (amountSen === null || balanceSen === null || !/^\d+$/.test(seq) || !/^\d+$/.test(entry)) return null;
    lines.push({
      seq: Number(seq),
      entry: Number(entry),
      at,
      kind,
      account: account.split(':')[0] ?? '',
      amount: amountSen,
      balance: balanceSen,
      prevHash,
      hash,
    });
  }
  return lines;
}

/**
 * Checks a statement on its own: every hash recomputes from its line and the previous hash, the sequence
 * has no gap, and every balance is the previous balance of its account plus the amount. `known` (when
 * given) answers the ledger's own hash for a seq, so the statement is checked against the ledger too.
 */
export function verifyStatement(
  lines: readonly StatementLine[],
  known?: (seq: number) => string | undefined,
): VerifyOutcome {
  const n = lines.length;
  const balances = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const l = lines[i];
    if (!l) break;
    const lineNo = i + 1;
    const before = lines[i - 1];
    if (before) {
      if (l.seq !== before.seq + 1) return bad(n, lineNo, 'sequence');
      if (l.prevHash !== before.hash) return bad(n, lineNo, 'previous_hash');
    } else if (l.seq === 1 && l.prevHash !== GENESIS_HASH) {
      return bad(n, lineNo, 'previous_hash');
    }
    const expected = chainHash(l.prevHash, {
      seq: l.seq,
      entry: l.entry,
      at: l.at,
      kind: l.kind,
      account: l.account,
      amount: l.amount,
    });
    if (expected !== l.hash) return bad(n, lineNo, 'hash');
    if (known) {
      const ledger = known(l.seq);
      if (ledger !== l.hash) return bad(n, lineNo, 'not_in_ledger');
      if (i === 0 && l.seq > 1 && known(l.seq - 1) !== l.prevHash) return bad(n, lineNo, 'previous_hash');
    }
    const prior = balances.get(l.account);
    if (prior !== undefined && prior + l.amount !== l.balance) return bad(n, lineNo, 'balance');
    balances.set(l.account, l.balance);
  }
  return { valid: true, lines: n, first_bad_line: null, problem: null };
}
