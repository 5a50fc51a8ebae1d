import { z } from 'zod';
import { ZSenAmount } from './account.js';
import { ZTaxAccount } from './trading.js';

/**
 * IPOs (book-building, draw, purchase, listing) and off-auction distributions (立会外分売), with draws anyone
 * can verify (issue 16, ADR 0026, docs/DRAW.md). Prices and amounts are sen on the wire (ADR 0002).
 */

export const OFFERING_KINDS = ['ipo', 'distribution'] as const;
export type TOfferingKind = (typeof OFFERING_KINDS)[number];

/**
 * Where an offering stands, from the clock and its records: upcoming (window not open), open (applications
 * taken), closed (window closed, draw pending), drawn (results out, purchase window for an IPO), listed
 * (an IPO's shares delivered; a distribution's on its delivery), cancelled.
 */
export const OFFERING_PHASES = ['upcoming', 'open', 'closed', 'drawn', 'listed', 'cancelled'] as const;
export type TOfferingPhase = (typeof OFFERING_PHASES)[number];

/**
 * An application's state, as the specification names them: waiting for the draw (applied), won, not won
 * (lost), approved (purchase confirmed), declined, lapsed (not confirmed by the deadline), withdrawn, and
 * for a distribution success (filled) or failed with its reason.
 */
export const APPLICATION_STATES = [
  'applied',
  'withdrawn',
  'won',
  'lost',
  'approved',
  'declined',
  'lapsed',
  'cancelled',
] as const;
export type TApplicationState = (typeof APPLICATION_STATES)[number];

/** Why an application ended without shares. */
export const APPLICATION_REASONS = ['not_drawn', 'cancelled', 'bid_below_offer', 'withdrawn'] as const;

export const ZDrawPolicy = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('equal') }),
  z.object({ kind: z.literal('weighted'), points_bps: z.number().int().min(0).max(10_000) }),
]);
export type TDrawPolicy = z.infer<typeof ZDrawPolicy>;

export const ZOffering = z.object({
  id: z.number().int(),
  kind: z.enum(OFFERING_KINDS),
  code: z.string(),
  name: z.string(),
  issuer: z.string(),
  market: z.string(),
  phase: z.enum(OFFERING_PHASES),
  /** 仮条件: the tentative range (IPO); null for a distribution */
  price_low: ZSenAmount.nullable(),
  price_high: ZSenAmount.nullable(),
  /** 公開価格 / 分売価格: null until fixed */
  offer_price: ZSenAmount.nullable(),
  /** a distribution's price formula: the previous close and the discount (basis points) */
  base_close: ZSenAmount.nullable(),
  discount_bps: z.number().int().nullable(),
  unit_shares: z.number().int(),
  offering_units: z.number().int(),
  cap_units: z.number().int(),
  window_open: z.string(),
  window_close: z.string(),
  draw_at: z.string(),
  purchase_deadline: z.string().nullable(),
  listing_at: z.string(),
  policy: ZDrawPolicy,
  prospectus_url: z.string().nullable(),
  /** the commitment published when the window opened: SHA-256 of the seed */
  seed_hash: z.string(),
  /** published at the close: SHA-256 of the canonical application list */
  list_hash: z.string().nullable(),
  /** revealed at the draw */
  seed: z.string().nullable(),
  applications: z.number().int(),
  applied_units: z.number().int(),
});
export type TOffering = z.infer<typeof ZOffering>;

export const ZApplication = z.object({
  id: z.number().int(),
  offering_id: z.number().int(),
  code: z.string(),
  name: z.string(),
  kind: z.enum(OFFERING_KINDS),
  state: z.enum(APPLICATION_STATES),
  reason: z.enum(APPLICATION_REASONS).nullable(),
  /** this applicant's pseudonym in the published list */
  pseudonym: z.string(),
  units: z.number().int(),
  /** the bid price, null for "at the offer price" (成行) */
  bid_price: ZSenAmount.nullable(),
  won_units: z.number().int(),
  /** what the purchase costs: won units at the offer price */
  amount_due: ZSenAmount,
  amount_paid: ZSenAmount,
  /** cash held for the application now */
  reserved: ZSenAmount,
  /**
   * the tax account the shares go (or went) into; NISA becomes 特定 (or 一般) at delivery when the growth quota
   * no longer fits (ADR 0035). Null for an application made before the choice existed.
   */
  account: ZTaxAccount.nullable(),
  created_at: z.string(),
});
export type TApplication = z.infer<typeof ZApplication>;

export const ZOfferingDetail = ZOffering.extend({ mine: ZApplication.nullable() });
export type TOfferingDetail = z.infer<typeof ZOfferingDetail>;

export const ZOfferingList = z.object({ items: z.array(ZOffering) });
export const ZApplicationList = z.object({ items: z.array(ZApplication), points: z.number().int() });

export const ZOfferingsQuery = z.object({ kind: z.enum(OFFERING_KINDS).optional() });

// POST /api/ipo/offerings/:id/applications (Idempotency-Key)
export const ZApplicationCreate = z.strictObject({
  units: z.number().int().min(1).max(10_000),
  /** omitted or null: at the offer price (成行); an IPO bid inside the range otherwise */
  bid_price: ZSenAmount.nullable().optional(),
  /** the tax account the shares go into (omitted: the customer's default); NISA is checked against the quota */
  account: ZTaxAccount.optional(),
});
export type TApplicationCreate = z.infer<typeof ZApplicationCreate>;

/** The published draw record: what verify-draw recomputes. Applications are pseudonymous. */
export const ZDrawRecord = z.object({
  offering_id: z.number().int(),
  seed_hash: z.string(),
  seed: z.string().nullable(),
  list_hash: z.string().nullable(),
  offering_units: z.number().int(),
  policy: ZDrawPolicy,
  applications: z.array(
    z.object({
      id: z.number().int(),
      pseudonym: z.string(),
      units: z.number().int(),
      points: z.number().int(),
    }),
  ),
  allocations: z.array(z.object({ id: z.number().int(), units: z.number().int() })),
  order: z.array(z.number().int()),
  /** the server's own recomputation: [] when the record matches in every field */
  problems: z.array(z.string()),
});
export type TDrawRecord = z.infer<typeof ZDrawRecord>;

// Console: POST /api/console/ipo/offerings
export const ZOfferingPublish = z
  .object({
    kind: z.enum(OFFERING_KINDS),
    code: z.string().regex(/^[0-9][0-9A-Z]{3}$/, { error: 'validation.stockCodeFormat' }),
    name: z.string().min(1).max(60),
    issuer: z.string().min(1).max(100),
    market: z.string().min(1).max(40),
    price_low: ZSenAmount.nullable().optional(),
    price_high: ZSenAmount.nullable().optional(),
    discount_bps: z.number().int().min(0).max(1_000).nullable().optional(),
    unit_shares: z.number().int().min(1).max(10_000).default(100),
    offering_units: z.number().int().min(1).max(10_000_000),
    cap_units: z.number().int().min(1).max(10_000),
    window_open: z.iso.datetime(),
    window_close: z.iso.datetime(),
    draw_at: z.iso.datetime(),
    purchase_deadline: z.iso.datetime().nullable().optional(),
    listing_at: z.iso.datetime(),
    policy: ZDrawPolicy.default({ kind: 'equal' }),
    prospectus_url: z.url().max(300).nullable().optional(),
  })
  .strict();
export type TOfferingPublish = z.infer<typeof ZOfferingPublish>;

// Console: POST /api/console/ipo/offerings/:id/offer-price
export const ZOfferPriceFix = z.object({ offer_price: ZSenAmount }).strict();
export const ZOfferingCancel = z.object({ reason: z.string().min(1).max(200) }).strict();
