import { z } from 'zod';
import { ZSenAmount } from './account.js';

/**
 * Zengin bank and branch codes, and deposit reconciliation (ADR 0023). Bank names come from the Zengin
 * data on the server, never from the client.
 */

// GET /api/banks?q= and GET /api/banks/:code/branches?q=
export const ZZenginQuery = z.object({ q: z.string().trim().max(40).default('') });
export const ZBankCodeParams = z.object({
  code: z.string().regex(/^\d{4}$/, { error: 'validation.bankCode' }),
});
export const ZZenginEntry = z.object({
  code: z.string(),
  /** as written in Japanese (三井住友銀行, 本店営業部) */
  name: z.string(),
  /** the Zengin reading, full-width katakana */
  kana: z.string(),
});
export type TZenginEntry = z.infer<typeof ZZenginEntry>;
export const ZZenginList = z.object({ items: z.array(ZZenginEntry) });

/** 預金種目: 普通 (ordinary), 当座 (checking), 貯蓄 (savings). */
export const ACCOUNT_TYPES = ['ordinary', 'checking', 'savings'] as const;
export const ZAccountType = z.enum(ACCOUNT_TYPES, { error: 'validation.accountType' });
export type TAccountType = z.infer<typeof ZAccountType>;

export const YUCHO_BANK_CODE = '9900';

/** ゆうちょ銀行's 記号 (5 digits) and 番号 (up to 8 digits) as printed on the passbook. */
export const ZYuchoNumber = z.object({
  symbol: z
    .string({ error: 'validation.yuchoSymbol' })
    .trim()
    .regex(/^[01]\d{4}$/, { error: 'validation.yuchoSymbol' }),
  number: z
    .string({ error: 'validation.yuchoNumber' })
    .trim()
    .regex(/^\d{1,8}$/, { error: 'validation.yuchoNumber' }),
});
export type TYuchoNumber = z.infer<typeof ZYuchoNumber>;

// ---------------------------------------------------------------- deposit reconciliation (console)

/** What happened to one line of an imported statement. */
export const TRANSFER_LINE_OUTCOMES = ['matched', 'unmatched', 'duplicate', 'invalid'] as const;
/** Why a line is invalid: the column at fault (the console translates it). */
export const TRANSFER_LINE_ERRORS = [
  'columns',
  'bank_ref',
  'transfer_date',
  'amount',
  'payer_name',
  'virtual_account',
  'repeated_in_file',
] as const;
export const ZStatementLine = z.object({
  /** 1-based line number in the file (the header is line 1) */
  line: z.number().int(),
  bank_ref: z.string(),
  outcome: z.enum(TRANSFER_LINE_OUTCOMES),
  error: z.enum(TRANSFER_LINE_ERRORS).nullable(),
  amount: ZSenAmount.nullable(),
  user_id: z.number().int().nullable(),
  deposit_id: z.number().int().nullable(),
  transfer_id: z.number().int().nullable(),
});
export type TStatementLine = z.infer<typeof ZStatementLine>;

// POST /api/console/reconciliation/statements: the file, base64 (UTF-8 or Shift_JIS CSV)
export const STATEMENT_MAX_BYTES = 2 * 1024 * 1024;
export const ZStatementImport = z.object({
  filename: z
    .string({ error: 'validation.statementFilename' })
    .trim()
    .min(1, { error: 'validation.statementFilename' })
    .max(200, { error: 'validation.statementFilename' }),
  content_base64: z
    .string({ error: 'validation.statementContent' })
    .min(1, { error: 'validation.statementContent' })
    .max(Math.ceil(STATEMENT_MAX_BYTES / 3) * 4, { error: 'validation.statementContent' })
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, { error: 'validation.statementContent' }),
});
export const ZStatementImportResult = z.object({
  statement_id: z.number().int(),
  format: z.string(),
  encoding: z.enum(['utf-8', 'shift_jis']),
  lines: z.array(ZStatementLine),
});
export type TStatementImportResult = z.infer<typeof ZStatementImportResult>;

export const TRANSFER_STATUSES = ['unmatched', 'matched', 'credited', 'ignored'] as const;
export const ZTransferStatus = z.enum(TRANSFER_STATUSES);
export const ZBankTransfer = z.object({
  id: z.number().int(),
  statement_id: z.number().int(),
  bank_ref: z.string(),
  transfer_date: z.string(),
  amount: ZSenAmount,
  payer_name: z.string(),
  virtual_account: z.string(),
  user_id: z.number().int().nullable(),
  phone: z.string().nullable(),
  /** whether the payer's name is the customer's reading (a third party's transfer deserves a look) */
  payer_is_customer: z.boolean().nullable(),
  status: ZTransferStatus,
  deposit_id: z.number().int().nullable(),
  note: z.string().nullable(),
  created_at: z.string(),
});
export type TBankTransfer = z.infer<typeof ZBankTransfer>;
export const ZBankTransferQuery = z.object({
  status: ZTransferStatus.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});
export const ZBankTransferPage = z.object({ total: z.number().int(), items: z.array(ZBankTransfer) });

// POST /api/console/reconciliation/transfers/:id/deposit: a deposit from a transfer to a known account
export const ZTransferToDeposit = z.strictObject({
  reason: z
    .string({ error: 'validation.reasonRequired' })
    .trim()
    .min(1, { error: 'validation.reasonRequired' })
    .max(500, { error: 'validation.reasonLength' }),
});
// POST /api/console/reconciliation/credit: credit matched transfers' deposits, each its own decision
export const ZCreditMatched = z.strictObject({
  transfer_ids: z.array(z.number().int().positive()).min(1).max(200),
});
export const ZCreditMatchedResult = z.object({
  items: z.array(
    z.object({
      transfer_id: z.number().int(),
      deposit_id: z.number().int().nullable(),
      /** credited, or the error name of why not (ALREADY_REVIEWED, TRANSFER_NOT_MATCHED...) */
      outcome: z.string(),
    }),
  ),
});

/** The approval of a deposit: with no matching transfer it needs a reason (and a second operator). */
export const ZDepositApprove = z
  .object({
    reason: z
      .string({ error: 'validation.reasonRequired' })
      .trim()
      .min(1, { error: 'validation.reasonRequired' })
      .max(500, { error: 'validation.reasonLength' })
      .optional(),
  })
  .strict();
