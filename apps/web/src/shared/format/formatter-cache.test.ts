import { dateTimeFormat, LOCALES, numberFormat, sen, type Locale } from '@kabuto/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDate, formatDateTime, formatMoney, formatNumber } from './format';
import { formatChangeBp, formatCompact, formatPlainPrice, formatPrice, formatShares } from './price';

/** Everything the stock page formats on a quote tick, in one locale. */
function formatTick(locale: Locale): string[] {
  return [
    formatPrice(98_410, 1, locale),
    formatPrice(300_100, 0, locale),
    formatPlainPrice(98_410, 1, locale),
    formatChangeBp(93, locale),
    formatShares(1_234_500, locale),
    formatCompact(12_345_678, locale),
    formatNumber(1234.5, locale, 1),
    formatMoney(sen(1_234_500), locale),
    formatDateTime('2026-11-20T03:40:00.000Z', locale),
    formatDate('2026-11-20', locale),
  ];
}

describe('cached Intl formatters', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('are built once per locale and options: formatting again builds none', () => {
    for (const locale of LOCALES) formatTick(locale);
    const numbers = vi.spyOn(Intl, 'NumberFormat');
    const dates = vi.spyOn(Intl, 'DateTimeFormat');
    for (let i = 0; i < 3; i += 1) for (const locale of LOCALES) formatTick(locale);
    expect(numbers).not.toHaveBeenCalled();
    expect(dates).not.toHaveBeenCalled();
  });

  it('return the same instance for the same locale and options, another for others', () => {
    const options = { minimumFractionDigits: 1, maximumFractionDigits: 1 };
    const ja = numberFormat('ja', options);
    expect(numberFormat('ja', { ...options })).toBe(ja);
    expect(numberFormat('fr', options)).not.toBe(ja);
    expect(numberFormat('ja', { ...options, maximumFractionDigits: 2 })).not.toBe(ja);
    const tokyo = { timeZone: 'Asia/Tokyo', dateStyle: 'medium', timeStyle: 'short' } as const;
    expect(dateTimeFormat('en', tokyo)).toBe(dateTimeFormat('en', { ...tokyo }));
    expect(dateTimeFormat('en', tokyo)).not.toBe(dateTimeFormat('es', tokyo));
  });

  it('format each locale as a new formatter would', () => {
    const fresh = (locale: Locale, options: Intl.NumberFormatOptions, value: number) =>
      new Intl.NumberFormat(locale, options).format(value);
    for (const locale of LOCALES) {
      expect(formatPlainPrice(98_410, 1, locale)).toBe(
        fresh(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 }, 984.1),
      );
      expect(formatShares(1_234_500, locale)).toBe(fresh(locale, { maximumFractionDigits: 0 }, 1_234_500));
      expect(formatDateTime('2026-11-20T03:40:00.000Z', locale)).toBe(
        new Intl.DateTimeFormat(locale, {
          timeZone: 'Asia/Tokyo',
          dateStyle: 'medium',
          timeStyle: 'short',
        }).format(new Date('2026-11-20T03:40:00.000Z')),
      );
    }
    expect(formatPlainPrice(98_410, 1, 'fr')).toBe('984,1');
    expect(formatPlainPrice(123_450_0, 1, 'en')).toBe('12,345.0');
    expect(formatPrice(98_410, 1, 'ja')).toMatch(/^[¥￥]984\.1$/u);
    expect(formatDateTime('2026-11-20T03:40:00.000Z', 'en')).toBe('Nov 20, 2026, 12:40 PM');
    expect(formatDate('2026-11-20', 'ja')).toBe('2026年11月20日');
  });
});
