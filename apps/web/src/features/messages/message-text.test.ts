import { formatYen, sen, type TMessage } from '@kabuto/contract';
import { describe, expect, it } from 'vitest';
import { messageParams, messageReason, messageText } from './message-text';

const message = (kind: string, params: Record<string, unknown>): TMessage => ({
  id: 1,
  kind,
  params,
  created_at: '2026-11-23T11:00:00.000Z',
  read: false,
});

const en = {
  money: (a: number) => formatYen(sen(a), 'en'),
  dateTime: (iso: string) =>
    new Intl.DateTimeFormat('en', { timeZone: 'Asia/Tokyo', dateStyle: 'medium', timeStyle: 'short' }).format(
      new Date(iso),
    ),
  date: (iso: string) => iso,
};

const catalogue: Record<string, string> = {
  'messageKinds.withdrawal.filed': 'Withdrawal of {{amount}} requested; processed from {{process_after}}',
};
const t = (key: string, params?: Record<string, string>) =>
  (catalogue[key] ?? key).replace(/\{\{(\w+)\}\}/g, (_, name: string) => params?.[name] ?? '');

describe('message text', () => {
  it("shows amounts (sen) as yen and instants in Japan time, in the reader's language", () => {
    expect(messageParams({ amount: 1_234_500, process_after: '2026-11-24T00:00:00.000Z' }, en)).toEqual({
      amount: '¥12,345',
      process_after: 'Nov 24, 2026, 9:00 AM',
    });
    expect(
      messageText(
        message('withdrawal.filed', { amount: 2_000_000, process_after: '2026-11-24T00:00:00.000Z' }),
        en,
        t,
      ),
    ).toBe('Withdrawal of ¥20,000 requested; processed from Nov 24, 2026, 9:00 AM');
  });

  it('an unknown kind shows as its name; other params as text; objects are left out', () => {
    expect(messageText(message('later.kind', {}), en, t)).toBe('later.kind');
    expect(messageParams({ code: '7203', quantity: 100, nested: { a: 1 } }, en)).toEqual({
      code: '7203',
      quantity: '100',
    });
  });

  it("keeps the reviewer's reason apart, as written", () => {
    expect(messageReason(message('deposit.rejected', { reason: '振込が確認できません' }))).toBe(
      '振込が確認できません',
    );
    expect(messageReason(message('deposit.approved', {}))).toBeNull();
    expect(messageReason(message('deposit.rejected', { reason: '  ' }))).toBeNull();
  });
});
