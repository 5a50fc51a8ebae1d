import { z } from 'zod';
import { ZSenAmount } from './account.js';
import { ZTaxSettings } from './tax.js';
import { ZApplicationView, ZOpeningSettings } from './opening.js';
import { ZLoanSettings } from './loans.js';
import {
  ZBankAccount,
  ZBankAccountLogEntry,
  ZDeposit,
  ZIdentityStatus,
  ZMessage,
  ZReviewStatus,
  ZServiceChannel,
  ZWithdrawal,
} from './funds.js';

/**
 * The operator console's API (`/api/console/*`): its own accounts and sessions (header
 * `Authorization: Bearer <token>`), roles reviewer and administrator. Nothing here sets a balance, a price, a
 * fill or a profit: operators review what users filed and publish settings; money moves only by the ledger
 * entries that an approval implies. Every action is written to the audit log.
 */

/** `editor` writes and publishes news articles (ADR 0029); administrators may do everything. */
export const OPERATOR_ROLES = ['reviewer', 'editor', 'administrator'] as const;
export const ZOperatorRole = z.enum(OPERATOR_ROLES);
export type TOperatorRole = z.infer<typeof ZOperatorRole>;
export const OPERATOR_PASSWORD_MIN_LENGTH = 12;

export const ZOperatorLogin = z.object({
  username: z.string().trim().min(1, { error: 'validation.accountRequired' }).max(40),
  password: z.string().min(1, { error: 'validation.passwordRequired' }).max(200),
});
export const ZOperator = z.object({
  id: z.number().int(),
  username: z.string(),
  display_name: z.string(),
  role: ZOperatorRole,
  must_change_password: z.boolean(),
  active: z.boolean(),
  locked_until: z.string().nullable(),
  created_at: z.string(),
});
export type TOperator = z.infer<typeof ZOperator>;
/** GET /api/console/me: the operator, and whether an administrator is held until a passkey is added */
export const ZOperatorMe = ZOperator.extend({ passkey_required: z.boolean().default(false) });
export type TOperatorMe = z.infer<typeof ZOperatorMe>;
export const ZOperatorLoginResponse = z.object({
  token: z.string(),
  expires_at: z.string(),
  operator: ZOperator,
  /** an administrator without a passkey: only the passkey registration is open until one is added (ADR 0033) */
  passkey_required: z.boolean(),
});
export const ZOperatorPasswordChange = z.object({
  old_password: z.string().min(1, { error: 'validation.oldPasswordRequired' }).max(200),
  new_password: z
    .string()
    .min(OPERATOR_PASSWORD_MIN_LENGTH, { error: 'validation.operatorPasswordLength' })
    .max(200, { error: 'validation.operatorPasswordLength' }),
});
// POST /api/console/operators (administrator): answers the new operator and a one-time password
export const ZOperatorCreate = z.object({
  username: z
    .string()
    .trim()
    .regex(/^[a-z0-9._-]{3,40}$/, { error: 'validation.operatorUsername' }),
  display_name: z.string().trim().min(1).max(60),
  role: ZOperatorRole,
});
export const ZOperatorCreated = z.object({ operator: ZOperator, one_time_password: z.string() });
// GET /api/console/operators (administrator): every operator, active or not
export const ZOperatorList = z.object({ items: z.array(ZOperator) });

// ---------------------------------------------------------------- review queues

export const ZQueueQuery = z.object({
  status: ZReviewStatus.optional(),
  user_id: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});
/** A rejection needs a reason; the user sees it as written. */
export const ZReject = z.object({
  reason: z
    .string({ error: 'validation.reasonRequired' })
    .trim()
    .min(1, { error: 'validation.reasonRequired' })
    .max(500, { error: 'validation.reasonLength' }),
});

const ZUserRef = z.object({ user_id: z.number().int(), phone: z.string() });

export const ZIdentityReview = ZUserRef.extend({
  id: z.number().int(),
  full_name: z.string(),
  id_number: z.string(),
  front_upload_id: z.string(),
  back_upload_id: z.string(),
  status: z.enum(['pending', 'passed', 'rejected']),
  reason: z.string().nullable(),
  reviewed_by: z.string().nullable(),
  reviewed_at: z.string().nullable(),
  created_at: z.string(),
  /** the account application's answers (issue 23); My Number masked, revealed only with a reason */
  application: ZApplicationView.nullable(),
});
export type TIdentityReview = z.infer<typeof ZIdentityReview>;
export const ZIdentityReviewPage = z.object({ total: z.number().int(), items: z.array(ZIdentityReview) });

export const ZBankAccountReview = ZBankAccount.extend({
  user_id: z.number().int(),
  phone: z.string(),
  /** the user's verified full name, to compare with the holder */
  verified_name: z.string().nullable(),
  reviewed_by: z.string().nullable(),
});
export type TBankAccountReview = z.infer<typeof ZBankAccountReview>;
export const ZBankAccountReviewPage = z.object({
  total: z.number().int(),
  items: z.array(ZBankAccountReview),
});

export const ZDepositReview = ZDeposit.extend({
  user_id: z.number().int(),
  phone: z.string(),
  /** the per-user virtual account number the transfer should have arrived on */
  virtual_account_number: z.string(),
  /** the bank transfer it was matched with; null: the customer's word alone (two approvals, ADR 0023) */
  transfer_id: z.number().int().nullable(),
  first_approved_by: z.string().nullable(),
  first_approved_at: z.string().nullable(),
  reviewed_by: z.string().nullable(),
});
export type TDepositReview = z.infer<typeof ZDepositReview>;
export const ZDepositReviewPage = z.object({ total: z.number().int(), items: z.array(ZDepositReview) });

export const ZWithdrawalReview = ZWithdrawal.extend({
  user_id: z.number().int(),
  phone: z.string(),
  holder_name: z.string(),
  bank_account_status: z.enum(['pending', 'approved', 'rejected', 'replaced']),
  needs_second_approval: z.boolean(),
  first_approved_by: z.string().nullable(),
  first_approved_at: z.string().nullable(),
  reviewed_by: z.string().nullable(),
});
export type TWithdrawalReview = z.infer<typeof ZWithdrawalReview>;
export const ZWithdrawalReviewPage = z.object({
  total: z.number().int(),
  items: z.array(ZWithdrawalReview),
});

/** What an approve or reject call did. `awaiting_second_approval`: the first of two approvals was recorded. */
export const ZReviewOutcome = z.object({
  id: z.number().int(),
  status: z.enum(['pending', 'approved', 'rejected', 'passed', 'awaiting_second_approval']),
});

// ---------------------------------------------------------------- users (read only)

export const ZUserSearch = z.object({
  q: z.string().trim().max(40).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});
export const ZConsoleUserRow = z.object({
  user_id: z.number().int(),
  phone: z.string(),
  real_name_status: ZIdentityStatus,
  full_name: z.string().nullable(),
  created_at: z.string(),
});
export type TConsoleUserRow = z.infer<typeof ZConsoleUserRow>;
export const ZConsoleUserPage = z.object({ total: z.number().int(), items: z.array(ZConsoleUserRow) });
export const ZConsoleUser = ZConsoleUserRow.extend({
  invitation_code: z.string(),
  invited_by_code: z.string(),
  locked_until: z.string().nullable(),
  balances: z.object({
    cash: ZSenAmount,
    reserved: ZSenAmount,
    margin: ZSenAmount,
    withdrawing: ZSenAmount,
  }),
  identity: ZIdentityReview.nullable(),
  bank_accounts: z.array(ZBankAccount),
  bank_account_log: z.array(ZBankAccountLogEntry),
  deposits: z.array(ZDeposit),
  withdrawals: z.array(ZWithdrawal),
  messages: z.array(ZMessage),
});
export type TConsoleUser = z.infer<typeof ZConsoleUser>;

// ---------------------------------------------------------------- settings (administrator)

export const ZWithdrawalWindow = z
  .object({
    start: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'validation.timeFormat' }),
    end: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'validation.timeFormat' }),
  })
  .refine((w) => w.start < w.end, { error: 'validation.windowOrder', path: ['end'] });

/**
 * 金融商品取引業者としての登録: the firm's name, its registration (e.g. 関東財務局長（金商）第○○号) and the
 * associations it belongs to, published by an administrator and shown on the app's about section. The demo
 * is no registered firm: its registration is null, and the app says so.
 */
export const ZFirmSettings = z.object({
  name: z.string().trim().min(1).max(100),
  registration: z.string().trim().min(1).max(100).nullable(),
  associations: z.array(z.string().trim().min(1).max(100)).max(10),
});
export type TFirmSettings = z.infer<typeof ZFirmSettings>;

// GET /api/about (public): the app's version and the firm behind it
export const ZAbout = z.object({
  version: z.string(),
  version_code: z.number().int(),
  firm: ZFirmSettings,
});
export type TAbout = z.infer<typeof ZAbout>;

export const ZSettings = z.object({
  withdrawal: z.object({
    min_yen: z.number().int().min(1).max(100_000_000),
    windows: z.array(ZWithdrawalWindow).min(1).max(6),
    /** withdrawals above this many yen need a second, different operator's approval */
    second_approval_over_yen: z.number().int().min(0).max(10_000_000_000),
  }),
  deposit: z.object({
    /** the URL getCzhiurl answers (opened in the webview page); null when none */
    url: z
      .string()
      .max(500)
      .regex(/^https:\/\//, { error: 'validation.httpsUrl' })
      .nullable(),
    /**
     * 金融機関コード (Zengin): when set, the bank and branch names shown to customers come from the Zengin
     * data in the reader's language, and bank_name / branch_name are only the fallback (ADR 0023)
     */
    bank_code: z
      .string()
      .regex(/^\d{4}$/, { error: 'validation.bankCode' })
      .nullable()
      .default(null),
    bank_name: z.string().trim().min(1).max(60),
    branch_name: z.string().trim().min(1).max(60),
    branch_number: z.string().regex(/^\d{3}$/, { error: 'validation.branchNumberFormat' }),
    account_type: z.enum(['ordinary', 'current']),
    holder: z.string().trim().min(1).max(60),
    /** the holder's name as transfer screens show it (カ）カブトシヨウケン), katakana */
    holder_kana: z.string().trim().max(60).nullable().default(null),
    /** the first digits of every user's 7-digit virtual account number; the rest is the user id */
    number_prefix: z.string().regex(/^\d{1,2}$/),
  }),
  customer_service: z.array(ZServiceChannel).max(10),
  /** tax rates, NISA limits and the 制度信用 repayment period (ADR 0021) */
  tax: ZTaxSettings,
  /** account opening's minimum age and the suitability rules (ADR 0022) */
  opening: ZOpeningSettings,
  /** credit loans' policy (issue 18, ADR 0028) */
  loans: ZLoanSettings,
  /** the firm's registration as the about section shows it (issue 19) */
  firm: ZFirmSettings,
});
export type TSettings = z.infer<typeof ZSettings>;
export const SETTING_KEYS = [
  'withdrawal',
  'deposit',
  'customer_service',
  'tax',
  'opening',
  'loans',
  'firm',
] as const;
export type SettingKey = (typeof SETTING_KEYS)[number];

/**
 * The settings that could defeat four-eyes (ADR 0034): the second-approval threshold of withdrawals and the
 * firm's deposit bank account. Saving a change to them proposes it; a different administrator confirms it.
 */
export const FOUR_EYES_KEYS = ['withdrawal', 'deposit'] as const;
export type FourEyesKey = (typeof FOUR_EYES_KEYS)[number];
/** The deposit settings that say where customers send money (the deposit page's URL is not one of them). */
export const ZFirmDepositAccount = ZSettings.shape.deposit.omit({ url: true });
export type TFirmDepositAccount = z.infer<typeof ZFirmDepositAccount>;
export const ZWithdrawalThreshold = ZSettings.shape.withdrawal.pick({ second_approval_over_yen: true });

const proposalCommon = {
  /** the id of the audit entry that recorded the proposal */
  id: z.number().int(),
  proposed_by: z.object({ id: z.number().int(), display_name: z.string() }),
  proposed_at: z.string(),
  /** proposed_at plus PROPOSAL_EXPIRY_HOURS (ADR 0049): from then on it can only be withdrawn */
  expires_at: z.string(),
  expired: z.boolean(),
};
/** A change of a four-eyes setting waiting for a second administrator: what takes effect at confirmation. */
export const ZSettingProposal = z.discriminatedUnion('key', [
  z.object({ ...proposalCommon, key: z.literal('withdrawal'), proposed: ZWithdrawalThreshold }),
  z.object({ ...proposalCommon, key: z.literal('deposit'), proposed: ZFirmDepositAccount }),
]);
export type TSettingProposal = z.infer<typeof ZSettingProposal>;
export const ZSettingProposalList = z.object({ items: z.array(ZSettingProposal) });
export type TSettingProposalList = z.infer<typeof ZSettingProposalList>;

export const ZInvitationCode = z.object({
  code: z.string(),
  kind: z.enum(['user', 'campaign']),
  owner_user_id: z.number().int().nullable(),
  active: z.boolean(),
  note: z.string().nullable(),
  created_at: z.string(),
});
export type TInvitationCode = z.infer<typeof ZInvitationCode>;
// GET /api/console/invitation-codes?limit&offset: newest first
export const ZInvitationCodeQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});
export const ZInvitationCodePage = z.object({ total: z.number().int(), items: z.array(ZInvitationCode) });
export const ZInvitationCodeCreate = z.object({
  code: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9]{4,32}$/, { error: 'validation.inviteFormat' })
    .transform((s) => s.toUpperCase()),
  note: z.string().trim().max(200).optional(),
});

// ---------------------------------------------------------------- audit log

export const ZAuditQuery = z.object({
  operator_id: z.coerce.number().int().positive().optional(),
  action: z.string().max(60).optional(),
  target_type: z.string().max(40).optional(),
  target_id: z.string().max(80).optional(),
  user_id: z.coerce.number().int().positive().optional(),
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});
export const ZAuditEntry = z.object({
  id: z.number().int(),
  operator_id: z.number().int().nullable(),
  operator: z.string().nullable(),
  action: z.string(),
  target_type: z.string(),
  target_id: z.string().nullable(),
  user_id: z.number().int().nullable(),
  reason: z.string().nullable(),
  before: z.unknown().nullable(),
  after: z.unknown().nullable(),
  at: z.string(),
});
export type TAuditEntry = z.infer<typeof ZAuditEntry>;
export const ZAuditPage = z.object({ total: z.number().int(), items: z.array(ZAuditEntry) });
