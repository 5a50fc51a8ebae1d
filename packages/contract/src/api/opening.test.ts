import { describe, expect, it } from 'vitest';
import { LOCALES } from '../lang.js';
import { translate } from '../messages/index.js';
import {
  ASSET_BANDS,
  DEFAULT_OPENING_SETTINGS,
  EXPERIENCE_BANDS,
  INCOME_BANDS,
  SUITABILITY_RULES,
  PREFECTURES,
  ZAccountApplication,
  ZApplicationProfile,
  ageOn,
  isValidMyNumber,
  myNumberCheckDigit,
  prefectureName,
  suitability,
  suitabilityRuleText,
  toFullWidthKatakana,
  type TApplicationProfile,
} from './opening.js';

describe('My Number check digit (施行令第8条)', () => {
  it('accepts the published sample 123456789018 and refuses every other last digit', () => {
    expect(myNumberCheckDigit('12345678901')).toBe(8);
    expect(isValidMyNumber('123456789018')).toBe(true);
    for (let d = 0; d <= 9; d += 1) {
      if (d !== 8) expect(isValidMyNumber(`12345678901${d}`)).toBe(false);
    }
  });

  it('gives 0 when the remainder is 0 or 1', () => {
    // 1 × Q1 = 2 → remainder 2 → 9; 0 everywhere → remainder 0 → 0
    expect(myNumberCheckDigit('00000000001')).toBe(9);
    expect(myNumberCheckDigit('00000000000')).toBe(0);
    // 6 × Q1(2) = 12 → remainder 1 → 0
    expect(myNumberCheckDigit('00000000006')).toBe(0);
  });

  it('refuses anything but 12 digits', () => {
    expect(isValidMyNumber('12345678901')).toBe(false);
    expect(isValidMyNumber('1234567890188')).toBe(false);
    expect(isValidMyNumber('12345678901a')).toBe(false);
  });
});

describe('the reading of the name', () => {
  it('folds half-width kana and hiragana to full-width katakana with one ideographic space', () => {
    expect(toFullWidthKatakana('ﾔﾏﾀﾞ ﾀﾛｳ')).toBe('ヤマダ\u3000タロウ');
    expect(toFullWidthKatakana('やまだ　　たろう ')).toBe('ヤマダ\u3000タロウ');
    expect(toFullWidthKatakana('ヤマダ タロウ')).toBe('ヤマダ\u3000タロウ');
    expect(toFullWidthKatakana('ｻｲﾄｳ ｼﾞｭﾝｲﾁﾛｰ')).toBe('サイトウ\u3000ジュンイチロー');
  });
});

describe('ages and prefectures', () => {
  it('counts a year more on the birthday itself', () => {
    expect(ageOn('2008-11-24', '2026-11-23')).toBe(17);
    expect(ageOn('2008-11-24', '2026-11-24')).toBe(18);
    expect(ageOn('2008-02-29', '2026-02-28')).toBe(17);
    expect(ageOn('2008-02-29', '2026-03-01')).toBe(18);
  });

  it('has the 47 prefectures, named in each language', () => {
    expect(PREFECTURES).toHaveLength(47);
    expect(prefectureName('13', 'ja')).toBe('東京都');
    expect(prefectureName('14', 'zh-Hans')).toBe('神奈川县');
    expect(prefectureName('46', 'zh-Hant')).toBe('鹿兒島縣');
    expect(prefectureName('46', 'zh-Hans')).toBe('鹿儿岛县');
    expect(prefectureName('13', 'es')).toBe('Tokio');
    expect(prefectureName('26', 'fr')).toBe('Kyoto');
  });
});

const GOOD_PROFILE = {
  postal_code: '100-0005',
  prefecture: '13',
  city: '千代田区',
  address_line: '丸の内1-1-1',
  building: '',
  occupation: 'company_employee',
  employer_type: 'unlisted_company',
  annual_income: '5m_10m',
  financial_assets: '3m_5m',
  experience: { stocks: '3_5', margin: 'none', funds: '1_3', bonds: 'none', fx: 'none' },
  purpose: 'growth',
  fund_source: 'salary',
  pep: false,
  tax_residence: 'japan_only',
  tax_country: '',
} satisfies TApplicationProfile;

const application = {
  full_name: '山田 太郎',
  full_name_kana: 'ﾔﾏﾀﾞ ﾀﾛｳ',
  birth_date: '1985-04-01',
  profile: GOOD_PROFILE,
  my_number: '1234 5678 9018',
  document_type: 'my_number_card',
  front_upload_id: 'a'.repeat(64),
  back_upload_id: 'b'.repeat(64),
  specific_account: 'withholding',
  open_nisa: true,
};

const issues = (input: unknown) => {
  const parsed = ZAccountApplication.safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}:${i.message}`);
};

describe('the account application', () => {
  it('normalises the reading, the postal code and the My Number', () => {
    const parsed = ZAccountApplication.parse(application);
    expect(parsed.full_name_kana).toBe('ヤマダ\u3000タロウ');
    expect(parsed.profile.postal_code).toBe('1000005');
    expect(parsed.my_number).toBe('123456789018');
  });

  it('names each wrong field with its own message', () => {
    expect(
      issues({
        ...application,
        full_name_kana: '山田',
        birth_date: '1985-02-30',
        my_number: '123456789017',
        profile: { ...GOOD_PROFILE, postal_code: '100-00', prefecture: '48' },
      }),
    ).toEqual([
      'full_name_kana:validation.kanaFormat',
      'birth_date:validation.birthDate',
      'profile.postal_code:validation.postalCode',
      'profile.prefecture:validation.prefecture',
      'my_number:validation.myNumberCheckDigit',
    ]);
    expect(issues({ ...application, profile: { ...GOOD_PROFILE, tax_residence: 'other' } })).toEqual([
      'profile.tax_country:validation.taxCountry',
    ]);
    expect(issues({ ...application, my_number: '12345' })).toEqual(['my_number:validation.myNumberFormat']);
  });

  it('needs the back photo except for a passport', () => {
    expect(issues({ ...application, back_upload_id: '' })).toEqual([
      'back_upload_id:validation.backPhotoRequired',
    ]);
    expect(issues({ ...application, back_upload_id: '', document_type: 'passport' })).toEqual([]);
  });

  it('takes another tax residence with its country code', () => {
    const p = ZApplicationProfile.parse({ ...GOOD_PROFILE, tax_residence: 'other', tax_country: 'us' });
    expect(p.tax_country).toBe('US');
  });
});

describe('suitability (適合性の原則) with the default rules', () => {
  const s = DEFAULT_OPENING_SETTINGS;
  const today = '2026-11-24';
  const judge = (p: Partial<TApplicationProfile>, birth = '1985-04-01') =>
    suitability({ ...GOOD_PROFILE, ...p }, birth, s, today);

  it('offers margin, short selling and loans to an experienced customer with assets and income', () => {
    expect(judge({})).toEqual({
      margin: { allowed: true, unmet: [] },
      short: { allowed: true, unmet: [] },
      loans: { allowed: true, unmet: [] },
    });
  });

  it('margin needs 1 year of stock experience: under 1 year is refused, 1–3 years is enough', () => {
    const under = judge({ experience: { ...GOOD_PROFILE.experience, stocks: 'under_1' } });
    expect(under.margin).toEqual({ allowed: false, unmet: ['experience_stocks'] });
    expect(under.short).toEqual({ allowed: false, unmet: ['experience_stocks'] });
    expect(under.loans.allowed).toBe(true);
    expect(judge({ experience: { ...GOOD_PROFILE.experience, stocks: '1_3' } }).margin.allowed).toBe(true);
  });

  it('margin needs ¥1,000,000 of financial assets: the band under it is refused, the band from it passes', () => {
    expect(judge({ financial_assets: 'under_1m' }).margin).toEqual({
      allowed: false,
      unmet: ['financial_assets'],
    });
    expect(judge({ financial_assets: '1m_3m' }).margin.allowed).toBe(true);
  });

  it('margin is offered from the 20th birthday to the age of 75, at the day', () => {
    expect(judge({}, '2006-11-25').margin).toEqual({ allowed: false, unmet: ['age_min'] });
    expect(judge({}, '2006-11-24').margin.allowed).toBe(true);
    expect(judge({}, '1950-11-25').margin.allowed).toBe(true); // 75
    expect(judge({}, '1950-11-24').margin).toEqual({ allowed: false, unmet: ['age_max'] }); // 76 today
  });

  it('loans need an income and the age of 20', () => {
    expect(judge({ annual_income: 'none' }).loans).toEqual({ allowed: false, unmet: ['income'] });
    expect(judge({ annual_income: 'under_1m' }).loans.allowed).toBe(true);
    expect(judge({ annual_income: 'none' }, '2007-01-01').loans).toEqual({
      allowed: false,
      unmet: ['age_min', 'income'],
    });
  });

  it('lists every unmet rule and follows the published settings', () => {
    const poor = judge(
      { financial_assets: 'under_1m', experience: { ...GOOD_PROFILE.experience, stocks: 'none' } },
      '2007-01-01',
    );
    expect(poor.margin.unmet).toEqual(['age_min', 'experience_stocks', 'financial_assets']);
    const strict = suitability(GOOD_PROFILE, '1985-04-01', { ...s, margin_min_assets: '5m_10m' }, today);
    expect(strict.margin).toEqual({ allowed: false, unmet: ['financial_assets'] });
  });
});

describe("an unmet rule in the reader's words", () => {
  it('labels every rule, and every band an operator may publish, in all six languages', () => {
    const base = DEFAULT_OPENING_SETTINGS;
    for (const locale of LOCALES) {
      const t = (key: string, params?: Record<string, string | number>) => translate(locale, key, params);
      const texts = [
        ...SUITABILITY_RULES.flatMap((rule) =>
          (['margin', 'short', 'loans'] as const).map((f) => suitabilityRuleText(rule, f, base, t)),
        ),
        ...EXPERIENCE_BANDS.map((band) =>
          suitabilityRuleText(
            'experience_stocks',
            'margin',
            { ...base, margin_min_stock_experience: band },
            t,
          ),
        ),
        ...ASSET_BANDS.map((band) =>
          suitabilityRuleText('financial_assets', 'margin', { ...base, margin_min_assets: band }, t),
        ),
        ...INCOME_BANDS.map((band) =>
          suitabilityRuleText('income', 'loans', { ...base, loans_min_income: band }, t),
        ),
      ];
      for (const text of texts) {
        // no key shown as it is, no placeholder left unfilled
        expect(text, locale).not.toMatch(/opening\.|\{\{|^$/);
      }
    }
  });

  it("fills in the rule's figures and band through the translator it is given", () => {
    const en = (key: string, params?: Record<string, string | number>) => translate('en', key, params);
    const ja = (key: string, params?: Record<string, string | number>) => translate('ja', key, params);
    const settings = DEFAULT_OPENING_SETTINGS;
    expect(suitabilityRuleText('financial_assets', 'margin', settings, en)).toBe(
      'financial assets of ¥1 million or more',
    );
    expect(suitabilityRuleText('experience_stocks', 'margin', settings, en)).toBe(
      'stock trading experience of at least 1 year',
    );
    expect(suitabilityRuleText('age_min', 'loans', settings, ja)).toContain('20');
    // the translator decides the language: the same rule reads differently in each
    expect(suitabilityRuleText('financial_assets', 'margin', settings, ja)).not.toBe(
      suitabilityRuleText('financial_assets', 'margin', settings, en),
    );
  });
});
