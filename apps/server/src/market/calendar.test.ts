import { describe, expect, it } from 'vitest';
import {
  isBusinessDay,
  nextBusinessDay,
  previousBusinessDay,
  settlementDate,
  tradingCalendar,
  TradingCalendar,
} from './calendar.js';

describe('isBusinessDay', () => {
  it.each([
    ['2026-02-06', true, 'Friday'],
    ['2026-02-07', false, 'Saturday'],
    ['2026-02-08', false, 'Sunday'],
    ['2026-02-09', true, 'Monday'],
    ['2026-02-11', false, 'National Foundation Day'],
    ['2025-12-30', true, 'last trading day of 2025'],
    ['2025-12-31', false, 'year-end closure'],
    ['2026-01-01', false, "New Year's Day"],
    ['2026-01-02', false, 'New Year closure'],
    ['2026-01-05', true, 'first trading day of 2026'],
    ['2026-01-12', false, 'Coming of Age Day'],
    ['2026-12-31', false, 'year-end closure'],
    ['2027-01-04', true, 'first trading day of 2027'],
    ['2024-11-04', false, 'substitute holiday'],
  ])('%s → %s (%s)', (date, expected) => {
    expect(isBusinessDay(date)).toBe(expected);
  });

  it('takes an instant as its Tokyo date', () => {
    // 2026-02-06 20:00 UTC is Saturday 05:00 in Tokyo
    expect(isBusinessDay(new Date('2026-02-06T20:00:00Z'))).toBe(false);
    expect(isBusinessDay(new Date('2026-02-06T14:59:59Z'))).toBe(true);
  });

  it('beyond the holiday list, closes weekends and the fixed year-end days only', () => {
    const cal = tradingCalendar();
    expect(cal.coveredYears).toEqual({ from: 2024, to: 2027 });
    expect(cal.isBusinessDay('2028-01-03')).toBe(false);
    expect(cal.isBusinessDay('2028-01-04')).toBe(true);
    expect(cal.isBusinessDay('2028-12-29')).toBe(true);
    expect(cal.isBusinessDay('2028-12-31')).toBe(false);
  });

  it('rejects malformed dates', () => {
    expect(() => isBusinessDay('2026-2-6')).toThrow(RangeError);
    expect(() => isBusinessDay('2026-13-01')).toThrow(RangeError);
  });
});

describe('moving between business days', () => {
  it.each([
    ['2026-02-06', '2026-02-09', '2026-02-05'],
    ['2026-02-07', '2026-02-09', '2026-02-06'],
    ['2026-02-10', '2026-02-12', '2026-02-09'],
    ['2025-12-30', '2026-01-05', '2025-12-29'],
    ['2026-01-05', '2026-01-06', '2025-12-30'],
    ['2026-01-01', '2026-01-05', '2025-12-30'],
  ])('%s: next %s, previous %s', (date, next, previous) => {
    expect(nextBusinessDay(date)).toBe(next);
    expect(previousBusinessDay(date)).toBe(previous);
  });

  it.each([
    ['2026-02-05', '2026-02-09'], // Thu → Mon
    ['2026-02-06', '2026-02-10'], // Fri → Tue
    ['2026-02-09', '2026-02-12'], // skips 2/11
    ['2025-12-29', '2026-01-05'], // across the year end
    ['2025-12-30', '2026-01-06'],
  ])('T+2 of %s is %s', (trade, settle) => {
    expect(settlementDate(trade)).toBe(settle);
  });

  it('lists business days and counts backwards', () => {
    const cal = tradingCalendar();
    expect(cal.businessDaysBetween('2025-12-27', '2026-01-07')).toEqual([
      '2025-12-29',
      '2025-12-30',
      '2026-01-05',
      '2026-01-06',
      '2026-01-07',
    ]);
    expect(cal.addBusinessDays('2026-01-05', -2)).toBe('2025-12-29');
    expect(cal.onOrBefore('2026-01-03')).toBe('2025-12-30');
    expect(cal.onOrAfter('2026-01-03')).toBe('2026-01-05');
    expect(cal.holiday('2026-01-12')?.name_en).toBe('Coming of Age Day');
  });

  it('works with any holiday list', () => {
    const cal = new TradingCalendar([{ date: '2030-05-06', name_ja: '', name_en: '' }]);
    expect(cal.isBusinessDay('2030-05-06')).toBe(false);
    expect(cal.nextBusinessDay('2030-05-03')).toBe('2030-05-07');
  });
});
