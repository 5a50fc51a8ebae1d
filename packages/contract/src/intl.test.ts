import { describe, expect, it } from 'vitest';
import { dateTimeFormat, numberFormat } from './intl.js';

describe('cached Intl formatters', () => {
  it('builds one formatter per locale and options, and formats as a fresh one would', () => {
    const a = numberFormat('ja', { maximumFractionDigits: 1 });
    expect(numberFormat('ja', { maximumFractionDigits: 1 })).toBe(a);
    expect(numberFormat('fr', { maximumFractionDigits: 1 })).not.toBe(a);
    expect(numberFormat('ja', { maximumFractionDigits: 2 })).not.toBe(a);
    expect(a.format(1234.56)).toBe(new Intl.NumberFormat('ja', { maximumFractionDigits: 1 }).format(1234.56));
    const d = dateTimeFormat('en', { timeZone: 'Asia/Tokyo', dateStyle: 'long' });
    expect(dateTimeFormat('en', { timeZone: 'Asia/Tokyo', dateStyle: 'long' })).toBe(d);
    expect(d.format(new Date('2026-11-22T16:00:00Z'))).toBe('November 23, 2026');
  });
});
