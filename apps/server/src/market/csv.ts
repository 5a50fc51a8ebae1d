import { readFileSync } from 'node:fs';

/**
 * The market reference data folder (apps/server/market-data/). Resolved from this file's URL, which
 * works from both src/market/ and the compiled dist/market/ because both sit two levels below
 * apps/server/.
 */
export const MARKET_DATA_DIR = new URL('../../market-data/', import.meta.url);

export class CsvError extends Error {}

/**
 * Parses RFC 4180 CSV: comma-separated fields, fields optionally in double quotes (which may contain
 * commas, line breaks and doubled quotes), LF or CRLF line ends, an optional BOM. Blank lines are
 * skipped.
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let inQuotes = false;
  let quotedField = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const endRow = (): void => {
    row.push(field);
    if (row.length > 1 || row[0] !== '' || quotedField) rows.push(row);
    row = [];
    field = '';
    quotedField = false;
  };
  for (; i < text.length; i++) {
    const ch = text.charAt(i);
    if (inQuotes) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else {
          inQuotes = false;
        }
      } else {
        field += ch;
      }
    } else if (ch === '"' && field === '') {
      inQuotes = true;
      quotedField = true;
    } else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      endRow();
    } else {
      field += ch;
    }
  }
  if (inQuotes) throw new CsvError('unterminated quoted field');
  if (field !== '' || row.length > 0) endRow();
  return rows;
}

/**
 * Parses CSV with a header row into records keyed by column name. Every name in `columns` must be in
 * the header, and every data row must have as many fields as the header.
 */
export function parseCsvRecords<K extends string>(text: string, columns: readonly K[]): Record<K, string>[] {
  const [header, ...rows] = parseCsv(text);
  if (!header) throw new CsvError('empty CSV');
  const positions = columns.map((name) => {
    const at = header.indexOf(name);
    if (at < 0) throw new CsvError(`missing column ${name}`);
    return at;
  });
  return rows.map((fields, n) => {
    if (fields.length !== header.length) {
      throw new CsvError(`row ${n + 2}: ${fields.length} fields, header has ${header.length}`);
    }
    const record = {} as Record<K, string>;
    columns.forEach((name, c) => {
      record[name] = fields[positions[c] ?? -1] ?? '';
    });
    return record;
  });
}

/** Reads one CSV file of the market reference data folder. */
export function readMarketCsv<K extends string>(
  fileName: string,
  columns: readonly K[],
  dir: URL = MARKET_DATA_DIR,
): Record<K, string>[] {
  return parseCsvRecords(readFileSync(new URL(fileName, dir), 'utf8'), columns);
}

/**
 * Parses a plain decimal ("1503.5", "-3.25") into an integer scaled by 10^fractionDigits without going
 * through binary floating point: parseScaledDecimal("152.5", 2) === 15250. Throws when the text has more
 * significant fraction digits than fit.
 */
export function parseScaledDecimal(text: string, fractionDigits: number): number {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!match) throw new CsvError(`not a decimal: ${JSON.stringify(text)}`);
  const [, sign = '', whole = '0', fraction = ''] = match;
  const kept = fraction.slice(0, fractionDigits).padEnd(fractionDigits, '0');
  if (/[^0]/.test(fraction.slice(fractionDigits))) {
    throw new CsvError(`${text} has more than ${fractionDigits} fraction digits`);
  }
  const value = Number(whole + kept);
  if (!Number.isSafeInteger(value)) throw new CsvError(`${text} is out of range`);
  return sign === '-' ? -value : value;
}
