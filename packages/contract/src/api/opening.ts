import { z } from 'zod';
import { ZFullName, ZIdentity, ZUploadId } from './funds.js';
import { ZBrokerageAccount, ZSpecificAccountChoice, type TSuitabilityVerdict } from './brokerage.js';

/**
 * The account application (口座開設申込, issue 23, ADR 0022): what a Japanese broker asks before opening a
 * securities account, filed through the real-name endpoint (POST /api/identity) and reviewed in the console.
 * The answers beyond the name, birth date, My Number, document and tax-account choices are the `profile`;
 * suitability (適合性の原則) reads the profile to decide what the account may do beyond cash trading.
 * Fixed lists are codes on the wire; their labels are `opening.*` in the six catalogues of messages/.
 */

// ---------------------------------------------------------------- fixed lists

/** The 47 prefectures by their JIS X 0401 code, in the code's order (北海道 01 ... 沖縄県 47). */
export const PREFECTURES = [
  ['01', '北海道', 'Hokkaido'],
  ['02', '青森県', 'Aomori'],
  ['03', '岩手県', 'Iwate'],
  ['04', '宮城県', 'Miyagi'],
  ['05', '秋田県', 'Akita'],
  ['06', '山形県', 'Yamagata'],
  ['07', '福島県', 'Fukushima'],
  ['08', '茨城県', 'Ibaraki'],
  ['09', '栃木県', 'Tochigi'],
  ['10', '群馬県', 'Gunma'],
  ['11', '埼玉県', 'Saitama'],
  ['12', '千葉県', 'Chiba'],
  ['13', '東京都', 'Tokyo'],
  ['14', '神奈川県', 'Kanagawa'],
  ['15', '新潟県', 'Niigata'],
  ['16', '富山県', 'Toyama'],
  ['17', '石川県', 'Ishikawa'],
  ['18', '福井県', 'Fukui'],
  ['19', '山梨県', 'Yamanashi'],
  ['20', '長野県', 'Nagano'],
  ['21', '岐阜県', 'Gifu'],
  ['22', '静岡県', 'Shizuoka'],
  ['23', '愛知県', 'Aichi'],
  ['24', '三重県', 'Mie'],
  ['25', '滋賀県', 'Shiga'],
  ['26', '京都府', 'Kyoto'],
  ['27', '大阪府', 'Osaka'],
  ['28', '兵庫県', 'Hyogo'],
  ['29', '奈良県', 'Nara'],
  ['30', '和歌山県', 'Wakayama'],
  ['31', '鳥取県', 'Tottori'],
  ['32', '島根県', 'Shimane'],
  ['33', '岡山県', 'Okayama'],
  ['34', '広島県', 'Hiroshima'],
  ['35', '山口県', 'Yamaguchi'],
  ['36', '徳島県', 'Tokushima'],
  ['37', '香川県', 'Kagawa'],
  ['38', '愛媛県', 'Ehime'],
  ['39', '高知県', 'Kochi'],
  ['40', '福岡県', 'Fukuoka'],
  ['41', '佐賀県', 'Saga'],
  ['42', '長崎県', 'Nagasaki'],
  ['43', '熊本県', 'Kumamoto'],
  ['44', '大分県', 'Oita'],
  ['45', '宮崎県', 'Miyazaki'],
  ['46', '鹿児島県', 'Kagoshima'],
  ['47', '沖縄県', 'Okinawa'],
] as const;
export type PrefectureCode = (typeof PREFECTURES)[number][0];
export const PREFECTURE_CODES = PREFECTURES.map((p) => p[0]) as [PrefectureCode, ...PrefectureCode[]];

/** Characters of the prefectures' names that Chinese writes differently: [Japanese, simplified, traditional]. */
const HANZI: readonly (readonly [string, string, string])[] = [
  ['県', '县', '縣'],
  ['島', '岛', '島'],
  ['馬', '马', '馬'],
  ['葉', '叶', '葉'],
  ['東', '东', '東'],
  ['長', '长', '長'],
  ['静', '静', '靜'],
  ['岡', '冈', '岡'],
  ['愛', '爱', '愛'],
  ['賀', '贺', '賀'],
  ['庫', '库', '庫'],
  ['鳥', '鸟', '鳥'],
  ['広', '广', '廣'],
  ['徳', '德', '德'],
  ['児', '儿', '兒'],
  ['縄', '绳', '繩'],
  ['宮', '宫', '宮'],
];

/**
 * A prefecture's name as each language writes it: kanji in Japanese and (in their own characters) in Chinese,
 * the romanised name elsewhere (Tokio and Kioto in Spanish, as Spanish writes them).
 */
export function prefectureName(code: string, locale: string): string {
  const row = PREFECTURES.find((p) => p[0] === code);
  if (!row) return code;
  const [, ja, roman] = row;
  if (locale === 'ja') return ja;
  if (locale === 'zh-Hans' || locale === 'zh-Hant') {
    const column = locale === 'zh-Hans' ? 1 : 2;
    let out = '';
    for (const ch of ja) out += HANZI.find((h) => h[0] === ch)?.[column] ?? ch;
    return out;
  }
  if (locale === 'es') return roman === 'Tokyo' ? 'Tokio' : roman === 'Kyoto' ? 'Kioto' : roman;
  return roman;
}

export const OCCUPATIONS = [
  'company_employee',
  'executive',
  'civil_servant',
  'self_employed',
  'professional',
  'part_time',
  'homemaker',
  'student',
  'retired',
  'unemployed',
  'other',
] as const;
/** 勤務先: whether the employer is listed (insider registration, 内部者登録) or a financial institution. */
export const EMPLOYER_TYPES = [
  'listed_company',
  'unlisted_company',
  'financial_institution',
  'public_sector',
  'none',
] as const;
/** 年収 and 金融資産: the bands Japanese brokers ask in (yen); income may be none. */
export const INCOME_BANDS = ['none', 'under_1m', '1m_3m', '3m_5m', '5m_10m', '10m_30m', '30m_plus'] as const;
export const ASSET_BANDS = ['under_1m', '1m_3m', '3m_5m', '5m_10m', '10m_30m', '30m_plus'] as const;
export type IncomeBand = (typeof INCOME_BANDS)[number];
export type AssetBand = (typeof ASSET_BANDS)[number];
/** 投資経験: years per product. */
export const EXPERIENCE_BANDS = ['none', 'under_1', '1_3', '3_5', '5_plus'] as const;
export type ExperienceBand = (typeof EXPERIENCE_BANDS)[number];
export const EXPERIENCE_PRODUCTS = ['stocks', 'margin', 'funds', 'bonds', 'fx'] as const;
/** 投資目的 */
export const INVESTMENT_PURPOSES = ['stable', 'income', 'growth', 'short_term'] as const;
/** 主な資金源 */
export const FUND_SOURCES = [
  'salary',
  'business_income',
  'pension',
  'savings',
  'inheritance',
  'investment_income',
  'other',
] as const;
export const DOCUMENT_TYPES = ['my_number_card', 'driving_licence', 'passport', 'residence_card'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

// ---------------------------------------------------------------- kana and My Number

/**
 * A reading as full-width katakana: half-width kana folded (NFKC), hiragana turned to katakana, spaces of
 * any width collapsed to one ideographic space, trimmed. ﾔﾏﾀﾞ ﾀﾛｳ, やまだ たろう and ヤマダ タロウ (with a full-width space) all
 * give ヤマダ, a full-width space, タロウ. Anything else (kanji, latin letters) is left as it is, for the schema to refuse.
 */
export function toFullWidthKatakana(input: string): string {
  const folded = input.normalize('NFKC');
  let out = '';
  for (const ch of folded) {
    const c = ch.codePointAt(0) ?? 0;
    out += (c >= 0x3041 && c <= 0x3096) || c === 0x309d || c === 0x309e ? String.fromCodePoint(c + 0x60) : ch;
  }
  return out
    .replace(/[\s\u3000]+/gu, ' ')
    .trim()
    .replace(/ /g, '\u3000');
}

/** Full-width katakana (with ー, ヽ, ヾ) in words separated by single ideographic spaces. */
export const KATAKANA_READING = /^[\u30a1-\u30fa\u30fc-\u30fe]+(\u3000[\u30a1-\u30fa\u30fc-\u30fe]+)*$/u;

/**
 * The check digit of a My Number (個人番号): 11 − (Σ Pn × Qn mod 11), 0 when the remainder is 0 or 1,
 * where Pn is the n-th of the first 11 digits counted from the right and Qn is n + 1 for n ≤ 6, n − 5
 * after (行政手続における特定の個人を識別するための番号の利用等に関する法律施行令 第8条).
 */
export function myNumberCheckDigit(first11: string): number {
  let sum = 0;
  for (let n = 1; n <= 11; n += 1) {
    const p = Number(first11[11 - n]);
    const q = n <= 6 ? n + 1 : n - 5;
    sum += p * q;
  }
  const r = sum % 11;
  return r <= 1 ? 0 : 11 - r;
}

/** 12 digits whose last is the check digit of the first 11. */
export function isValidMyNumber(value: string): boolean {
  return /^\d{12}$/.test(value) && myNumberCheckDigit(value.slice(0, 11)) === Number(value[11]);
}

/** YYYY-MM-DD that is a real calendar date. */
export function isCalendarDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** Full years from a birth date to a day (both YYYY-MM-DD): one more on each birthday. */
export function ageOn(birthDate: string, today: string): number {
  const [by, bm, bd] = birthDate.split('-').map(Number) as [number, number, number];
  const [ty, tm, td] = today.split('-').map(Number) as [number, number, number];
  return ty - by - (tm < bm || (tm === bm && td < bd) ? 1 : 0);
}

// ---------------------------------------------------------------- the application

const choice = <T extends readonly [string, ...string[]]>(values: T, key: string) =>
  z.enum(values, { error: `validation.${key}` });

const ZExperienceBand = choice(EXPERIENCE_BANDS, 'experience');

export const ZApplicationProfile = z
  .object({
    /** 7 digits; typed with or without the hyphen (100-0005 or 1000005) */
    postal_code: z
      .string({ error: 'validation.postalCode' })
      .trim()
      .transform((s) => s.normalize('NFKC').replace(/[-ー－]/g, ''))
      .pipe(z.string().regex(/^\d{7}$/, { error: 'validation.postalCode' })),
    prefecture: choice(PREFECTURE_CODES, 'prefecture'),
    /** 市区町村 */
    city: z
      .string({ error: 'validation.cityRequired' })
      .trim()
      .min(1, { error: 'validation.cityRequired', abort: true })
      .max(60, { error: 'validation.addressLength' }),
    /** 町名・番地 */
    address_line: z
      .string({ error: 'validation.addressRequired' })
      .trim()
      .min(1, { error: 'validation.addressRequired', abort: true })
      .max(100, { error: 'validation.addressLength' }),
    /** 建物名・部屋番号 (optional) */
    building: z.string().trim().max(100, { error: 'validation.addressLength' }).default(''),
    occupation: choice(OCCUPATIONS, 'occupation'),
    employer_type: choice(EMPLOYER_TYPES, 'employerType'),
    annual_income: choice(INCOME_BANDS, 'annualIncome'),
    financial_assets: choice(ASSET_BANDS, 'financialAssets'),
    experience: z.object(
      {
        stocks: ZExperienceBand,
        margin: ZExperienceBand,
        funds: ZExperienceBand,
        bonds: ZExperienceBand,
        fx: ZExperienceBand,
      },
      { error: 'validation.experience' },
    ),
    purpose: choice(INVESTMENT_PURPOSES, 'purpose'),
    fund_source: choice(FUND_SOURCES, 'fundSource'),
    /** 外国PEPs: the applicant declares whether they are (or are family of) a foreign politically exposed person */
    pep: z.boolean({ error: 'validation.pep' }),
    /** 居住地国: Japan only, or another country of tax residence (ISO 3166-1 alpha-2) */
    tax_residence: choice(['japan_only', 'other'] as const, 'taxResidence'),
    tax_country: z
      .string()
      .trim()
      .transform((s) => s.toUpperCase())
      .default(''),
  })
  .superRefine((p, ctx) => {
    if (p.tax_residence === 'other' && (!/^[A-Z]{2}$/.test(p.tax_country) || p.tax_country === 'JP')) {
      ctx.addIssue({ code: 'custom', path: ['tax_country'], message: 'validation.taxCountry' });
    }
  });
export type TApplicationProfile = z.infer<typeof ZApplicationProfile>;

// POST /api/identity: the account application (the real-name verification's full form since issue 23)
export const ZAccountApplication = z
  .object({
    full_name: ZFullName,
    /** the reading: katakana, hiragana or half-width kana, stored as full-width katakana */
    full_name_kana: z
      .string({ error: 'validation.kanaRequired' })
      .transform(toFullWidthKatakana)
      .pipe(
        z
          .string()
          .min(1, { error: 'validation.kanaRequired', abort: true })
          .max(60, { error: 'validation.fullNameLength', abort: true })
          .regex(KATAKANA_READING, { error: 'validation.kanaFormat' }),
      ),
    birth_date: z
      .string({ error: 'validation.birthDate' })
      .trim()
      .refine(isCalendarDate, { error: 'validation.birthDate' }),
    profile: ZApplicationProfile,
    /** 個人番号: 12 digits (spaces and hyphens dropped) with a valid check digit */
    my_number: z
      .string({ error: 'validation.myNumberRequired' })
      .transform((s) => s.normalize('NFKC').replace(/[\s-]/g, ''))
      .pipe(
        z
          .string()
          .min(1, { error: 'validation.myNumberRequired', abort: true })
          .regex(/^\d{12}$/, { error: 'validation.myNumberFormat', abort: true })
          .refine(isValidMyNumber, { error: 'validation.myNumberCheckDigit' }),
      ),
    document_type: choice(DOCUMENT_TYPES, 'documentType'),
    front_upload_id: ZUploadId.or(z.literal('')).refine((v) => v !== '', {
      error: 'validation.frontPhotoRequired',
    }),
    /** the back of the card; a passport has none worth photographing, so it may be left out for one */
    back_upload_id: ZUploadId.or(z.literal('')).default(''),
    specific_account: ZSpecificAccountChoice,
    open_nisa: z.boolean({ error: 'validation.openNisa' }),
  })
  .superRefine((a, ctx) => {
    if (a.document_type !== 'passport' && a.back_upload_id === '') {
      ctx.addIssue({ code: 'custom', path: ['back_upload_id'], message: 'validation.backPhotoRequired' });
    }
  });
export type TAccountApplication = z.infer<typeof ZAccountApplication>;
export type TAccountApplicationInput = z.input<typeof ZAccountApplication>;

// ---------------------------------------------------------------- suitability

/** The published suitability rules (operator setting `opening`); defaults in ADR 0022. */
export const ZOpeningSettings = z.object({
  /** account opening is refused below this age (years, at the server's Tokyo date) */
  min_age: z.number().int().min(0).max(120),
  /** margin and short selling: stock experience at least this band */
  margin_min_stock_experience: ZExperienceBand,
  /** margin and short selling: financial assets at least this band */
  margin_min_assets: choice(ASSET_BANDS, 'financialAssets'),
  margin_min_age: z.number().int().min(0).max(120),
  /** margin and short selling: at most this age (years) */
  margin_max_age: z.number().int().min(0).max(120),
  /** loans: annual income at least this band */
  loans_min_income: choice(INCOME_BANDS, 'annualIncome'),
  loans_min_age: z.number().int().min(0).max(120),
});
export type TOpeningSettings = z.infer<typeof ZOpeningSettings>;

export const DEFAULT_OPENING_SETTINGS: TOpeningSettings = {
  min_age: 18,
  margin_min_stock_experience: '1_3',
  margin_min_assets: '1m_3m',
  margin_min_age: 20,
  margin_max_age: 75,
  loans_min_income: 'under_1m',
  loans_min_age: 20,
};

/** A rule not met, with the figures its message names (`opening.rules.<rule>` in the catalogues). */
export const SUITABILITY_RULES = [
  /** an account opened before the suitability questions: nothing to judge */
  'profile',
  'age_min',
  'age_max',
  'experience_stocks',
  'financial_assets',
  'income',
] as const;
export type SuitabilityRule = (typeof SUITABILITY_RULES)[number];

export interface Suitability {
  margin: TSuitabilityVerdict;
  short: TSuitabilityVerdict;
  loans: TSuitabilityVerdict;
}

const atLeast = <T extends string>(order: readonly T[], value: T, min: T) =>
  order.indexOf(value) >= order.indexOf(min);

/**
 * 適合性の原則: what the profile lets the account do beyond cash trading. Margin needs the stock
 * experience, the financial assets and an age within the range; short selling is a margin trade and takes
 * margin's rules; loans need an income and the minimum age. `today` is the Tokyo date (YYYY-MM-DD).
 */
export function suitability(
  profile: Pick<TApplicationProfile, 'experience' | 'financial_assets' | 'annual_income'>,
  birthDate: string,
  settings: TOpeningSettings,
  today: string,
): Suitability {
  const age = ageOn(birthDate, today);
  const margin: SuitabilityRule[] = [];
  if (age < settings.margin_min_age) margin.push('age_min');
  if (age > settings.margin_max_age) margin.push('age_max');
  if (!atLeast(EXPERIENCE_BANDS, profile.experience.stocks, settings.margin_min_stock_experience)) {
    margin.push('experience_stocks');
  }
  if (!atLeast(ASSET_BANDS, profile.financial_assets, settings.margin_min_assets)) {
    margin.push('financial_assets');
  }
  const loans: SuitabilityRule[] = [];
  if (age < settings.loans_min_age) loans.push('age_min');
  if (!atLeast(INCOME_BANDS, profile.annual_income, settings.loans_min_income)) loans.push('income');
  const verdict = (unmet: SuitabilityRule[]): TSuitabilityVerdict => ({ allowed: unmet.length === 0, unmet });
  return { margin: verdict(margin), short: verdict([...margin]), loans: verdict(loans) };
}

/** Nothing is offered: an account not open yet, or no profile to judge. */
export const NOT_SUITABLE: Suitability = {
  margin: { allowed: false, unmet: [] },
  short: { allowed: false, unmet: [] },
  loans: { allowed: false, unmet: [] },
};

/** The figures a rule's message names, for `opening.rules.<rule>`: ages, and band codes to label. */
export function ruleParams(
  rule: string,
  feature: 'margin' | 'short' | 'loans',
  settings: TOpeningSettings,
): Record<string, string | number> {
  const loans = feature === 'loans';
  switch (rule) {
    case 'age_min':
      return { age: loans ? settings.loans_min_age : settings.margin_min_age };
    case 'age_max':
      return { age: settings.margin_max_age };
    case 'experience_stocks':
      return { band: settings.margin_min_stock_experience };
    case 'financial_assets':
      return { band: settings.margin_min_assets };
    case 'income':
      return { band: settings.loans_min_income };
    default:
      return {};
  }
}

/** A catalogue's lookup with `{{name}}` placeholders filled: the server's `translate` for one locale, the web's `tContract`. */
export type ContractTranslator = (key: string, params?: Record<string, string | number>) => string;

/**
 * One unmet rule as the reader's language states it, its figures filled in (`opening.rules.*`). The caller
 * passes its translator rather than this module importing the catalogues: every page that reads an account
 * schema from here would otherwise download all six of them (issue 21).
 */
export function suitabilityRuleText(
  rule: string,
  feature: 'margin' | 'short' | 'loans',
  settings: TOpeningSettings,
  t: ContractTranslator,
): string {
  const params = ruleParams(rule, feature, settings);
  const kind =
    rule === 'experience_stocks' ? 'experience' : rule === 'financial_assets' ? 'assets' : 'income';
  const band = typeof params['band'] === 'string' ? t(`opening.ruleBands.${kind}.${params['band']}`) : '';
  return t(`opening.rules.${rule}`, { ...params, band });
}

// ---------------------------------------------------------------- views

/** The profile as stored (after the application's normalisation): plain values, for views. */
export const ZApplicationProfileView = z.object({
  postal_code: z.string(),
  prefecture: z.string(),
  city: z.string(),
  address_line: z.string(),
  building: z.string(),
  occupation: z.enum(OCCUPATIONS),
  employer_type: z.enum(EMPLOYER_TYPES),
  annual_income: z.enum(INCOME_BANDS),
  financial_assets: z.enum(ASSET_BANDS),
  experience: z.object({
    stocks: z.enum(EXPERIENCE_BANDS),
    margin: z.enum(EXPERIENCE_BANDS),
    funds: z.enum(EXPERIENCE_BANDS),
    bonds: z.enum(EXPERIENCE_BANDS),
    fx: z.enum(EXPERIENCE_BANDS),
  }),
  purpose: z.enum(INVESTMENT_PURPOSES),
  fund_source: z.enum(FUND_SOURCES),
  pep: z.boolean(),
  tax_residence: z.enum(['japan_only', 'other']),
  tax_country: z.string(),
});
export type TApplicationProfileView = z.infer<typeof ZApplicationProfileView>;

/** The application's answers (null for a verification filed before issue 23's form); My Number masked. */
export const ZApplicationView = z.object({
  full_name_kana: z.string().nullable(),
  birth_date: z.string().nullable(),
  profile: ZApplicationProfileView.nullable(),
  document_type: z.enum(DOCUMENT_TYPES).nullable(),
  /** ••••••••1234 */
  my_number_masked: z.string().nullable(),
  specific_account: ZSpecificAccountChoice.nullable(),
  open_nisa: z.boolean().nullable(),
});
export type TApplicationView = z.infer<typeof ZApplicationView>;

// GET /api/identity and POST /api/identity's answer: the verification's state with the application
export const ZIdentityApplication = ZIdentity.extend({ application: ZApplicationView.nullable() });
export type TIdentityApplication = z.infer<typeof ZIdentityApplication>;

// POST /api/console/identity/:id/my-number: the reviewer's reason for looking; answers the number, audited
export const ZMyNumberReveal = z.object({
  reason: z
    .string({ error: 'validation.reasonRequired' })
    .trim()
    .min(1, { error: 'validation.reasonRequired' })
    .max(500, { error: 'validation.reasonLength' }),
});
export const ZMyNumberRevealed = z.object({ my_number: z.string() });

// GET /api/account/brokerage: the account with the published rules, so that an unmet rule is shown with its figures
export const ZBrokerageAccountView = ZBrokerageAccount.extend({ rules: ZOpeningSettings });
export type TBrokerageAccountView = z.infer<typeof ZBrokerageAccountView>;
