import { describe, expect, it } from 'vitest';
import { getInstrument, normalizeSearchText, referenceData, searchInstruments } from './instruments.js';

describe('reference data', () => {
  const data = referenceData();

  it('loads every listing and the Nikkei 225 members', () => {
    expect(data.instruments).toHaveLength(3791);
    expect(data.nikkei225).toHaveLength(225);
    expect(data.calibration.size).toBe(225);
    expect(data.instruments.filter((i) => i.is_topix500)).toHaveLength(31 + 70 + 400);
  });

  it('describes Toyota', () => {
    expect(getInstrument('7203')).toEqual({
      code: '7203',
      name_ja: 'トヨタ自動車',
      name_en: 'TOYOTA MOTOR CORPORATION',
      short_name_ja: 'トヨタ',
      sector: '輸送用機器',
      sector_en: 'Transportation Equipment',
      market: 'Prime',
      topix_size: 'TOPIX Core30',
      is_topix500: true,
      nikkei225: true,
    });
  });

  it('applies NFKC to Japanese names and keeps quoted English names whole', () => {
    expect(getInstrument('130A')?.name_ja).toBe('Veritas In Silico');
    expect(getInstrument('１３０ａ')?.code).toBe('130A');
    expect(getInstrument('1301')).toMatchObject({
      name_en: 'KYOKUYO CO.,LTD.',
      sector_en: 'Fishery, Agriculture and Forestry',
      topix_size: 'TOPIX Small 1',
      is_topix500: false,
      nikkei225: false,
    });
    expect(getInstrument('130A')?.topix_size).toBeNull();
  });

  it('reads calibration prices as integer sen', () => {
    expect(data.calibration.get('7203')).toEqual({
      code: '7203',
      ref_date: '2026-02-06',
      ref_close: 378_000,
      prev_close: 370_600,
      ann_volatility: 0.3432,
      avg_volume_60d: 21_310_471,
      high_52w: 381_300,
      low_52w: 222_650,
    });
    expect(data.calibration.get('9432')?.ref_close).toBe(15_250);
    expect(data.indexCalibration.get('nikkei225')).toEqual({
      index: 'nikkei225',
      ref_date: '2026-02-06',
      ref_level_centi: 5_425_368,
      prev_level_centi: 5_381_804,
      ann_volatility: 0.2384,
    });
    expect(data.indexCalibration.get('topix')?.ref_level_centi).toBe(369_900);
  });
});

describe('normalizeSearchText', () => {
  it.each([
    ['ﾄﾖﾀ', 'とよた'],
    ['トヨタ', 'とよた'],
    ['ＴＯＹＯＴＡ Motor', 'toyotamotor'],
    ['ｿﾆｰ・ｸﾞﾙｰﾌﾟ', 'そにーぐるーぷ'],
    ['KYOKUYO CO.,LTD.', 'kyokuyocoltd'],
  ])('%s → %s', (text, expected) => {
    expect(normalizeSearchText(text)).toBe(expected);
  });
});

describe('searchInstruments', () => {
  it.each(['7203', 'とよた', 'ﾄﾖﾀ', 'toyota', 'ＴＯＹＯＴＡ', 'トヨタ自動車', 'toyota motor', '自動車'])(
    '"%s" finds Toyota (7203)',
    (query) => {
      expect(searchInstruments(query, 50).map((i) => i.code)).toContain('7203');
    },
  );

  it('ranks an exact code first, then code prefixes, then names', () => {
    expect(searchInstruments('7203')[0]?.code).toBe('7203');
    const seventyTwo = searchInstruments('72', 100);
    expect(seventyTwo.length).toBeGreaterThan(10);
    const firstNameHit = seventyTwo.findIndex((i) => !i.code.startsWith('72'));
    if (firstNameHit >= 0) {
      expect(seventyTwo.slice(firstNameHit).every((i) => !i.code.startsWith('72'))).toBe(true);
    }
    expect(searchInstruments('トヨタ自動車')[0]?.code).toBe('7203');
  });

  it('puts name prefixes before substrings, Nikkei 225 members first', () => {
    const results = searchInstruments('toyota', 10).map((i) => i.code);
    // the four TOYOTA… names start with "toyota"; the Nikkei 225 member comes first
    expect(results.slice(0, 4).sort()).toEqual(['3116', '6201', '7203', '8015']);
    expect(results.indexOf('7203')).toBeLessThan(results.indexOf('3116'));
  });

  it('respects the limit and ignores an empty query', () => {
    expect(searchInstruments('株式', 3).length).toBeLessThanOrEqual(3);
    expect(searchInstruments('   ')).toEqual([]);
    expect(searchInstruments('zzzzzz-no-such-name')).toEqual([]);
  });
});
