import { describe, expect, it } from 'vitest';
import { CsvError, parseCsv, parseCsvRecords, parseScaledDecimal, readMarketCsv } from './csv.js';

describe('parseCsv', () => {
  it('splits plain fields and lines', () => {
    expect(parseCsv('a,b,c\n1,2,3\n')).toEqual([
      ['a', 'b', 'c'],
      ['1', '2', '3'],
    ]);
  });

  it('keeps commas, doubled quotes and line breaks inside quoted fields', () => {
    expect(parseCsv('1301,"KYOKUYO CO.,LTD.","say ""hi""","two\nlines"\r\n')).toEqual([
      ['1301', 'KYOKUYO CO.,LTD.', 'say "hi"', 'two\nlines'],
    ]);
  });

  it('handles CRLF, a BOM, empty fields, blank lines and a missing final newline', () => {
    expect(parseCsv('\uFEFFa,b\r\n\r\n,x\r\n"",')).toEqual([
      ['a', 'b'],
      ['', 'x'],
      ['', ''],
    ]);
  });

  it('rejects an unterminated quote', () => {
    expect(() => parseCsv('a,"b\n')).toThrow(CsvError);
  });
});

describe('parseCsvRecords', () => {
  it('maps the requested columns by header name', () => {
    expect(parseCsvRecords('x,code,name\n1,7203,"A, B"\n', ['name', 'code'] as const)).toEqual([
      { name: 'A, B', code: '7203' },
    ]);
  });

  it('rejects a missing column and a short row', () => {
    expect(() => parseCsvRecords('a,b\n1,2\n', ['c'] as const)).toThrow(/missing column c/);
    expect(() => parseCsvRecords('a,b\n1\n', ['a'] as const)).toThrow(/row 2/);
  });
});

describe('parseScaledDecimal', () => {
  it.each([
    ['152.5', 2, 15250],
    ['1503.5', 2, 150350],
    ['3699.00', 2, 369900],
    ['1425', 2, 142500],
    ['0.1', 2, 10],
    ['-3.25', 2, -325],
    ['1604901', 0, 1604901],
    ['12.300', 2, 1230],
  ])('%s × 10^%i = %i', (text, digits, expected) => {
    expect(parseScaledDecimal(text, digits)).toBe(expected);
  });

  it('refuses what does not fit exactly', () => {
    expect(() => parseScaledDecimal('1.005', 2)).toThrow(CsvError);
    expect(() => parseScaledDecimal('1e3', 2)).toThrow(CsvError);
    expect(() => parseScaledDecimal('', 2)).toThrow(CsvError);
  });
});

describe('readMarketCsv', () => {
  it('reads the shipped stock list, quoted names included', () => {
    const rows = readMarketCsv('stocks.csv', ['code', 'name_en'] as const);
    expect(rows).toHaveLength(3791);
    expect(rows.find((r) => r.code === '1301')?.name_en).toBe('KYOKUYO CO.,LTD.');
  });
});
