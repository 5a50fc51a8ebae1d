import { sen, type Sen } from '@kabuto/contract';
import { AppError } from '../../lib/app-error.js';

/**
 * The bank statement file of the firm's incoming transfers (ADR 0023, docs/ARCHITECTURE.md): a CSV,
 * UTF-8 (with or without a byte-order mark) or Shift_JIS as Japanese banks' internet banking exports it,
 * one transfer a line after a header naming the five columns, in English or in Japanese:
 *
 *   bank_ref (取引番号), transfer_date (振込日), amount (金額), payer_name (振込依頼人名),
 *   virtual_account (入金口座番号)
 *
 * bank_ref is the bank's reference of the transfer (letters, digits, hyphens; 40 at most); the date
 * YYYY-MM-DD, YYYY/MM/DD or YYYYMMDD; the amount whole yen (commas allowed, quoted); the payer's name as
 * the bank sends it (half-width katakana, usually); the virtual account number 7 digits. Fields may be
 * quoted ("..." with "" for a quote). Blank lines are skipped.
 */
export const STATEMENT_FORMAT = 'kabuto-csv-1';
export const STATEMENT_MAX_LINES = 10_000;
const MAX_YEN = 100_000_000_000;

export const COLUMN_NAMES = {
  bank_ref: ['bank_ref', '取引番号', '照会番号'],
  transfer_date: ['transfer_date', '振込日', '取引日'],
  amount: ['amount', '金額', '入金額'],
  payer_name: ['payer_name', '振込依頼人名', '依頼人名'],
  virtual_account: ['virtual_account', '入金口座番号', '口座番号'],
} as const;
type Column = keyof typeof COLUMN_NAMES;
const COLUMNS = Object.keys(COLUMN_NAMES) as Column[];

export type LineError =
  'columns' | 'bank_ref' | 'transfer_date' | 'amount' | 'payer_name' | 'virtual_account' | 'repeated_in_file';

export interface StatementTransfer {
  line: number;
  bank_ref: string;
  transfer_date: string;
  amount: Sen;
  payer_name: string;
  virtual_account: string;
}
export interface InvalidLine {
  line: number;
  bank_ref: string;
  error: LineError;
}
export type ParsedLine = ({ ok: true } & StatementTransfer) | ({ ok: false } & InvalidLine);

/** UTF-8 when the bytes are valid UTF-8 (a byte-order mark dropped), else Shift_JIS; else unreadable. */
export function decodeStatement(bytes: Uint8Array): { text: string; encoding: 'utf-8' | 'shift_jis' } {
  try {
    return {
      text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes),
      encoding: 'utf-8',
    };
  } catch {
    try {
      return { text: new TextDecoder('shift_jis', { fatal: true }).decode(bytes), encoding: 'shift_jis' };
    } catch {
      throw new AppError('STATEMENT_UNREADABLE', { detail: 'encoding (UTF-8 or Shift_JIS)' });
    }
  }
}

/** One CSV record's fields (RFC 4180 quoting within a line). */
export function splitCsvLine(line: string): string[] | null {
  const out: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  let atStart = true;
  while (i < line.length) {
    const ch = line[i] ?? '';
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (ch === '"') {
        quoted = false;
        i += 1;
        continue;
      }
      field += ch;
    } else if (ch === '"' && atStart) {
      quoted = true;
      atStart = false;
    } else if (ch === ',') {
      out.push(field);
      field = '';
      atStart = true;
    } else {
      field += ch;
      atStart = false;
    }
    i += 1;
  }
  if (quoted) return null;
  out.push(field);
  return out;
}

function parseDate(raw: string): string | null {
  const m = /^(\d{4})[-/]?(\d{2})[-/]?(\d{2})$/u.exec(raw);
  if (!m) return null;
  const iso = `${m[1]}-${m[2]}-${m[3]}`;
  const d = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== iso ? null : iso;
}

function parseYen(raw: string): Sen | null {
  if (!/^\d{1,3}(,\d{3})*$|^\d+$/u.test(raw)) return null;
  const yen = Number(raw.replace(/,/gu, ''));
  if (!Number.isSafeInteger(yen) || yen <= 0 || yen > MAX_YEN) return null;
  return sen(yen * 100);
}

/** The file's lines, each a transfer or the column at fault. Throws STATEMENT_UNREADABLE for the file. */
export function parseStatement(text: string): ParsedLine[] {
  const rows = text.split(/\r\n|\n|\r/u);
  const headerIndex = rows.findIndex((r) => r.trim() !== '');
  if (headerIndex < 0) throw new AppError('STATEMENT_UNREADABLE', { detail: 'empty file' });
  const header = (splitCsvLine(rows[headerIndex] ?? '') ?? []).map((h) => h.trim().replace(/^\uFEFF/u, ''));
  const index = {} as Record<Column, number>;
  for (const c of COLUMNS) {
    const at = header.findIndex((h) => (COLUMN_NAMES[c] as readonly string[]).includes(h));
    if (at < 0) throw new AppError('STATEMENT_UNREADABLE', { detail: `no column ${c}` });
    index[c] = at;
  }
  const out: ParsedLine[] = [];
  const seen = new Set<string>();
  for (let i = headerIndex + 1; i < rows.length; i += 1) {
    const row = rows[i] ?? '';
    if (row.trim() === '') continue;
    if (out.length >= STATEMENT_MAX_LINES) {
      throw new AppError('STATEMENT_UNREADABLE', { detail: `more than ${STATEMENT_MAX_LINES} lines` });
    }
    const line = i + 1;
    const fields = splitCsvLine(row);
    const get = (c: Column) => (fields?.[index[c]] ?? '').trim();
    const bankRef = get('bank_ref');
    const fail = (error: LineError): ParsedLine => ({ ok: false, line, bank_ref: bankRef, error });
    if (fields?.length !== header.length) {
      out.push(fail('columns'));
      continue;
    }
    if (!/^[A-Za-z0-9-]{1,40}$/u.test(bankRef)) {
      out.push(fail('bank_ref'));
      continue;
    }
    if (seen.has(bankRef)) {
      out.push(fail('repeated_in_file'));
      continue;
    }
    seen.add(bankRef);
    const date = parseDate(get('transfer_date'));
    if (date === null) {
      out.push(fail('transfer_date'));
      continue;
    }
    const amount = parseYen(get('amount'));
    if (amount === null) {
      out.push(fail('amount'));
      continue;
    }
    const payer = get('payer_name');
    if (payer === '' || payer.length > 48) {
      out.push(fail('payer_name'));
      continue;
    }
    const account = get('virtual_account');
    if (!/^\d{7}$/u.test(account)) {
      out.push(fail('virtual_account'));
      continue;
    }
    out.push({
      ok: true,
      line,
      bank_ref: bankRef,
      transfer_date: date,
      amount,
      payer_name: payer,
      virtual_account: account,
    });
  }
  return out;
}
