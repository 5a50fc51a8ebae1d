import { LOCALES } from '@kabuto/contract';
import { describe, expect, it } from 'vitest';
import { UI_MESSAGES } from './catalogues';

/** Every string value of a catalogue, with its key path. */
function strings(node: unknown, path = ''): [string, string][] {
  if (typeof node === 'string') return [[path, node]];
  if (node === null || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([k, v]) => strings(v, path === '' ? k : `${path}.${k}`));
}

/** How each language writes "leverage" (and an FX-style "3×"); operators read the customers' words (ADR 0025). */
const LEVERAGE =
  /leverage|レバレッジ|杠杆|槓桿|apalancamiento|levier|\d\s?[x×]\b|\d倍|×\d|買い建て|売り建て/iu;

describe('console trading words', () => {
  it.each(LOCALES)('the %s console catalogue never says leverage nor 買い建て', (locale) => {
    expect(strings(UI_MESSAGES[locale]).filter(([, v]) => LEVERAGE.test(v))).toEqual([]);
  });

  it('names the six trades and the three kinds of holding in every language', () => {
    for (const locale of LOCALES) {
      const { trade, position } = UI_MESSAGES[locale].ticket;
      expect(new Set(Object.values(trade)).size).toBe(6);
      expect(new Set(Object.values(position)).size).toBe(3);
    }
    expect(UI_MESSAGES.ja.ticket.trade).toEqual({
      cashBuy: '現物買',
      cashSell: '現物売',
      marginOpenLong: '信用新規買',
      marginOpenShort: '信用新規売',
      marginCloseLong: '返済売',
      marginCloseShort: '返済買',
    });
  });
});
