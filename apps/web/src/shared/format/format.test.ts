import { sen } from '@kabuto/contract';
import { describe, expect, it } from 'vitest';
import { formatDate, formatMoney, formatSignedMoney } from './format';

describe('format', () => {
  it('formats sen as whole yen', () => {
    expect(formatMoney(sen(123_456_78), 'ja')).toMatch(/123,456/);
    expect(formatSignedMoney(sen(10_000), 'en')).toBe('+¥100');
  });

  it('formats a date in Japan time', () => {
    expect(formatDate('2025-06-20', 'ja')).toBe('2025年6月20日');
    expect(formatDate('2025-06-20', 'en')).toBe('June 20, 2025');
  });
});
