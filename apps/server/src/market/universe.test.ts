import { describe, expect, it } from 'vitest';
import { isValidTick } from '@kabuto/contract';
import { referenceData } from './instruments.js';
import { priceLimits } from './limits.js';
import { hashString } from './random.js';
import {
  DERIVED_CLOSE_RANGE_YEN,
  derivationBasis,
  deriveParameters,
  MIN_GROUP,
  SIZE_CLASSES,
  universeCodes,
  universeParameters,
} from './universe.js';

const data = referenceData();
const seedKey = hashString('kabuto');

describe('universes', () => {
  it('widens from the Nikkei 225 to the TOPIX500 to every listing, each containing the narrower', () => {
    const nikkei = universeCodes('nikkei225', data);
    const topix = universeCodes('topix500', data);
    const all = universeCodes('all', data);
    expect(nikkei).toHaveLength(225);
    // 501 TOPIX500 stocks and the three Nikkei 225 members outside it (TOPIX Small 1)
    expect(topix).toHaveLength(504);
    expect(all).toHaveLength(3791);
    expect(nikkei.every((c) => topix.includes(c))).toBe(true);
    expect(topix.every((c) => all.includes(c))).toBe(true);
    expect(all).toEqual([...all].sort());
  });
});

describe('the derivation basis (from calibration.csv)', () => {
  const basis = derivationBasis(data);

  it('takes a sector median only where the sector has enough calibrated stocks', () => {
    const members = new Map<string, number>();
    for (const code of data.calibration.keys()) {
      const sector = data.byCode.get(code)?.sector ?? '';
      members.set(sector, (members.get(sector) ?? 0) + 1);
    }
    for (const [sector, n] of members)
      expect(basis.sectorVolatility.has(sector), sector).toBe(n >= MIN_GROUP);
    expect(basis.sectorVolatility.get('電気機器')).toBeCloseTo(0.4147, 4);
    expect(basis.overallVolatility).toBeCloseTo(0.3157, 4);
    expect(basis.refDate).toBe('2026-02-06');
  });

  it('gives each smaller TOPIX size class less turnover, the classes without data by the step ratio', () => {
    const t = basis.classTurnoverYen;
    expect(t).toHaveLength(SIZE_CLASSES.length);
    for (let i = 1; i < t.length; i++) expect(t[i] ?? 0).toBeLessThan(t[i - 1] ?? 0);
    // Core30 … Small 1 have calibrated members; Small 2 and "not in TOPIX" are one and two steps below
    expect(basis.stepRatio).toBeCloseTo(((t[3] ?? 0) / (t[0] ?? 1)) ** (1 / 3), 12);
    expect(t[4]).toBeCloseTo((t[3] ?? 0) * basis.stepRatio, 3);
    expect(t[5]).toBeCloseTo((t[3] ?? 0) * basis.stepRatio ** 2, 3);
  });
});

describe('derived parameters', () => {
  const params = universeParameters('all', data, seedKey);
  const derived = [...params.values()].filter((p) => p.basis === 'derived');

  it('keeps the calibration of every calibrated stock and derives the other listings', () => {
    expect(params.size).toBe(3791);
    expect(derived).toHaveLength(3791 - 225);
    expect(params.get('7203')).toMatchObject({ basis: 'calibrated', refClose: 378_000, prevClose: 370_600 });
  });

  it('puts every reference close and previous close on a valid tick, within one day’s limits', () => {
    const bad: string[] = [];
    for (const p of derived) {
      const t5 = data.byCode.get(p.code)?.is_topix500 ?? false;
      const { lower, upper } = priceLimits(p.prevClose, t5);
      if (!isValidTick(p.refClose, t5) || !isValidTick(p.prevClose, t5)) bad.push(`${p.code} tick`);
      if (p.refClose < lower || p.refClose > upper) bad.push(`${p.code} limits`);
      if (p.refDate !== '2026-02-06') bad.push(`${p.code} date`);
      if (!Number.isSafeInteger(p.avgVolume) || p.avgVolume < 100 || p.avgVolume % 100 !== 0) {
        bad.push(`${p.code} volume`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('draws reference closes log-uniformly in the stated range', () => {
    const yen = derived.map((p) => p.refClose / 100).sort((a, b) => a - b);
    expect(yen[0]).toBeGreaterThanOrEqual(DERIVED_CLOSE_RANGE_YEN.low);
    expect(yen.at(-1)).toBeLessThanOrEqual(DERIVED_CLOSE_RANGE_YEN.high);
    // the median of log-uniform(100, 20,000) is √(100 × 20,000) ≈ 1,414
    const median = yen[yen.length >> 1] ?? 0;
    expect(median).toBeGreaterThan(1_200);
    expect(median).toBeLessThan(1_650);
  });

  it('uses the sector median or the overall median, and the size class turnover', () => {
    const basis = derivationBasis(data);
    for (const p of derived) {
      const instrument = data.byCode.get(p.code);
      if (!instrument) throw new Error(p.code);
      expect(p.annVolatility).toBe(basis.sectorVolatility.get(instrument.sector) ?? basis.overallVolatility);
    }
    // 1301 Kyokuyo: TOPIX Small 1, fishery (one calibrated member, so the overall median)
    const kyokuyo = params.get('1301');
    expect(kyokuyo?.annVolatility).toBe(basis.overallVolatility);
    const turnover = ((kyokuyo?.avgVolume ?? 0) * (kyokuyo?.refClose ?? 0)) / 100;
    expect(turnover / (basis.classTurnoverYen[3] ?? 1)).toBeCloseTo(1, 2);
  });

  it('depends only on the seed and the code', () => {
    const kyokuyo = data.byCode.get('1301');
    if (!kyokuyo) throw new Error('1301');
    const basis = derivationBasis(data);
    expect(deriveParameters(kyokuyo, seedKey, basis)).toEqual(params.get('1301'));
    expect(universeParameters('topix500', data, seedKey).get('1333')).toEqual(params.get('1333'));
    const other = universeParameters('all', data, hashString('another seed'));
    const moved = derived.filter((p) => other.get(p.code)?.refClose !== p.refClose);
    expect(moved.length).toBeGreaterThan(derived.length * 0.9);
  });
});
