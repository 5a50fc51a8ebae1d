import { describe, expect, it } from 'vitest';
import { dateFromIso, dateWheelLabel, isoFromDate } from './date-wheel';

describe('the date field', () => {
  it('reads and writes a calendar day as "YYYY-MM-DD", and refuses anything else', () => {
    const day = dateFromIso('2026-02-28');
    expect(day?.getFullYear()).toBe(2026);
    expect(day?.getMonth()).toBe(1);
    expect(day?.getDate()).toBe(28);
    expect(isoFromDate(new Date(2026, 0, 5))).toBe('2026-01-05');
    expect(dateFromIso('')).toBeNull();
    expect(dateFromIso('2026-2-28')).toBeNull();
    expect(dateFromIso('28/02/2026')).toBeNull();
    for (const iso of ['2024-02-29', '2026-12-31', '2027-01-01']) {
      const parsed = dateFromIso(iso);
      expect(parsed === null ? null : isoFromDate(parsed)).toBe(iso);
    }
  });

  it('names the wheel in the reader’s language', () => {
    expect(
      ['year', 'month', 'day'].map((type, i) => dateWheelLabel('ja', type, [2026, 11, 26][i] ?? 0)),
    ).toEqual(['2026年', '11月', '26日']);
    expect(dateWheelLabel('zh-Hans', 'month', 3)).toBe('3月');
    expect(dateWheelLabel('zh-Hant', 'day', 9)).toBe('9日');
    expect(dateWheelLabel('en', 'month', 11)).toBe('November');
    expect(dateWheelLabel('en', 'year', 2026)).toBe('2026');
    expect(dateWheelLabel('es', 'month', 1)).toBe('enero');
    expect(dateWheelLabel('fr', 'month', 8)).toBe('août');
    expect(dateWheelLabel('fr', 'day', 1)).toBe('1');
  });
});
