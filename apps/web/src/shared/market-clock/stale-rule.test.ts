import { describe, expect, it } from 'vitest';
import { isQuoteStale } from './stale-rule';

describe('stale quotes', () => {
  const status = { continuous: true, stale_after_ms: 5000 };
  const t = '2026-01-05T01:00:00.000Z';
  const at = Date.parse(t);
  it('is stale only during a continuous session and after stale_after_ms', () => {
    expect(isQuoteStale(t, status, at + 5000)).toBe(false);
    expect(isQuoteStale(t, status, at + 5001)).toBe(true);
    expect(isQuoteStale(t, { ...status, continuous: false }, at + 60_000)).toBe(false);
    expect(isQuoteStale(t, undefined, at + 60_000)).toBe(false);
  });
});

describe('stale quotes on a live feed', () => {
  const status = { continuous: true, stale_after_ms: 5000 };
  const t = '2026-01-05T01:00:00.000Z';
  const at = Date.parse(t);
  it('keeps a quiet stock current while the feed beats, and marks it stale when the feed stops', () => {
    expect(isQuoteStale(t, status, at + 60_000, at + 58_000)).toBe(false);
    expect(isQuoteStale(t, status, at + 60_000, at + 54_000)).toBe(true);
    expect(isQuoteStale(t, status, at + 60_000, 0)).toBe(true);
  });
});
