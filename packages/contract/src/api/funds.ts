import { z } from 'zod';
import { ZLoginPassword, ZStepUpToken, ZTxnPassword } from './auth.js';
import { DEPOSIT_MIN_YEN } from '../constants.js';
import { ZSenAmount } from './account.js';
import { YUCHO_BANK_CODE, ZAccountType, ZYuchoNumber } from './banking.js';

/**
 * Identity, bank accounts, deposits, withdrawals, messages and customer service: the user's side.
 * Amounts are sen on the wire (ADR 0002); amounts users type are whole yen, so they must be multiples of 100.
 * Messages are catalogue keys (`validation.*`), translated by the server and the web app alike.
 */

export const UPLOAD_MAX_BYTES = 10 * 1024 * 1024;
export const UPLOAD_CONTENT_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/heic'] as const;
export const UPLOAD_PURPOSES = [
  'identity_front',
  'identity_back',
  'bank_account',
  'deposit_proof',
  /** an image attached to a support conversation (ADR 0029) */
  'support',
] as const;
export const ZUploadPurpose = z.enum(UPLOAD_PURPOSES, { error: 'validation.uploadPurpose' });
export type TUploadPurpose = z.infer<typeof ZUploadPurpose>;

/** An upload id: 64 hex characters (256 random bits). */
export const ZUploadId = z.string().regex(/^[0-9a-f]{64}$/, { error: 'validation.uploadId' });

// POST /api/uploads (multipart: field `purpose`, then field `file`)
export const ZUpload = z.object({
  id: ZUploadId,
  purpose: ZUploadPurpose,
  content_type: z.enum(UPLOAD_CONTENT_TYPES),
  size: z.number().int(),
  created_at: z.string(),
});
export type TUpload = z.infer<typeof ZUpload>;

// ---------------------------------------------------------------- identity (real-name verification)

export const ZFullName = z
  .string({ error: 'validation.fullNameRequired' })
  .trim()
  .min(1, { error: 'validation.fullNameRequired', abort: true })
  .max(60, { error: 'validation.fullNameLength' });

/** An identity document number (My Number card, driving licence, passport...): letters, digits and hyphens. */
export const ZIdNumber = z
  .string({ error: 'validation.idNumberRequired' })
  .trim()
  .min(1, { error: 'validation.idNumberRequired', abort: true })
  .max(20, { error: 'validation.idNumberFormat' })
  .regex(/^[A-Za-z0-9-]{4,20}$/, { error: 'validation.idNumberFormat' });

// POST /api/identity: the account application, ZAccountApplication in opening.ts (issue 23)

export const ZIdentityStatus = z.enum(['unverified', 'pending', 'passed', 'rejected']);
// GET /api/identity
export const ZIdentity = z.object({
  status: ZIdentityStatus,
  full_name: z.string().nullable(),
  /** all but the last 4 characters masked */
  id_number_masked: z.string().nullable(),
  /** the reviewer's reason, as written, when rejected */
  reason: z.string().nullable(),
  submitted_at: z.string().nullable(),
  reviewed_at: z.string().nullable(),
  can_submit: z.boolean(),
});
export type TIdentity = z.infer<typeof ZIdentity>;

// ---------------------------------------------------------------- bank accounts

/**
 * A bank account's fields: the bank and branch by their Zengin codes (the server takes the names from the
 * Zengin data), 預金種目, the 7-digit account number, and the holder's name in katakana as the bank writes
 * it. For ゆうちょ銀行 (9900) the passbook's 記号・番号 may be given instead of branch and number: the server
 * converts them (ADR 0023).
 */
export const ZBankAccountFields = z.object({
  holder_name: z
    .string({ error: 'validation.holderNameRequired' })
    .trim()
    .min(1, { error: 'validation.holderNameRequired', abort: true })
    .max(60, { error: 'validation.holderNameLength' }),
  bank_code: z
    .string({ error: 'validation.bankCodeRequired' })
    .trim()
    .min(1, { error: 'validation.bankCodeRequired', abort: true })
    .regex(/^\d{4}$/, { error: 'validation.bankCode' }),
  branch_code: z
    .string({ error: 'validation.branchNumberRequired' })
    .trim()
    .regex(/^\d{3}$/, { error: 'validation.branchNumberFormat' })
    .optional(),
  account_type: ZAccountType.default('ordinary'),
  account_number: z
    .string({ error: 'validation.accountNumberRequired' })
    .trim()
    .regex(/^\d{7}$/, { error: 'validation.accountNumberFormat' })
    .optional(),
  yucho: ZYuchoNumber.optional(),
  image_upload_id: ZUploadId.optional(),
});

/** Branch and number, or (ゆうちょ銀行 only) 記号・番号. */
export function refineBankAccount(
  v: {
    bank_code: string;
    branch_code?: string | undefined;
    account_number?: string | undefined;
    yucho?: unknown;
  },
  ctx: z.RefinementCtx,
): void {
  if (v.yucho !== undefined) {
    if (v.bank_code !== YUCHO_BANK_CODE) {
      ctx.addIssue({ code: 'custom', path: ['yucho'], message: 'validation.yuchoOnly' });
    }
    return;
  }
  if (v.branch_code === undefined) {
    ctx.addIssue({ code: 'custom', path: ['branch_code'], message: 'validation.branchNumberRequired' });
  }
  if (v.account_number === undefined) {
    ctx.addIssue({ code: 'custom', path: ['account_number'], message: 'validation.accountNumberRequired' });
  }
}

export const ZBankAccountInput = ZBankAccountFields.superRefine(refineBankAccount);
// POST /api/bank-accounts (adds; with replaces_id, replaces that account)
// strict: a money route's body refuses fields it does not know (ADR 0030)
export const ZBankAccountCreate = z
  .strictObject({
    ...ZBankAccountFields.shape,
    login_password: ZLoginPassword,
    replaces_id: z.number().int().positive().optional(),
    /** required when the user has a passkey (ADR 0031) */
    step_up_token: ZStepUpToken.optional(),
  })
  .superRefine(refineBankAccount);
export type TBankAccountCreate = z.infer<typeof ZBankAccountCreate>;

export const ZBankAccountStatus = z.enum(['pending', 'approved', 'rejected', 'replaced']);
export const ZBankAccount = z.object({
  id: z.number().int(),
  holder_name: z.string(),
  account_number: z.string(),
  /** 金融機関コード; null for an account registered before the Zengin data */
  bank_code: z.string().nullable(),
  bank_name: z.string(),
  branch_name: z.string(),
  branch_number: z.string(),
  account_type: ZAccountType,
  image_upload_id: z.string().nullable(),
  status: ZBankAccountStatus,
  reason: z.string().nullable(),
  created_at: z.string(),
  reviewed_at: z.string().nullable(),
});
export type TBankAccount = z.infer<typeof ZBankAccount>;
export const ZBankAccountList = z.object({ items: z.array(ZBankAccount) });

// GET /api/bank-accounts/log
export const ZBankAccountLogEntry = z.object({
  id: z.number().int(),
  bank_account_id: z.number().int(),
  action: z.enum(['added', 'changed', 'approved', 'rejected', 'replaced']),
  bank_name: z.string(),
  branch_name: z.string(),
  /** masked: the last 3 digits only */
  account_number: z.string(),
  holder_name: z.string(),
  reason: z.string().nullable(),
  at: z.string(),
});
export type TBankAccountLogEntry = z.infer<typeof ZBankAccountLogEntry>;
export const ZBankAccountLog = z.object({ items: z.array(ZBankAccountLogEntry) });

// ---------------------------------------------------------------- deposits

/** Whole yen typed by the user, as sen on the wire. */
export const ZYenAmountInSen = z
  .number({ error: 'validation.amountRequired' })
  .int({ error: 'validation.amountWholeYen' })
  .positive({ error: 'validation.amountPositive' })
  .max(1e13, { error: 'validation.amountTooBig' })
  .refine((v) => v % 100 === 0, { error: 'validation.amountWholeYen' });

// GET /api/deposits/account
export const ZDepositAccount = z.object({
  /** 金融機関コード, when the operators published one */
  bank_code: z.string().nullable(),
  /** in the reader's language: 三井住友銀行 in Japanese, Sumitomo Mitsui... romanised in the others */
  bank_name: z.string(),
  /** the Zengin reading (ミツイスミトモ), what a bank's transfer screen searches by */
  bank_kana: z.string().nullable(),
  branch_name: z.string(),
  branch_kana: z.string().nullable(),
  branch_number: z.string(),
  account_type: z.enum(['ordinary', 'current']),
  /** the customer's own virtual account number */
  account_number: z.string(),
  holder: z.string(),
  /** the holder as a transfer screen shows it, in katakana */
  holder_kana: z.string().nullable(),
  /** the deposit URL of getCzhiurl, when operators configured one */
  deposit_url: z.string().nullable(),
});
export type TDepositAccount = z.infer<typeof ZDepositAccount>;

// POST /api/deposits (Idempotency-Key header)
export const ZDepositCreate = z.strictObject({
  amount: ZYenAmountInSen.refine((v) => v >= DEPOSIT_MIN_YEN * 100, { error: 'validation.depositMin' }),
  transfer_date: z.iso.date({ error: 'validation.transferDateRequired' }),
  proof_upload_id: ZUploadId.optional(),
});
export type TDepositCreate = z.infer<typeof ZDepositCreate>;

export const ZReviewStatus = z.enum(['pending', 'approved', 'rejected']);
export type TReviewStatus = z.infer<typeof ZReviewStatus>;
export const ZDeposit = z.object({
  id: z.number().int(),
  amount: ZSenAmount,
  transfer_date: z.string(),
  proof_upload_id: z.string().nullable(),
  status: ZReviewStatus,
  reason: z.string().nullable(),
  created_at: z.string(),
  reviewed_at: z.string().nullable(),
});
export type TDeposit = z.infer<typeof ZDeposit>;

export const ZRecordsQuery = z.object({
  status: ZReviewStatus.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).default(0),
});
export const ZDepositPage = z.object({ total: z.number().int(), items: z.array(ZDeposit) });

// ---------------------------------------------------------------- withdrawals

// POST /api/withdrawals (Idempotency-Key header)
export const ZWithdrawalCreate = z.strictObject({
  amount: ZYenAmountInSen,
  bank_account_id: z
    .number({ error: 'validation.bankAccountRequired' })
    .int({ error: 'validation.bankAccountRequired' })
    .positive({ error: 'validation.bankAccountRequired' }),
  txn_password: ZTxnPassword,
  /** required when the user has a passkey (ADR 0031) */
  step_up_token: ZStepUpToken.optional(),
});
export type TWithdrawalCreate = z.infer<typeof ZWithdrawalCreate>;

export const ZWithdrawal = z.object({
  id: z.number().int(),
  amount: ZSenAmount,
  bank_account: z.object({
    id: z.number().int(),
    bank_name: z.string(),
    branch_name: z.string(),
    account_number: z.string(),
  }),
  status: ZReviewStatus,
  /** when it will be processed (the withdrawal window in force at filing, or the next one) */
  process_after: z.string(),
  reason: z.string().nullable(),
  created_at: z.string(),
  reviewed_at: z.string().nullable(),
});
export type TWithdrawal = z.infer<typeof ZWithdrawal>;
export const ZWithdrawalPage = z.object({ total: z.number().int(), items: z.array(ZWithdrawal) });

// ---------------------------------------------------------------- messages

/**
 * Message kinds. The text is the catalogue's `messageKinds.<kind>` with the params interpolated, in the
 * reader's language at reading time; a reviewer's `reason` is shown as written.
 */
export const MESSAGE_KINDS = [
  'order.placed',
  'order.filled',
  'order.cancelled',
  'order.rejected',
  'position.closed',
  'position.forced_close',
  'position.day_trade_closed',
  'margin.call',
  'margin.call_met',
  'identity.submitted',
  'identity.passed',
  'identity.rejected',
  'bank_account.added',
  'bank_account.approved',
  'bank_account.rejected',
  'deposit.filed',
  'deposit.approved',
  'deposit.rejected',
  'withdrawal.filed',
  'withdrawal.approved',
  'withdrawal.rejected',
  'security.login_password_locked',
  'security.txn_password_locked',
  'security.deposit_account_changed',
  'offering.won',
  'offering.lost',
  'offering.filled',
  'offering.approved',
  'offering.lapsed',
  'offering.delivered',
  'offering.cancelled',
  'offering.nisa_fallback',
] as const;

export const ZMessage = z.object({
  id: z.number().int(),
  kind: z.string(),
  params: z.record(z.string(), z.unknown()),
  created_at: z.string(),
  read: z.boolean(),
});
export type TMessage = z.infer<typeof ZMessage>;
export const ZMessagesQuery = z.object({
  unread: z.enum(['true', 'false']).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(30),
  offset: z.coerce.number().int().min(0).default(0),
});
export const ZMessagePage = z.object({
  total: z.number().int(),
  unread: z.number().int(),
  items: z.array(ZMessage),
});
export const ZUnreadCount = z.object({ unread: z.number().int() });
// POST /api/messages/read: the given ids, or every message when `all` is true
export const ZMarkRead = z.union([
  z.object({ ids: z.array(z.number().int().positive()).min(1).max(200) }),
  z.object({ all: z.literal(true) }),
]);

// ---------------------------------------------------------------- customer service

export const ZServiceChannel = z.object({
  name: z.string().min(1).max(40),
  /** a messaging-app link (https: or line:), an e-mail address (mailto:) or a phone number (tel:) */
  url: z
    .string()
    .max(300)
    .regex(/^(https:\/\/|line:\/\/|mailto:[^\s@]+@[^\s@]+$|tel:\+?[0-9-]{6,20}$)/, {
      error: 'validation.channelUrl',
    }),
  /** a free note beside the hours (e.g. "replies within one business day") */
  hours: z.string().max(80).optional(),
  /** when the channel is staffed, in Tokyo time; the app shows it in the user's own time zone too */
  schedule: z
    .object({
      /** ISO weekdays: 1 Monday … 7 Sunday */
      days: z.array(z.number().int().min(1).max(7)).min(1).max(7),
      opens: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'validation.clockTime' }),
      closes: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'validation.clockTime' }),
    })
    .refine((s) => s.opens < s.closes, { error: 'validation.closesAfterOpens', path: ['closes'] })
    .optional(),
});
export type TServiceChannel = z.infer<typeof ZServiceChannel>;
export type TServiceSchedule = NonNullable<TServiceChannel['schedule']>;
export const ZServiceChannels = z.object({ items: z.array(ZServiceChannel) });
