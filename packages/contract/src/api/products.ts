import { z } from 'zod';
import { ZSenAmount } from './account.js';

/**
 * Follow-up products (issue 17, ADR 0027): published model-portfolio funds whose unit value (基準価額, NAV) is
 * struck once per business day from the closing prices of their constituents, and dividends from holdings.
 * Money is sen on the wire (ADR 0002); NAV is sen per NAV_UNITS units (as Japanese funds quote 基準価額 per
 * 10,000 口); units are whole 口.
 */

/** NAV is quoted per this many units (1万口), as Japanese investment trusts quote 基準価額. */
export const NAV_UNITS = 10_000;
/** A new product's first NAV: 10,000 yen per 10,000 units (sen). */
export const INITIAL_NAV_SEN = 1_000_000;
/** Orders before this Tokyo time on a business day get that day's NAV; later ones the next business day's. */
export const PRODUCT_CUTOFF = '15:30';
/** Weights are basis points of the portfolio; they must sum to this. */
export const WEIGHT_TOTAL_BP = 10_000;
/** The management fee (信託報酬) is an annual rate in parts per million (1,000 = 0.1%), accrued over 365 days. */
export const PPM = 1_000_000;

export const ZProductConstituent = z.object({
  code: z.string().regex(/^[0-9A-Z]{4}$/, { error: 'validation.productCode' }),
  /** basis points of the portfolio (2500 = 25%) */
  weight_bp: z.number().int().min(1, { error: 'validation.productWeight' }).max(WEIGHT_TOTAL_BP),
});
export type TProductConstituent = z.infer<typeof ZProductConstituent>;

const ZConstituents = z
  .array(ZProductConstituent)
  .min(1, { error: 'validation.productConstituents' })
  .max(50, { error: 'validation.productConstituents' })
  .refine((list) => list.reduce((s, c) => s + c.weight_bp, 0) === WEIGHT_TOTAL_BP, {
    error: 'validation.productWeightsSum',
  })
  .refine((list) => new Set(list.map((c) => c.code)).size === list.length, {
    error: 'validation.productConstituentsUnique',
  });

const ZText = (max: number) =>
  z.string({ error: 'validation.productText' }).trim().min(1, { error: 'validation.productText' }).max(max);

// POST /api/console/products (an administrator publishes a product)
export const ZPublishProductBody = z.object({
  issuer: ZText(60),
  name: ZText(80),
  strategy: ZText(2000),
  risk_disclosure: ZText(4000),
  constituents: ZConstituents,
  fund_cap: ZSenAmount.refine((v) => v > 0, { error: 'validation.productPositive' }),
  /** last Tokyo date applications are accepted (inclusive) */
  deadline: z.iso.date({ error: 'validation.dateFormat' }),
  min_investment: ZSenAmount.refine((v) => v >= 100, { error: 'validation.productPositive' }),
  management_rate_ppm: z.number().int().min(0).max(50_000, { error: 'validation.productFee' }),
});
export type TPublishProductBody = z.infer<typeof ZPublishProductBody>;

// POST /api/console/products/:id/versions (a new audited version of the portfolio and fee)
export const ZProductVersionBody = z.object({
  constituents: ZConstituents,
  management_rate_ppm: z.number().int().min(0).max(50_000, { error: 'validation.productFee' }),
  reason: ZText(400),
});
export type TProductVersionBody = z.infer<typeof ZProductVersionBody>;

export const ZProductIdParams = z.object({ id: z.coerce.number().int().positive() });

export const ZNavPoint = z.object({ date: z.string(), nav: ZSenAmount });
export type TNavPoint = z.infer<typeof ZNavPoint>;

export const ZProduct = z.object({
  id: z.number().int(),
  version: z.number().int(),
  issuer: z.string(),
  name: z.string(),
  strategy: z.string(),
  risk_disclosure: z.string(),
  constituents: z.array(ZProductConstituent.extend({ name: z.string() })),
  management_rate_ppm: z.number().int(),
  fund_cap: ZSenAmount,
  /** units outstanding × latest NAV, plus applications waiting for their NAV */
  fund_size: ZSenAmount,
  deadline: z.string(),
  min_investment: ZSenAmount,
  /** latest NAV (sen per NAV_UNITS units) and its date */
  nav: ZSenAmount,
  nav_date: z.string(),
  /** open: accepting applications; closed: past the deadline */
  status: z.enum(['open', 'closed']),
  /** whether the caller has acknowledged this version's risk disclosure (false without a session) */
  risk_acknowledged: z.boolean(),
});
export type TProduct = z.infer<typeof ZProduct>;

export const ZProductDetail = ZProduct.extend({ history: z.array(ZNavPoint) });
export type TProductDetail = z.infer<typeof ZProductDetail>;
export const ZProductList = z.object({ items: z.array(ZProduct) });

/**
 * A purchase amount in yen as typed: digits with at most two decimals (the specification's "The purchase
 * price can only have two decimal places"); taken to the sen exactly, never rounded.
 */
export const ZProductAmount = z
  .string({ error: 'validation.productAmount' })
  .trim()
  .regex(/^\d{1,12}(\.\d{1,2})?$/, { error: 'validation.productAmountDecimals' });

// POST /api/products/:id/buy (Idempotency-Key)
export const ZProductBuyBody = z.strictObject({
  amount: ZProductAmount,
  /** the holder acknowledges the product's risk disclosure (required before the first buy of a version) */
  acknowledge_risk: z.boolean().optional(),
});

export const PRODUCT_RECORD_STATUSES = ['pending', 'following', 'redeeming', 'ended'] as const;
export const ZProductRecord = z.object({
  id: z.number().int(),
  product_id: z.number().int(),
  product_name: z.string(),
  issuer: z.string(),
  status: z.enum(PRODUCT_RECORD_STATUSES),
  /** the amount applied for (sen) */
  amount: ZSenAmount,
  /** what the units cost at their NAV (sen); null while pending */
  cost: ZSenAmount.nullable(),
  units: z.number().int().nullable(),
  buy_at: z.string(),
  /** the NAV date the purchase is (or will be) priced at */
  buy_nav_date: z.string(),
  buy_nav: ZSenAmount.nullable(),
  sell_at: z.string().nullable(),
  sell_nav_date: z.string().nullable(),
  sell_nav: ZSenAmount.nullable(),
  proceeds: ZSenAmount.nullable(),
  ended_at: z.string().nullable(),
  /** units × (NAV yesterday − NAV the day before): derived; null until two NAVs since the purchase exist */
  yesterday_earnings: ZSenAmount.nullable(),
  /** units × latest NAV − cost (following), proceeds − cost (ended): derived */
  total_profit: ZSenAmount.nullable(),
  /** units × latest NAV */
  value: ZSenAmount.nullable(),
});
export type TProductRecord = z.infer<typeof ZProductRecord>;
export const ZProductRecords = z.object({ items: z.array(ZProductRecord) });
export const ZProductRecordParams = z.object({ id: z.coerce.number().int().positive() });

// ---------------------------------------------------------------- dividends

// POST /api/console/dividends
export const ZDividendAnnounceBody = z.object({
  code: z.string().regex(/^[0-9A-Z]{4}$/, { error: 'validation.productCode' }),
  /** dividend per share (sen; may have sen, e.g. 12.5 yen = 1250) */
  per_share: ZSenAmount.refine((v) => v > 0, { error: 'validation.productPositive' }),
  record_date: z.iso.date({ error: 'validation.dateFormat' }),
  payment_date: z.iso.date({ error: 'validation.dateFormat' }),
});
export type TDividendAnnounceBody = z.infer<typeof ZDividendAnnounceBody>;

export const ZDividendAnnouncement = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  per_share: ZSenAmount,
  record_date: z.string(),
  /** 権利付最終日: two business days before the record date */
  cum_date: z.string(),
  /** 権利落ち日: the business day after the cum date */
  ex_date: z.string(),
  payment_date: z.string(),
  status: z.enum(['announced', 'paid']),
  source: z.string().nullable(),
});
export type TDividendAnnouncement = z.infer<typeof ZDividendAnnouncement>;
export const ZDividendAnnouncements = z.object({ items: z.array(ZDividendAnnouncement) });

export const ZUpcomingDividend = ZDividendAnnouncement.extend({
  /** why it is listed: shares held (cash holdings) or on the watchlist */
  reason: z.enum(['holding', 'watchlist']),
  /** shares held now in cash holdings */
  quantity: z.number().int(),
  /** business days left to buy with the right (0 = today is the cum date); null once past */
  days_to_cum: z.number().int().nullable(),
  /** quantity × per share, before tax */
  expected_gross: ZSenAmount,
});
export type TUpcomingDividend = z.infer<typeof ZUpcomingDividend>;

export const DIVIDEND_KINDS = ['dividend', 'adjustment_receive', 'adjustment_pay'] as const;
export const ZReceivedDividend = z.object({
  id: z.number().int(),
  announcement_id: z.number().int(),
  code: z.string(),
  name: z.string(),
  kind: z.enum(DIVIDEND_KINDS),
  tax_account: z.enum(['specific', 'general', 'nisa']),
  quantity: z.number().int(),
  per_share: ZSenAmount,
  gross: ZSenAmount,
  tax_national: ZSenAmount,
  tax_local: ZSenAmount,
  /** credited (positive) or charged (negative, a short's adjustment) */
  net: ZSenAmount,
  payment_date: z.string(),
  paid_at: z.string(),
});
export type TReceivedDividend = z.infer<typeof ZReceivedDividend>;
export const ZDividendsView = z.object({
  upcoming: z.array(ZUpcomingDividend),
  history: z.array(ZReceivedDividend),
});
export type TDividendsView = z.infer<typeof ZDividendsView>;
