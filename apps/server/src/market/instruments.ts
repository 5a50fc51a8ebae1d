import { sen, type Sen } from '@kabuto/contract';
import { MARKET_DATA_DIR, parseScaledDecimal, readMarketCsv } from './csv.js';

export type MarketSegment = 'Prime' | 'Standard' | 'Growth';
export type IndexId = 'nikkei225' | 'topix';

/** The TOPIX size classes whose stocks use the TOPIX500 tick table. */
export const TOPIX500_SIZES: ReadonlySet<string> = new Set(['TOPIX Core30', 'TOPIX Large70', 'TOPIX Mid400']);

/** A TSE listing. */
export interface Instrument {
  /** 4 characters, newer codes contain a letter (130A) */
  code: string;
  /** JPX's Japanese name with NFKC applied (half-width letters and digits) */
  name_ja: string;
  name_en: string;
  /** the Nikkei list's short name, for Nikkei 225 members */
  short_name_ja: string | null;
  /** TSE 33-sector name in Japanese */
  sector: string;
  sector_en: string;
  market: MarketSegment;
  /** e.g. "TOPIX Core30", "TOPIX Small 1"; null when not in TOPIX */
  topix_size: string | null;
  /** Core30, Large70 or Mid400: the TOPIX500 tick table applies */
  is_topix500: boolean;
  nikkei225: boolean;
}

/** Statistics the simulator is calibrated to (one row per Nikkei 225 member). */
export interface Calibration {
  code: string;
  ref_date: string;
  ref_close: Sen;
  /** close of the business day before ref_date */
  prev_close: Sen;
  /** annualised stdev of daily log returns (245 sessions a year) */
  ann_volatility: number;
  avg_volume_60d: number;
  high_52w: Sen;
  low_52w: Sen;
}

/** Index calibration; levels in hundredths of a point (integers). */
export interface IndexCalibration {
  index: IndexId;
  ref_date: string;
  ref_level_centi: number;
  prev_level_centi: number;
  ann_volatility: number;
}

export interface ReferenceData {
  /** every listing, in code order */
  instruments: readonly Instrument[];
  byCode: ReadonlyMap<string, Instrument>;
  /** Nikkei 225 members, in code order */
  nikkei225: readonly Instrument[];
  calibration: ReadonlyMap<string, Calibration>;
  indexCalibration: ReadonlyMap<IndexId, IndexCalibration>;
}

const SEGMENTS: ReadonlySet<string> = new Set(['Prime', 'Standard', 'Growth']);

function yenToSen(text: string): Sen {
  return sen(parseScaledDecimal(text, 2));
}

/** Reads the reference data CSVs from a folder (by default apps/server/market-data/). */
export function loadReferenceData(dir: URL = MARKET_DATA_DIR): ReferenceData {
  const stocks = readMarketCsv(
    'stocks.csv',
    ['code', 'name_ja', 'name_en', 'sector', 'market'] as const,
    dir,
  );
  const extra = new Map(
    readMarketCsv('stocks_extra.csv', ['code', 'sector33_en', 'topix_size'] as const, dir).map((r) => [
      r.code,
      r,
    ]),
  );
  const nikkei = new Map(
    readMarketCsv('nikkei225.csv', ['code', 'short_name_ja'] as const, dir).map((r) => [r.code, r]),
  );

  const instruments = stocks.map((row): Instrument => {
    const ex = extra.get(row.code);
    if (!ex) throw new Error(`stocks_extra.csv has no row for ${row.code}`);
    if (!SEGMENTS.has(row.market)) throw new Error(`unknown market ${row.market} for ${row.code}`);
    const topixSize = ex.topix_size.trim() || null;
    const member = nikkei.get(row.code);
    return {
      code: row.code,
      name_ja: row.name_ja.normalize('NFKC').trim(),
      name_en: row.name_en.trim(),
      short_name_ja: member ? member.short_name_ja.normalize('NFKC').trim() : null,
      sector: row.sector,
      sector_en: ex.sector33_en,
      market: row.market as MarketSegment,
      topix_size: topixSize,
      is_topix500: topixSize !== null && TOPIX500_SIZES.has(topixSize),
      nikkei225: member !== undefined,
    };
  });
  instruments.sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
  const byCode = new Map(instruments.map((i) => [i.code, i]));
  for (const code of nikkei.keys()) {
    if (!byCode.has(code)) throw new Error(`Nikkei 225 member ${code} is not in stocks.csv`);
  }

  const calibration = new Map(
    readMarketCsv(
      'calibration.csv',
      [
        'code',
        'ref_date',
        'ref_close',
        'prev_close',
        'ann_volatility',
        'avg_volume_60d',
        'high_52w',
        'low_52w',
      ] as const,
      dir,
    ).map((r): [string, Calibration] => [
      r.code,
      {
        code: r.code,
        ref_date: r.ref_date,
        ref_close: yenToSen(r.ref_close),
        prev_close: yenToSen(r.prev_close),
        ann_volatility: Number(r.ann_volatility),
        avg_volume_60d: parseScaledDecimal(r.avg_volume_60d, 0),
        high_52w: yenToSen(r.high_52w),
        low_52w: yenToSen(r.low_52w),
      },
    ]),
  );

  const indexCalibration = new Map(
    readMarketCsv(
      'index_calibration.csv',
      ['index', 'ref_date', 'ref_level', 'prev_level', 'ann_volatility'] as const,
      dir,
    ).map((r): [IndexId, IndexCalibration] => {
      if (r.index !== 'nikkei225' && r.index !== 'topix') throw new Error(`unknown index ${r.index}`);
      return [
        r.index,
        {
          index: r.index,
          ref_date: r.ref_date,
          ref_level_centi: parseScaledDecimal(r.ref_level, 2),
          prev_level_centi: parseScaledDecimal(r.prev_level, 2),
          ann_volatility: Number(r.ann_volatility),
        },
      ];
    }),
  );

  return {
    instruments,
    byCode,
    nikkei225: instruments.filter((i) => i.nikkei225),
    calibration,
    indexCalibration,
  };
}

let cached: ReferenceData | undefined;

/** The reference data from apps/server/market-data/, read once. */
export function referenceData(): ReferenceData {
  cached ??= loadReferenceData();
  return cached;
}

/** IPOs listed since the reference data was taken (ADR 0035): the app sets them from the offerings. */
let listed: ReadonlyMap<string, Instrument> = new Map();

/**
 * Sets the listed IPOs' instruments (the whole set each time). A code the reference data already has keeps
 * its reference row.
 */
export function setListedInstruments(instruments: readonly Instrument[]): void {
  listed = new Map(instruments.map((i) => [i.code, i]));
}

/** The listed IPOs' instruments, in code order. */
export function listedInstruments(): Instrument[] {
  return [...listed.values()].sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
}

export function getInstrument(code: string, data: ReferenceData = referenceData()): Instrument | undefined {
  const key = code.normalize('NFKC').toUpperCase();
  return data.byCode.get(key) ?? listed.get(key);
}

/**
 * Search form of a text: NFKC (full-width → half-width, half-width kana → full-width), lower case,
 * katakana → hiragana, and without spaces and the punctuation names vary in (・ . , ' " ( ) -).
 */
export function normalizeSearchText(text: string): string {
  const folded = text.normalize('NFKC').toLowerCase();
  let out = '';
  for (const ch of folded) {
    const c = ch.codePointAt(0) ?? 0;
    // katakana ァ..ヶ and the iteration marks ヽヾ sit 0x60 above their hiragana
    out += (c >= 0x30a1 && c <= 0x30f6) || c === 0x30fd || c === 0x30fe ? String.fromCodePoint(c - 0x60) : ch;
  }
  return out.replace(/[\s・.,'’"()-]/gu, '');
}

interface SearchEntry {
  instrument: Instrument;
  code: string;
  names: string[];
}

const searchIndexes = new WeakMap<ReferenceData, SearchEntry[]>();

function searchIndex(data: ReferenceData): SearchEntry[] {
  let index = searchIndexes.get(data);
  if (!index) {
    index = data.instruments.map((instrument) => ({
      instrument,
      code: instrument.code.toLowerCase(),
      names: [instrument.name_ja, instrument.name_en, instrument.short_name_ja ?? '']
        .map(normalizeSearchText)
        .filter((n) => n !== ''),
    }));
    searchIndexes.set(data, index);
  }
  return index;
}

export const MAX_SEARCH_RESULTS = 100;

/**
 * Finds listings by code prefix, Japanese name or English name; kana-, case- and width-insensitive.
 * Ranked: exact code, code prefix, exact name, name prefix, name substring; within a rank Nikkei 225
 * members, then TOPIX500 members, then by code.
 */
export function searchInstruments(
  query: string,
  limit = 20,
  data: ReferenceData = referenceData(),
): Instrument[] {
  const q = normalizeSearchText(query);
  if (q === '') return [];
  const max = Math.max(1, Math.min(MAX_SEARCH_RESULTS, Math.floor(limit)));
  const hits: { rank: number; instrument: Instrument }[] = [];
  for (const entry of searchIndex(data)) {
    let rank: number;
    if (entry.code === q) rank = 0;
    else if (entry.code.startsWith(q)) rank = 1;
    else if (entry.names.includes(q)) rank = 2;
    else if (entry.names.some((n) => n.startsWith(q))) rank = 3;
    else if (entry.names.some((n) => n.includes(q))) rank = 4;
    else continue;
    hits.push({ rank, instrument: entry.instrument });
  }
  hits.sort(
    (a, b) =>
      a.rank - b.rank ||
      Number(b.instrument.nikkei225) - Number(a.instrument.nikkei225) ||
      Number(b.instrument.is_topix500) - Number(a.instrument.is_topix500) ||
      (a.instrument.code < b.instrument.code ? -1 : 1),
  );
  return hits.slice(0, max).map((h) => h.instrument);
}
