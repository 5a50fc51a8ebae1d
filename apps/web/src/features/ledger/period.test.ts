import { describe, expect, it } from 'vitest';
import { addDays, presetPeriod, tokyoDate } from './period';

describe('statement periods (Tokyo dates)', () => {
  it('uses the Tokyo date, not UTC', () => {
    // 2026-11-24 23:30 UTC is already 25 November in Tokyo.
    expect(tokyoDate(new Date('2026-11-24T23:30:00Z'))).toBe('2026-11-25');
    expect(tokyoDate(new Date('2026-11-24T14:59:59Z'))).toBe('2026-11-24');
  });

  it('moves dates across months and years', () => {
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });

  it('computes the presets', () => {
    const now = new Date('2026-11-25T01:00:00Z');
    expect(presetPeriod('today', now)).toEqual({ from: '2026-11-25', to: '2026-11-25' });
    expect(presetPeriod('week', now)).toEqual({ from: '2026-11-19', to: '2026-11-25' });
    expect(presetPeriod('month', now)).toEqual({ from: '2026-11-01', to: '2026-11-25' });
    expect(presetPeriod('all', now)).toEqual({ from: '', to: '' });
  });
});
