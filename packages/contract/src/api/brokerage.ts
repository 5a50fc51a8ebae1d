import { z } from 'zod';
import { ZSenAmount } from './account.js';
import { ZTaxAccount } from './trading.js';

/**
 * The brokerage account (issue 23): whether it is open, which tax accounts it holds, and what the published
 * suitability rules (適合性の原則) let it do beyond cash trading. The account application that opens it is
 * the real-name flow's full form; its own schemas live beside the identity ones.
 */

/** 特定口座: with withholding (源泉徴収あり), without (源泉徴収なし), or none (一般口座 only). */
export const SPECIFIC_ACCOUNT_CHOICES = ['withholding', 'no_withholding', 'none'] as const;
export const ZSpecificAccountChoice = z.enum(SPECIFIC_ACCOUNT_CHOICES, {
  error: 'validation.specificAccount',
});
export type SpecificAccountChoice = (typeof SPECIFIC_ACCOUNT_CHOICES)[number];

/** What suitability decides: each is offered, or not with the rules that were not met (codes for the catalogues). */
export const SUITABILITY_FEATURES = ['margin', 'short', 'loans'] as const;
export type SuitabilityFeature = (typeof SUITABILITY_FEATURES)[number];
export const ZSuitabilityVerdict = z.object({
  allowed: z.boolean(),
  /** the rules not met, e.g. "experience_stocks", "financial_assets", "age": shown with the rule's figures */
  unmet: z.array(z.string()),
});
export type TSuitabilityVerdict = z.infer<typeof ZSuitabilityVerdict>;

// GET /api/account/brokerage: the customer's account as the order form and the account page need it
export const ZBrokerageAccount = z.object({
  /** none: no application yet; pending: under review; rejected: to be filed again; open: can trade */
  status: z.enum(['none', 'pending', 'rejected', 'open']),
  opened_at: z.string().nullable(),
  specific_account: ZSpecificAccountChoice.nullable(),
  nisa: z.boolean(),
  /** the account new cash orders go to unless the order names one */
  default_account: ZTaxAccount.nullable(),
  /** the accounts the customer holds (an order may name only these) */
  accounts: z.array(ZTaxAccount),
  suitability: z.object({
    margin: ZSuitabilityVerdict,
    short: ZSuitabilityVerdict,
    loans: ZSuitabilityVerdict,
  }),
});
export type TBrokerageAccount = z.infer<typeof ZBrokerageAccount>;

// GET /api/tax/nisa: NISA's 成長投資枠 (growth quota) as it stands now; amounts in sen, at purchase price
export const ZNisaQuota = z.object({
  /** the tax year (Tokyo calendar year) */
  year: z.number().int(),
  /** this year's growth quota (2,400,000 yen by default), used (filled purchases and pending orders), left */
  annual_limit: ZSenAmount,
  annual_used: ZSenAmount,
  annual_remaining: ZSenAmount,
  /** the lifetime limit (18,000,000 yen), of which growth at most 12,000,000 yen; used at book value */
  lifetime_limit: ZSenAmount,
  growth_lifetime_limit: ZSenAmount,
  lifetime_used: ZSenAmount,
  lifetime_remaining: ZSenAmount,
  /** book value sold this year: returns to the lifetime limit on the next January 1 */
  returning_next_year: ZSenAmount,
});
export type TNisaQuota = z.infer<typeof ZNisaQuota>;
