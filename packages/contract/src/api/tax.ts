import { z } from 'zod';
import { ZSenAmount } from './account.js';
import { ZMarginType, ZTaxAccount } from './trading.js';

/**
 * Tax (issue 23, ADR 0021): the published tax and NISA settings, the withholding arithmetic of 特定口座
 * (源泉徴収あり), and the annual trade report (年間取引報告書) and yearly summary on the wire.
 */

/** Rates are integers per 100,000 (pcm): 15,315 pcm = 15.315%. Floats never touch tax. */
export const PCM = 100_000;

// The operator-published `tax` settings part (console: PUT /api/console/settings/tax)
export const ZTaxSettings = z.object({
  /** 所得税及び復興特別所得税: 15,315 pcm (15.315%) */
  national_rate_pcm: z.number().int().min(0).max(PCM),
  /** 住民税: 5,000 pcm (5%) */
  local_rate_pcm: z.number().int().min(0).max(PCM),
  /** NISA 成長投資枠: the yearly quota, at purchase price (¥2,400,000) */
  nisa_annual_growth_limit_yen: z.number().int().min(0).max(10_000_000_000),
  /** NISA 生涯投資枠 (¥18,000,000) */
  nisa_lifetime_limit_yen: z.number().int().min(0).max(10_000_000_000),
  /** of which 成長投資枠 at most (¥12,000,000) */
  nisa_growth_lifetime_limit_yen: z.number().int().min(0).max(10_000_000_000),
  /** 制度信用: months from the opening to the repayment deadline (6) */
  standard_margin_months: z.number().int().min(1).max(24),
});
export type TTaxSettings = z.infer<typeof ZTaxSettings>;
export const DEFAULT_TAX_SETTINGS: TTaxSettings = {
  national_rate_pcm: 15_315,
  local_rate_pcm: 5_000,
  nisa_annual_growth_limit_yen: 2_400_000,
  nisa_lifetime_limit_yen: 18_000_000,
  nisa_growth_lifetime_limit_yen: 12_000_000,
  standard_margin_months: 6,
};

/**
 * The tax 特定口座 (源泉徴収あり) withholds on a year's net realized gain: the gain in whole yen (sen floored
 * to the yen), each tax floor(max(gain, 0) × rate) in yen. Answers sen.
 */
export function withholdingFor(
  netGainSen: number,
  rates: Pick<TTaxSettings, 'national_rate_pcm' | 'local_rate_pcm'>,
): { gainYen: number; national: number; local: number } {
  const gainYen = Math.floor(netGainSen / 100);
  const base = BigInt(Math.max(gainYen, 0));
  const tax = (pcm: number) => Number((base * BigInt(pcm)) / BigInt(PCM)) * 100;
  return { gainYen, national: tax(rates.national_rate_pcm), local: tax(rates.local_rate_pcm) };
}

// GET /api/tax/report?year=&account= (JSON) and GET /api/tax/report.csv?year=&account= (CSV, UTF-8 with BOM)
export const ZTaxYear = z.coerce
  .number({ error: 'validation.taxYear' })
  .int({ error: 'validation.taxYear' })
  .min(2000, { error: 'validation.taxYear' })
  .max(2100, { error: 'validation.taxYear' });
export const ZTaxReportQuery = z.object({
  year: ZTaxYear,
  account: ZTaxAccount.default('specific'),
});
export type TTaxReportQuery = z.input<typeof ZTaxReportQuery>;
/** One realization: a cash sale (売却) or a margin close (返済), as 年間取引報告書 lists it. */
export const ZTaxReportLine = z.object({
  code: z.string(),
  name: z.string(),
  /** the trade date in Tokyo (YYYY-MM-DD) */
  date: z.string(),
  margin_type: ZMarginType,
  quantity: z.number().int(),
  /** 譲渡の対価: the sale's principal (a short sale's, for a short position) */
  proceeds: ZSenAmount,
  /** 取得費及び譲渡費用: the cost basis of what was sold plus the fees */
  cost: ZSenAmount,
  gain: ZSenAmount,
});
export type TTaxReportLine = z.infer<typeof ZTaxReportLine>;
export const ZTaxReport = z.object({
  year: z.number().int(),
  account: ZTaxAccount,
  lines: z.array(ZTaxReportLine),
  totals: z.object({ proceeds: ZSenAmount, cost: ZSenAmount, gain: ZSenAmount }),
  /** tax withheld in the year (net of refunds): 所得税及び復興特別所得税 and 住民税 */
  withheld: z.object({ national: ZSenAmount, local: ZSenAmount }),
});
export type TTaxReport = z.infer<typeof ZTaxReport>;

// GET /api/tax/summary?year=: the year per account the customer holds
export const ZTaxSummaryQuery = z.object({ year: ZTaxYear });
export const ZTaxAccountSummary = z.object({
  account: ZTaxAccount,
  /** 特定口座 with withholding: the tax is withheld as gains are realized */
  withholding: z.boolean(),
  realized_gain: ZSenAmount,
  withheld_national: ZSenAmount,
  withheld_local: ZSenAmount,
});
export type TTaxAccountSummary = z.infer<typeof ZTaxAccountSummary>;
export const ZTaxSummary = z.object({
  year: z.number().int(),
  accounts: z.array(ZTaxAccountSummary),
});
export type TTaxSummary = z.infer<typeof ZTaxSummary>;
