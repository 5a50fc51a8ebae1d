import { z } from 'zod';
import { ZSenAmount } from './account.js';
import { LOAN_MAX_YEN } from '../loan-terms.js';

/**
 * Credit loans (issue 18, ADR 0028): the application, the calculator, the records, repayment, and the
 * console's review and products. Money on the wire is sen; a loan is a whole number of yen.
 */

// ---------------------------------------------------------------- the policy (operator setting `loans`)

export const ZLoanSettings = z.object({
  /** the smallest loan (the specification's {m}) */
  min_yen: z.number().int().min(1).max(LOAN_MAX_YEN),
  /** a first applicant's credit limit, until a reviewer sets one */
  default_limit_yen: z.number().int().min(0).max(LOAN_MAX_YEN),
  /** approvals above this need a second, different operator (four-eyes) */
  second_approval_over_yen: z.number().int().min(0).max(LOAN_MAX_YEN),
  /** no interest this many days after registration... */
  free_days: z.number().int().min(0).max(366),
  /** ...for this many loans */
  free_loans: z.number().int().min(0).max(100),
  /** late charges from this many days after the due date */
  late_grace_days: z.number().int().min(0).max(90),
  /** overdue this many days: the claim goes to collection */
  collection_days: z.number().int().min(1).max(365),
  /** the reminder message this many days before the due date */
  reminder_days: z.number().int().min(0).max(30),
});
export type TLoanSettings = z.infer<typeof ZLoanSettings>;

/** Defaults and why: ADR 0028. */
export const DEFAULT_LOAN_SETTINGS: TLoanSettings = {
  min_yen: 10_000,
  default_limit_yen: 500_000,
  second_approval_over_yen: 1_000_000,
  free_days: 180,
  free_loans: 5,
  late_grace_days: 7,
  collection_days: 30,
  reminder_days: 3,
};

// ---------------------------------------------------------------- states and reasons

/**
 * The specification's states: application pending (pending), loan in progress (disbursing: approved once,
 * waiting for the second approver), application rejected, repayment in progress (repaying: disbursed,
 * owed), overdue, collection (30 days overdue), repayment completed (repaid).
 */
export const LOAN_STATUSES = [
  'pending',
  'disbursing',
  'rejected',
  'repaying',
  'overdue',
  'collection',
  'repaid',
] as const;
export const ZLoanStatus = z.enum(LOAN_STATUSES);
export type LoanStatus = (typeof LOAN_STATUSES)[number];

/** A rejection's reason, from a list (`loans.rejectReasons.<code>` in the catalogues) plus free text. */
export const LOAN_REJECT_REASONS = [
  'income',
  'total_volume',
  'identity_mismatch',
  'credit_history',
  'incomplete',
  'other',
] as const;
export const ZLoanRejectReason = z.enum(LOAN_REJECT_REASONS, { error: 'loans.validation.reasonCode' });

// ---------------------------------------------------------------- products (console)

const ZBasisPoints = z
  .number({ error: 'loans.validation.rate' })
  .int({ error: 'loans.validation.rate' })
  .min(0, { error: 'loans.validation.rate' })
  .max(10_000, { error: 'loans.validation.rate' });

export const ZLoanProduct = z.object({
  id: z.number().int(),
  name: z.string(),
  /** annual rate, basis points (1800 = 18.00%) */
  rate_bp: z.number().int(),
  late_rate_bp: z.number().int(),
  term_days: z.number().int(),
  min_yen: z.number().int(),
  max_yen: z.number().int(),
  active: z.boolean(),
  created_at: z.string(),
});
export type TLoanProduct = z.infer<typeof ZLoanProduct>;

// POST /api/console/loans/products (administrator): refused above the legal cap by the server
export const ZLoanProductCreate = z
  .object({
    name: z.string().trim().min(1).max(60),
    rate_bp: ZBasisPoints,
    late_rate_bp: ZBasisPoints,
    term_days: z.number().int().min(1).max(365),
    min_yen: z.number().int().min(1).max(LOAN_MAX_YEN),
    max_yen: z.number().int().min(1).max(LOAN_MAX_YEN),
  })
  .refine((p) => p.min_yen <= p.max_yen, { error: 'loans.validation.productRange', path: ['max_yen'] });
export type TLoanProductCreate = z.infer<typeof ZLoanProductCreate>;
export const ZLoanProductPage = z.object({ items: z.array(ZLoanProduct) });

// ---------------------------------------------------------------- applying

const ZRequiredText = (key: string, max: number) =>
  z
    .string({ error: `loans.validation.${key}` })
    .trim()
    .min(1, { error: `loans.validation.${key}` })
    .max(max, { error: 'loans.validation.tooLong' });

/** A loan amount in sen: required, whole yen, positive, at most 100,000,000 yen. */
export const ZLoanAmount = z
  .number({ error: 'loans.validation.amountRequired' })
  .int({ error: 'loans.validation.amountWholeYen' })
  .positive({ error: 'loans.validation.amountPositive' })
  .max(LOAN_MAX_YEN * 100, { error: 'loans.validation.amountMax' })
  .refine((v) => v % 100 === 0, { error: 'loans.validation.amountWholeYen' });

const ZYenFigure = (key: string) =>
  z
    .number({ error: `loans.validation.${key}` })
    .int({ error: `loans.validation.${key}` })
    .min(0, { error: `loans.validation.${key}` })
    .max(10_000_000_000, { error: `loans.validation.${key}` });

// POST /api/loans (Idempotency-Key)
export const ZLoanApply = z.strictObject({
  amount: ZLoanAmount,
  full_name: ZRequiredText('nameRequired', 60),
  id_number: ZRequiredText('idNumberRequired', 20),
  address: ZRequiredText('addressRequired', 140),
  phone: z
    .string({ error: 'loans.validation.phoneRequired' })
    .trim()
    .regex(/^\+?[0-9-]{10,15}$/, { error: 'loans.validation.phoneRequired' }),
  email: z
    .string({ error: 'loans.validation.emailRequired' })
    .trim()
    .pipe(z.email({ error: 'loans.validation.emailRequired' })),
  /** declared annual income, yen (総量規制) */
  annual_income_yen: ZYenFigure('incomeRequired').refine((v) => v > 0, {
    error: 'loans.validation.incomeRequired',
  }),
  /** declared borrowing from other money lenders, yen */
  other_borrowing_yen: ZYenFigure('otherBorrowing'),
  agree: z.literal(true, { error: 'loans.validation.agreementRequired' }),
});
export type TLoanApply = z.infer<typeof ZLoanApply>;
export type TLoanApplyInput = z.input<typeof ZLoanApply>;

// ---------------------------------------------------------------- what the user sees

export const ZLoanTermsView = z.object({
  product_id: z.number().int(),
  name: z.string(),
  rate_bp: z.number().int(),
  late_rate_bp: z.number().int(),
  term_days: z.number().int(),
  min: ZSenAmount,
  max: ZSenAmount,
});

// GET /api/loans/overview
export const ZLoanOverview = z.object({
  /** the credit limit, what is left of it, and what applications pending hold of it */
  limit: ZSenAmount,
  available: ZSenAmount,
  under_application: ZSenAmount,
  /** principal, interest and late charges owed now across loans */
  total_to_repay: ZSenAmount,
  /** the product an application would take (null: none published, no loan can be taken) */
  product: ZLoanTermsView.nullable(),
  policy: z.object({
    min: ZSenAmount,
    max: ZSenAmount,
    free_days: z.number().int(),
    free_loans: z.number().int(),
    late_grace_days: z.number().int(),
    collection_days: z.number().int(),
    late_cap_bp: z.number().int(),
  }),
  /** the free period: its last day (null: over or used up) and how many free loans are left */
  free_until: z.string().nullable(),
  free_loans_left: z.number().int(),
  /** why an application would be refused now (null: it may apply) */
  blocked: z.enum(['identity', 'suitability', 'overdue', 'pending', 'no_product']).nullable(),
});
export type TLoanOverview = z.infer<typeof ZLoanOverview>;

// GET /api/loans/quote?amount=: the calculator
export const ZLoanQuoteQuery = z.object({ amount: z.coerce.number().pipe(ZLoanAmount) });
export const ZLoanQuote = z.object({
  principal: ZSenAmount,
  rate_bp: z.number().int(),
  /** the legal cap for this principal (basis points) */
  cap_bp: z.number().int(),
  interest_per_day: ZSenAmount,
  due_on: z.string(),
  free_until: z.string().nullable(),
  interest_to_due: ZSenAmount,
  total_at_due: ZSenAmount,
  late_rate_bp: z.number().int(),
  late_from: z.string(),
  collection_days: z.number().int(),
});
export type TLoanQuote = z.infer<typeof ZLoanQuote>;

export const ZLoan = z.object({
  id: z.number().int(),
  status: ZLoanStatus,
  /** the amount applied for */
  amount: ZSenAmount,
  /** the amount approved and paid to cash (null before) */
  disbursed_amount: ZSenAmount.nullable(),
  rate_bp: z.number().int().nullable(),
  late_rate_bp: z.number().int().nullable(),
  free_until: z.string().nullable(),
  /** owed now: principal, interest and late charges accrued through today (0 once repaid) */
  amount_to_repay: ZSenAmount,
  interest: ZSenAmount,
  late_charges: ZSenAmount,
  applied_at: z.string(),
  /** the loan time: when it was disbursed */
  loan_time: z.string().nullable(),
  due_date: z.string().nullable(),
  repayment_time: z.string().nullable(),
  repaid_amount: ZSenAmount.nullable(),
  reject_reason_code: ZLoanRejectReason.nullable(),
  reject_reason: z.string().nullable(),
});
export type TLoan = z.infer<typeof ZLoan>;

// GET /api/loans
export const ZLoanPage = z.object({
  total_to_repay: ZSenAmount,
  items: z.array(ZLoan),
});
export type TLoanPage = z.infer<typeof ZLoanPage>;

// POST /api/loans/:id/repay (Idempotency-Key): the whole amount owed, as the confirm prompt showed it
export const ZLoanRepay = z.strictObject({ amount: ZLoanAmount });
export type TLoanRepay = z.infer<typeof ZLoanRepay>;

// ---------------------------------------------------------------- the console's review

export const ZLoanReview = ZLoan.extend({
  user_id: z.number().int(),
  phone: z.string(),
  full_name: z.string(),
  verified_name: z.string().nullable(),
  id_number: z.string(),
  address: z.string(),
  contact_phone: z.string(),
  email: z.string(),
  annual_income: ZSenAmount,
  other_borrowing: ZSenAmount,
  /** what the user owes us in principal on other loans, and the room the total-volume rule leaves */
  outstanding_elsewhere_here: ZSenAmount,
  total_volume_room: ZSenAmount,
  limit: ZSenAmount,
  product_name: z.string().nullable(),
  needs_second_approval: z.boolean(),
  first_approved_by: z.number().int().nullable(),
});
export type TLoanReview = z.infer<typeof ZLoanReview>;
export const ZLoanReviewPage = z.object({ total: z.number().int(), items: z.array(ZLoanReview) });
export const ZLoanQueueQuery = z.object({
  status: ZLoanStatus.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});

// POST /api/console/loans/:id/approve: the amount lent and the user's credit limit, within policy
export const ZLoanApprove = z.strictObject({
  amount: ZLoanAmount,
  limit_yen: z
    .number({ error: 'loans.validation.limit' })
    .int({ error: 'loans.validation.limit' })
    .min(1, { error: 'loans.validation.limit' })
    .max(LOAN_MAX_YEN, { error: 'loans.validation.limit' }),
});
export type TLoanApprove = z.infer<typeof ZLoanApprove>;
// POST /api/console/loans/:id/reject
export const ZLoanReject = z.object({
  reason_code: ZLoanRejectReason,
  reason: z
    .string({ error: 'validation.reasonRequired' })
    .trim()
    .min(1, { error: 'validation.reasonRequired' })
    .max(500, { error: 'validation.reasonLength' }),
});
export type TLoanReject = z.infer<typeof ZLoanReject>;
export const ZLoanOutcome = z.object({
  id: z.number().int(),
  status: z.enum(['disbursing', 'repaying', 'rejected']),
});
