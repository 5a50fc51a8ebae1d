import { formatYen, sen, type TWithdrawalRules } from '@kabuto/contract';
import { describe, expect, it } from 'vitest';
import {
  previewText,
  processingText,
  processingTimeOf,
  windowsText,
  withdrawalFormSchema,
} from './withdrawal-rules';

const fmt = (locale: string) => ({
  money: (a: number) => formatYen(sen(a), locale),
  dateTime: (iso: string) =>
    new Intl.DateTimeFormat(locale, {
      timeZone: 'Asia/Tokyo',
      dateStyle: 'medium',
      timeStyle: 'short',
    }).format(new Date(iso)),
});

const t = (key: string, params?: Record<string, string | number>) =>
  params === undefined ? key : `${key} ${JSON.stringify(params)}`;

describe('withdrawal rules on screen', () => {
  it('writes the windows as people do', () => {
    expect(
      windowsText([
        { start: '09:00', end: '11:30' },
        { start: '12:30', end: '15:30' },
      ]),
    ).toBe('9:00–11:30, 12:30–15:30');
  });

  it('a request filed inside a window is processed at once; outside, from the next window (Japan time)', () => {
    expect(processingTimeOf('2026-11-24T01:00:00.000Z', '2026-11-24T01:00:00.000Z')).toEqual({ kind: 'now' });
    const later = processingTimeOf('2026-11-24T00:00:00.000Z', '2026-11-23T11:44:00.000Z');
    expect(later).toEqual({ kind: 'later', at: '2026-11-24T00:00:00.000Z' });
    expect(processingText(later, fmt('en'), t)).toBe(
      'withdrawal.processedFrom {"time":"Nov 24, 2026, 9:00 AM"}',
    );
    expect(processingText({ kind: 'now' }, fmt('en'), t)).toBe('withdrawal.processedNow');
  });

  it('before filing, says what the rules do with a request made now', () => {
    const rules = {
      open_now: false,
      next_window_start: '2026-11-24T00:00:00.000Z',
    } as TWithdrawalRules;
    expect(previewText(rules, fmt('ja'), t)).toBe('withdrawal.ifFiledNow {"time":"2026/11/24 9:00"}');
    expect(previewText({ ...rules, open_now: true }, fmt('ja'), t)).toBe('withdrawal.openNow');
  });
});

describe('withdrawal form', () => {
  const schema = withdrawalFormSchema(
    { minAmount: sen(1_000_000), withdrawable: sen(5_000_000) },
    'ja',
    fmt('ja'),
    t,
  );
  const valid = { amount: '20,000', bank_account_id: 3, txn_password: '123456' };
  const issues = (input: object) =>
    schema.safeParse({ ...valid, ...input }).error?.issues.map((i) => [i.path.join('.'), i.message]) ?? [];

  it('accepts an amount between the minimum and the withdrawable cash, as sen', () => {
    expect(schema.parse(valid)).toEqual({ amount: 2_000_000, bank_account_id: 3, txn_password: '123456' });
    expect(issues({ amount: '10000' })).toEqual([]);
    expect(issues({ amount: '50000' })).toEqual([]);
  });

  it('says the minimum with {m}, and what can be withdrawn', () => {
    expect(issues({ amount: '9,999' })).toEqual([['amount', 'errors.WITHDRAWAL_BELOW_MIN {"m":"￥10,000"}']]);
    expect(issues({ amount: '50,001' })).toEqual([
      ['amount', 'errors.WITHDRAWAL_EXCEEDS_AVAILABLE {"available":"￥50,000"}'],
    ]);
  });

  it('requires the amount, a bank account and the transaction password', () => {
    expect(issues({ amount: '', bank_account_id: 0, txn_password: '' })).toEqual([
      ['amount', 'validation.amountRequired'],
      ['bank_account_id', 'validation.bankAccountRequired'],
      ['txn_password', 'validation.txnPasswordRequired'],
      ['txn_password', 'validation.txnPasswordDigits'],
    ]);
    expect(issues({ txn_password: '12ab56' })).toEqual([['txn_password', 'validation.txnPasswordDigits']]);
  });
});
