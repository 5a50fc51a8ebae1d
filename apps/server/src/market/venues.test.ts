import { describe, expect, it } from 'vitest';
import { fillsFrom, nextPtsOpen, ptsSessionEnd, venueOpen } from './venues.js';

/** Tokyo is UTC+9 all year: 2026-11-24 10:00 in Tokyo is 01:00 UTC. 2026-11-23 (a Monday) is a holiday. */
const tokyo = (date: string, time: string) => new Date(`${date}T${time}:00+09:00`);
const tokyoMarket = { clockMode: 'tokyo' as const };

describe('venues', () => {
  it('open by their own session', () => {
    expect(venueOpen('exchange', { continuous: true, pts_open: false })).toBe(true);
    expect(venueOpen('exchange', { continuous: false, pts_open: true })).toBe(false);
    expect(venueOpen('pts', { continuous: false, pts_open: true })).toBe(true);
    expect(venueOpen('pts', { continuous: true, pts_open: false })).toBe(false);
  });

  it('the PTS opens next at 8:20 on a business day, past weekends and holidays', () => {
    expect(nextPtsOpen(tokyo('2026-11-24', '07:00'))).toEqual(tokyo('2026-11-24', '08:20'));
    expect(nextPtsOpen(tokyo('2026-11-24', '08:20'))).toEqual(tokyo('2026-11-25', '08:20'));
    // Saturday, then the Monday holiday: Tuesday.
    expect(nextPtsOpen(tokyo('2026-11-21', '12:00'))).toEqual(tokyo('2026-11-24', '08:20'));
  });

  it('a PTS application expires at 16:00 of the session it waits for', () => {
    expect(ptsSessionEnd(tokyo('2026-11-24', '10:00'))).toEqual(tokyo('2026-11-24', '16:00'));
    expect(ptsSessionEnd(tokyo('2026-11-24', '16:00'))).toEqual(tokyo('2026-11-25', '16:00'));
    expect(ptsSessionEnd(tokyo('2026-11-22', '09:00'))).toEqual(tokyo('2026-11-24', '16:00'));
  });

  it('a waiting order fills from its venue next open, or now while it is open', () => {
    expect(fillsFrom(tokyoMarket, tokyo('2026-11-24', '10:00'))).toBeNull();
    expect(fillsFrom(tokyoMarket, tokyo('2026-11-24', '10:00'), 'pts')).toBeNull();
    expect(fillsFrom(tokyoMarket, tokyo('2026-11-24', '08:30'), 'pts')).toBeNull();
    expect(fillsFrom(tokyoMarket, tokyo('2026-11-24', '08:30'))).toEqual(tokyo('2026-11-24', '09:00'));
    expect(fillsFrom(tokyoMarket, tokyo('2026-11-24', '17:00'), 'pts')).toEqual(tokyo('2026-11-25', '08:20'));
    expect(fillsFrom({ clockMode: 'always-open' }, tokyo('2026-11-22', '03:00'))).toBeNull();
  });
});
