import { sen, ZTxnPassword, type Locale, type Sen, type TWithdrawalRules } from '@kabuto/contract';
import { z } from 'zod';
import { amountFieldSchema } from './amount';

type Translate = (key: string, params?: Record<string, string | number>) => string;

/** How amounts and instants are written in the reader's language (the shared format helpers). */
export interface Formatters {
  money: (amount: Sen) => string;
  dateTime: (iso: string) => string;
}

/** "09:00" → "9:00": the hours as people write them. */
const hhmm = (text: string) => text.replace(/^0(\d:)/, '$1');

/** The published windows, e.g. "9:00–11:30, 12:30–15:30". */
export function windowsText(windows: readonly { start: string; end: string }[]): string {
  return windows.map((w) => `${hhmm(w.start)}–${hhmm(w.end)}`).join(', ');
}

/**
 * When a withdrawal is processed, from the server's answer: `process_after` equals the filing time when it
 * was filed inside a window (processing starts at once), else the start of the next window.
 */
export type ProcessingTime = { kind: 'now' } | { kind: 'later'; at: string };

export function processingTimeOf(processAfter: string, filedAt: string): ProcessingTime {
  const after = Date.parse(processAfter);
  const filed = Date.parse(filedAt);
  return Number.isFinite(after) && Number.isFinite(filed) && after - filed > 60_000
    ? { kind: 'later', at: processAfter }
    : { kind: 'now' };
}

/** The sentence under a filed withdrawal: "This request will be processed from …". */
export function processingText(time: ProcessingTime, fmt: Formatters, t: Translate): string {
  return time.kind === 'now'
    ? t('withdrawal.processedNow')
    : t('withdrawal.processedFrom', { time: fmt.dateTime(time.at) });
}

/** Before filing: what the rules say about a request filed now. */
export function previewText(rules: TWithdrawalRules, fmt: Formatters, t: Translate): string {
  return rules.open_now
    ? t('withdrawal.openNow')
    : t('withdrawal.ifFiledNow', { time: fmt.dateTime(rules.next_window_start) });
}

/**
 * The withdrawal form: amount (at least the published minimum, at most what can be withdrawn now, whole
 * yen), a selected bank account, the transaction password. Messages are translated here (they carry
 * amounts), except the contract's plain keys, which the fields translate.
 */
export function withdrawalFormSchema(
  limits: { minAmount: Sen; withdrawable: Sen },
  locale: Locale,
  fmt: Formatters,
  t: Translate,
) {
  return z.object({
    amount: amountFieldSchema(locale).superRefine((value, ctx) => {
      const amount = sen(value);
      if (amount < limits.minAmount) {
        ctx.addIssue({
          code: 'custom',
          message: t('errors.WITHDRAWAL_BELOW_MIN', { m: fmt.money(limits.minAmount) }),
        });
      } else if (amount > limits.withdrawable) {
        ctx.addIssue({
          code: 'custom',
          message: t('errors.WITHDRAWAL_EXCEEDS_AVAILABLE', {
            available: fmt.money(limits.withdrawable),
          }),
        });
      }
    }),
    bank_account_id: z
      .number({ error: 'validation.bankAccountRequired' })
      .int({ error: 'validation.bankAccountRequired' })
      .positive({ error: 'validation.bankAccountRequired' }),
    txn_password: ZTxnPassword,
  });
}
export type WithdrawalFormSchema = ReturnType<typeof withdrawalFormSchema>;
export type WithdrawalFormInput = z.input<WithdrawalFormSchema>;
export type WithdrawalFormOutput = z.output<WithdrawalFormSchema>;
