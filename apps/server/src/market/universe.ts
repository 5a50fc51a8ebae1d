import { roundToTick, type TPriceBasis } from '@kabuto/contract';
import type { IsoDate } from './calendar.js';
import { reachablePreviousClose, SESSIONS_PER_YEAR } from './daily-series.js';
import type { Instrument, ReferenceData } from './instruments.js';
import { stockGrid } from './price-grid.js';
import { hashString, mixKeys, Rng } from './random.js';

/**
 * Which listings the simulator quotes (and so which can be traded); every listing is searchable whatever
 * the choice. ADR 0012 records the choice and the rule below.
 *
 * - `nikkei225`: the Nikkei 225 members, each calibrated to its own statistics (calibration.csv).
 * - `topix500`: those plus the TOPIX500 (Core30, Large70 and Mid400 of stocks_extra.csv).
 * - `all`: every listing of stocks.csv.
 *
 * The wider choices contain the narrower ones, so widening never takes prices away from a stock.
 */
export const MARKET_UNIVERSES = ['nikkei225', 'topix500', 'all'] as const;
export type MarketUniverse = (typeof MARKET_UNIVERSES)[number];

/** The codes of a universe, in code order. */
export function universeCodes(universe: MarketUniverse, data: ReferenceData): string[] {
  const inUniverse = (i: Instrument): boolean =>
    universe === 'all' || i.nikkei225 || (universe === 'topix500' && i.is_topix500);
  return data.instruments.filter(inUniverse).map((i) => i.code);
}

/** Where a stock's simulation parameters come from: the contract's price_basis (ADR 0012). */
export type ParameterBasis = TPriceBasis;

/** What the simulator needs to walk one stock (prices in sen). */
export interface StockParameters {
  code: string;
  basis: ParameterBasis;
  /** the day the walk is anchored on: it closes at refClose that day and at prevClose the day before */
  refDate: IsoDate;
  refClose: number;
  prevClose: number;
  annVolatility: number;
  /** mean shares a day (whole lots) */
  avgVolume: number;
}

/** A group of calibrated stocks stands for its sector or size class only with at least this many members. */
export const MIN_GROUP = 3;

/** Derived reference closes are log-uniform between these prices (yen), on a valid tick. */
export const DERIVED_CLOSE_RANGE_YEN = { low: 100, high: 20_000 } as const;

/** TOPIX size classes from the largest down; null is "not in TOPIX". */
export const SIZE_CLASSES = [
  'TOPIX Core30',
  'TOPIX Large70',
  'TOPIX Mid400',
  'TOPIX Small 1',
  'TOPIX Small 2',
  null,
] as const;

const LOT = 100;
/** stream purpose of the derived reference close (see random.ts: every stream is keyed) */
const REF_CLOSE_PURPOSE = 0x7265_f000;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/**
 * The figures the derivation rule takes from the calibrated stocks, computed once per reference data:
 * annual volatility by TSE 33-sector (and overall), and yen traded a day by TOPIX size class.
 */
export interface DerivationBasis {
  refDate: IsoDate;
  /** median annual volatility of all calibrated stocks */
  overallVolatility: number;
  /** median annual volatility per sector (Japanese name), for sectors with at least MIN_GROUP members */
  sectorVolatility: ReadonlyMap<string, number>;
  /** yen traded a day per size class (index into SIZE_CLASSES) */
  classTurnoverYen: readonly number[];
  /** the step ratio between neighbouring size classes that classes without data are extrapolated by */
  stepRatio: number;
}

function sizeClassIndex(instrument: Instrument): number {
  const at = SIZE_CLASSES.indexOf(instrument.topix_size as (typeof SIZE_CLASSES)[number]);
  return at < 0 ? SIZE_CLASSES.length - 1 : at;
}

const bases = new WeakMap<ReferenceData, DerivationBasis>();

/** The figures of the derivation rule (cached per reference data). */
export function derivationBasis(data: ReferenceData): DerivationBasis {
  const cached = bases.get(data);
  if (cached) return cached;
  const nikkei = data.indexCalibration.get('nikkei225');
  const calibrated = [...data.calibration.values()];
  if (!nikkei || calibrated.length === 0) {
    throw new Error(
      'deriving parameters needs calibration.csv and the Nikkei 225 row of index_calibration.csv',
    );
  }

  const bySector = new Map<string, number[]>();
  const byClass: number[][] = SIZE_CLASSES.map(() => []);
  for (const cal of calibrated) {
    const instrument = data.byCode.get(cal.code);
    if (!instrument) continue;
    bySector.set(instrument.sector, [...(bySector.get(instrument.sector) ?? []), cal.ann_volatility]);
    byClass[sizeClassIndex(instrument)]?.push((cal.avg_volume_60d * cal.ref_close) / 100);
  }
  const sectorVolatility = new Map<string, number>();
  for (const [sector, vols] of bySector) {
    if (vols.length >= MIN_GROUP) sectorVolatility.set(sector, median(vols));
  }

  // size classes with enough calibrated members give their median; the others are extrapolated from the
  // nearest class above (or, for want of one, below) by the mean step ratio between the known classes
  const known = byClass.map((values) => (values.length >= MIN_GROUP ? median(values) : null));
  const knownAt = known.flatMap((v, i) => (v === null ? [] : [i]));
  const first = knownAt[0];
  const last = knownAt.at(-1);
  if (first === undefined || last === undefined)
    throw new Error('no size class has enough calibrated stocks');
  const stepRatio = last > first ? ((known[last] ?? 1) / (known[first] ?? 1)) ** (1 / (last - first)) : 1;
  const classTurnoverYen = known.map((value, i) => {
    if (value !== null) return value;
    const above = knownAt.filter((k) => k < i).at(-1);
    const from = above ?? first;
    return (known[from] ?? 0) * stepRatio ** (i - from);
  });

  const basis: DerivationBasis = {
    refDate: nikkei.ref_date,
    overallVolatility: median(calibrated.map((c) => c.ann_volatility)),
    sectorVolatility,
    classTurnoverYen,
    stepRatio,
  };
  bases.set(data, basis);
  return basis;
}

/**
 * The derivation rule for a listing without a calibration row (ADR 0012). Deterministic in (seed, code):
 *
 * 1. Annual volatility: the median of the calibrated stocks of its TSE 33-sector when there are at least
 *    MIN_GROUP of them, else the median of all calibrated stocks. Not scaled by segment or size: the
 *    calibrated stocks show no size effect and include no Standard or Growth stock.
 * 2. Reference close on the calibration date: log-uniform in DERIVED_CLOSE_RANGE_YEN, drawn from the
 *    seed and the code, rounded to the nearest valid tick of the stock's table.
 * 3. Previous close: one seeded daily move before it, on a valid tick, from which the reference close is
 *    inside the daily price limits.
 * 4. Volume: the yen its TOPIX size class trades a day (the calibrated members' median, or extrapolated
 *    for the smaller classes) divided by the reference close, in whole lots, at least one lot.
 */
export function deriveParameters(
  instrument: Instrument,
  seedKey: number,
  basis: DerivationBasis,
): StockParameters {
  const annVolatility = basis.sectorVolatility.get(instrument.sector) ?? basis.overallVolatility;
  const sigma = annVolatility / Math.sqrt(SESSIONS_PER_YEAR);
  const rng = new Rng(mixKeys(seedKey, hashString(instrument.code), REF_CLOSE_PURPOSE));
  const { low, high } = DERIVED_CLOSE_RANGE_YEN;
  const yen = Math.exp(Math.log(low) + rng.float() * Math.log(high / low));
  const refClose = roundToTick(yen * 100, instrument.is_topix500, 'nearest');
  const grid = stockGrid(instrument.is_topix500);
  const prevClose = reachablePreviousClose(grid, refClose, refClose * Math.exp(-sigma * rng.normal()));
  const turnover = basis.classTurnoverYen[sizeClassIndex(instrument)] ?? 0;
  const lots = Math.max(1, Math.round(turnover / (refClose / 100) / LOT));
  return {
    code: instrument.code,
    basis: 'derived',
    refDate: basis.refDate,
    refClose,
    prevClose,
    annVolatility,
    avgVolume: lots * LOT,
  };
}

/**
 * The parameters of every stock of a universe (and of every Nikkei 225 member, which the index needs):
 * its calibration row when it has one, else the derivation rule.
 */
export function universeParameters(
  universe: MarketUniverse,
  data: ReferenceData,
  seedKey: number,
): Map<string, StockParameters> {
  const out = new Map<string, StockParameters>();
  const codes = new Set([...universeCodes(universe, data), ...data.calibration.keys()]);
  let basis: DerivationBasis | undefined;
  for (const code of [...codes].sort()) {
    const cal = data.calibration.get(code);
    if (cal) {
      out.set(code, {
        code,
        basis: 'calibrated',
        refDate: cal.ref_date,
        refClose: cal.ref_close,
        prevClose: cal.prev_close,
        annVolatility: cal.ann_volatility,
        avgVolume: cal.avg_volume_60d,
      });
      continue;
    }
    const instrument = data.byCode.get(code);
    if (!instrument) continue;
    basis ??= derivationBasis(data);
    out.set(code, deriveParameters(instrument, seedKey, basis));
  }
  return out;
}
