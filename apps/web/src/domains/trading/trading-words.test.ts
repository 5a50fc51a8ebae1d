import { LOCALES, MESSAGES, type Locale, type MarginType } from '@kabuto/contract';
import i18next, { type TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { UI_MESSAGES } from '@/locales/catalogues';
import { positionKindLabel, tradeLabel } from './order-labels';

/**
 * Issue 23's words (ADR 0025), through the real catalogues: every kind × direction × margin type gives the
 * term each market's brokers use, and no "leverage" is left in what users read.
 */
const EXPECTED: Record<
  Locale,
  {
    cashBuy: string;
    cashSell: string;
    marginOpenLong: string;
    marginOpenShort: string;
    marginCloseLong: string;
    marginCloseShort: string;
    holdingCash: string;
    holdingLong: string;
    holdingShort: string;
  }
> = {
  ja: {
    cashBuy: '現物買',
    cashSell: '現物売',
    marginOpenLong: '信用新規買',
    marginOpenShort: '信用新規売',
    marginCloseLong: '返済売',
    marginCloseShort: '返済買',
    holdingCash: '現物',
    holdingLong: '買建',
    holdingShort: '売建',
  },
  en: {
    cashBuy: 'Buy',
    cashSell: 'Sell',
    marginOpenLong: 'Margin buy',
    marginOpenShort: 'Short sell',
    marginCloseLong: 'Close (sell to repay)',
    marginCloseShort: 'Close (buy to cover)',
    holdingCash: 'Cash',
    holdingLong: 'Margin long',
    holdingShort: 'Short',
  },
  'zh-Hans': {
    cashBuy: '现货买入',
    cashSell: '现货卖出',
    marginOpenLong: '融资买入',
    marginOpenShort: '融券卖出',
    marginCloseLong: '卖券还款',
    marginCloseShort: '买券还券',
    holdingCash: '现货',
    holdingLong: '融资持仓',
    holdingShort: '融券持仓',
  },
  'zh-Hant': {
    cashBuy: '現股買進',
    cashSell: '現股賣出',
    marginOpenLong: '融資買進',
    marginOpenShort: '融券賣出',
    marginCloseLong: '融資賣出償還',
    marginCloseShort: '融券買進償還',
    holdingCash: '現股',
    holdingLong: '融資',
    holdingShort: '融券',
  },
  es: {
    cashBuy: 'Compra',
    cashSell: 'Venta',
    marginOpenLong: 'Compra a crédito',
    marginOpenShort: 'Venta en corto',
    marginCloseLong: 'Cierre: venta de la compra a crédito',
    marginCloseShort: 'Cierre: recompra del corto',
    holdingCash: 'Contado',
    holdingLong: 'Compra a crédito',
    holdingShort: 'Venta en corto',
  },
  fr: {
    cashBuy: 'Achat',
    cashSell: 'Vente',
    marginOpenLong: 'Achat à découvert',
    marginOpenShort: 'Vente à découvert',
    marginCloseLong: 'Clôture : revente (remboursement)',
    marginCloseShort: 'Clôture : rachat (remboursement)',
    holdingCash: 'Comptant',
    holdingLong: 'Achat à découvert',
    holdingShort: 'Vente à découvert',
  },
};

async function tFor(locale: Locale): Promise<TFunction> {
  const instance = i18next.createInstance();
  await instance.init({
    lng: locale,
    resources: { [locale]: { translation: UI_MESSAGES[locale] } },
    interpolation: { escapeValue: false },
  });
  return instance.t;
}

const KINDS = ['open', 'close'] as const;
const DIRECTIONS = ['long', 'short'] as const;

describe.each(LOCALES)('trading words in %s', (locale) => {
  const words = EXPECTED[locale];

  it.each(
    KINDS.flatMap((kind) =>
      DIRECTIONS.flatMap((direction) =>
        (['cash', 'standard', 'general'] as const satisfies readonly MarginType[]).map((margin_type) => ({
          kind,
          direction,
          margin_type,
        })),
      ),
    ),
  )('names $kind $direction $margin_type', async ({ kind, direction, margin_type }) => {
    const t = await tFor(locale);
    // a short is always margin; a cash long is at leverage 1
    const margin = margin_type !== 'cash' || direction === 'short';
    const expected = !margin
      ? kind === 'open'
        ? words.cashBuy
        : words.cashSell
      : kind === 'open'
        ? direction === 'long'
          ? words.marginOpenLong
          : words.marginOpenShort
        : direction === 'long'
          ? words.marginCloseLong
          : words.marginCloseShort;
    expect(tradeLabel(t, { kind, direction, leverage: 1, margin_type })).toBe(expected);
    const holding = !margin
      ? words.holdingCash
      : direction === 'long'
        ? words.holdingLong
        : words.holdingShort;
    expect(positionKindLabel(t, { direction, leverage: 1, margin_type })).toBe(holding);
  });

  it('treats an old leveraged long without a margin type as margin (制度信用)', async () => {
    const t = await tFor(locale);
    expect(tradeLabel(t, { kind: 'open', direction: 'long', leverage: 3, margin_type: 'cash' })).toBe(
      words.marginOpenLong,
    );
  });

  it('keeps the six terms distinct', () => {
    const terms = [
      words.cashBuy,
      words.cashSell,
      words.marginOpenLong,
      words.marginOpenShort,
      words.marginCloseLong,
      words.marginCloseShort,
    ];
    expect(new Set(terms).size).toBe(6);
  });
});

/** Every string value of a catalogue, with its key path. */
function strings(node: unknown, path = ''): [string, string][] {
  if (typeof node === 'string') return [[path, node]];
  if (node === null || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([k, v]) => strings(v, path === '' ? k : `${path}.${k}`));
}

/** How each language writes "leverage" (and an FX-style "3×"). */
const LEVERAGE = /leverage|レバレッジ|杠杆|槓桿|apalancamiento|levier|\d\s?[x×]\b|\d倍|×\d/iu;

describe('no leverage in what users read', () => {
  it.each(LOCALES)('the %s web and server catalogues never say leverage', (locale) => {
    const found = [...strings(UI_MESSAGES[locale]), ...strings(MESSAGES[locale])].filter(([, v]) =>
      LEVERAGE.test(v),
    );
    expect(found).toEqual([]);
  });

  it('the pattern does catch the old words', () => {
    for (const old of [
      'Leverage',
      'レバレッジ',
      '信用 3倍',
      '杠杆倍数',
      'Margin 3x',
      'Apalancamiento',
      'Effet de levier',
    ]) {
      expect(LEVERAGE.test(old)).toBe(true);
    }
  });
});
