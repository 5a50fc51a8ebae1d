import { describe, expect, it } from 'vitest';
import {
  CONTINUOUS_MINUTES,
  marketPosition,
  nextOpen,
  parseMarketClockMode,
  PTS_HOURS,
  previousClose,
  sessionMinuteToClock,
  sessionState,
} from './sessions.js';

/** An instant given as Tokyo wall-clock time. */
const tokyo = (dateTime: string): Date => new Date(`${dateTime.replace(' ', 'T')}+09:00`);

describe('sessionState (Tokyo clock)', () => {
  it.each([
    ['2026-02-06 07:59', 'closed', false],
    ['2026-02-06 08:00', 'pre_open', false],
    ['2026-02-06 08:19', 'pre_open', false],
    ['2026-02-06 08:20', 'pre_open', true],
    ['2026-02-06 08:59:59', 'pre_open', true],
    ['2026-02-06 09:00', 'morning', true],
    ['2026-02-06 11:29:59', 'morning', true],
    ['2026-02-06 11:30', 'lunch', true],
    ['2026-02-06 12:29:59', 'lunch', true],
    ['2026-02-06 12:30', 'afternoon', true],
    ['2026-02-06 15:24:59', 'afternoon', true],
    ['2026-02-06 15:25', 'closing_auction', true],
    ['2026-02-06 15:29:59', 'closing_auction', true],
    ['2026-02-06 15:30', 'closed', true],
    ['2026-02-06 15:59', 'closed', true],
    ['2026-02-06 16:00', 'closed', false],
    ['2026-02-07 10:00', 'closed', false], // Saturday
    ['2026-02-08 10:00', 'closed', false], // Sunday
    ['2026-01-02 10:00', 'closed', false], // New Year closure
    ['2025-12-31 10:00', 'closed', false], // year-end closure
    ['2026-02-11 10:00', 'closed', false], // national holiday
  ])('%s → %s, PTS open %s', (at, state, pts) => {
    const status = sessionState(tokyo(at));
    expect(status.state).toBe(state);
    expect(status.pts_open).toBe(pts);
    expect(status.continuous).toBe(state === 'morning' || state === 'afternoon');
    expect(status.always_open).toBe(false);
  });

  it('names the session an order placed now waits for', () => {
    expect(sessionState(tokyo('2026-02-06 12:00')).trading_date).toBe('2026-02-06');
    expect(sessionState(tokyo('2026-02-06 15:30')).trading_date).toBe('2026-02-09');
    expect(sessionState(tokyo('2025-12-30 16:00')).trading_date).toBe('2026-01-05');
    expect(sessionState(tokyo('2026-01-02 10:00')).date).toBe('2026-01-02');
  });

  it('keeps the PTS hours in one constant', () => {
    expect(PTS_HOURS).toEqual({ open: 8 * 60 + 20, close: 16 * 60 });
  });
});

describe('sessionState (always open)', () => {
  it.each(['2026-02-07 03:00', '2026-01-01 23:59', '2026-02-06 12:00', '2026-02-06 20:00'])(
    '%s is in session',
    (at) => {
      const status = sessionState(tokyo(at), { mode: 'always-open' });
      expect(status.continuous).toBe(true);
      expect(status.always_open).toBe(true);
      expect(status.pts_open).toBe(true);
      expect(['morning', 'afternoon']).toContain(status.state);
    },
  );
});

describe('nextOpen and previousClose', () => {
  it.each([
    ['2026-02-06 08:59', '2026-02-06 09:00', '2026-02-05 15:30'],
    ['2026-02-06 09:00', '2026-02-06 12:30', '2026-02-05 15:30'],
    ['2026-02-06 11:30', '2026-02-06 12:30', '2026-02-05 15:30'],
    ['2026-02-06 12:30', '2026-02-09 09:00', '2026-02-05 15:30'],
    ['2026-02-06 15:29', '2026-02-09 09:00', '2026-02-05 15:30'],
    ['2026-02-06 15:30', '2026-02-09 09:00', '2026-02-06 15:30'],
    ['2026-02-07 10:00', '2026-02-09 09:00', '2026-02-06 15:30'],
    ['2025-12-30 16:00', '2026-01-05 09:00', '2025-12-30 15:30'],
    ['2026-01-02 10:00', '2026-01-05 09:00', '2025-12-30 15:30'],
  ])('at %s: next open %s, previous close %s', (at, open, close) => {
    expect(nextOpen(tokyo(at))).toEqual(tokyo(open));
    expect(previousClose(tokyo(at))).toEqual(tokyo(close));
  });

  it('in always-open mode the market is open now', () => {
    const at = tokyo('2026-02-07 03:00');
    expect(nextOpen(at, { mode: 'always-open' })).toEqual(at);
    expect(previousClose(at, { mode: 'always-open' })).toEqual(tokyo('2026-02-06 00:00'));
  });
});

describe('marketPosition', () => {
  it.each([
    ['2026-02-06 08:59', '2026-02-05', CONTINUOUS_MINUTES, null, true, '2026-02-05 15:30'],
    ['2026-02-06 09:00', '2026-02-06', 0, 0, false, '2026-02-06 09:00'],
    ['2026-02-06 09:00:42.5', '2026-02-06', 0, 42, false, '2026-02-06 09:00:42'],
    ['2026-02-06 11:29:59', '2026-02-06', 149, 59, false, '2026-02-06 11:29:59'],
    ['2026-02-06 11:30', '2026-02-06', 150, null, false, '2026-02-06 11:30'],
    ['2026-02-06 12:29', '2026-02-06', 150, null, false, '2026-02-06 11:30'],
    ['2026-02-06 12:30', '2026-02-06', 150, 0, false, '2026-02-06 12:30'],
    ['2026-02-06 15:24:30', '2026-02-06', 324, 30, false, '2026-02-06 15:24:30'],
    ['2026-02-06 15:25', '2026-02-06', 325, null, false, '2026-02-06 15:25'],
    ['2026-02-06 15:30', '2026-02-06', 325, null, true, '2026-02-06 15:30'],
    ['2026-02-08 15:00', '2026-02-06', 325, null, true, '2026-02-06 15:30'],
  ])('%s → %s, %i minutes, second %s, closed %s', (at, date, minutes, second, closed, asOf) => {
    const pos = marketPosition(tokyo(at));
    expect(pos).toEqual({
      date,
      completedMinutes: minutes,
      second,
      closed,
      asOf: tokyo(asOf),
    });
  });

  it('always-open stretches a session over the span to the next business day', () => {
    const opts = { mode: 'always-open' as const };
    const friday = marketPosition(tokyo('2026-02-06 00:00'), opts);
    expect(friday).toMatchObject({ date: '2026-02-06', completedMinutes: 0, second: 0, closed: false });
    // Friday's session lasts until Monday 0:00: Sunday noon is 5/6 of the way
    const sunday = marketPosition(tokyo('2026-02-08 12:00'), opts);
    expect(sunday.date).toBe('2026-02-06');
    expect(sunday.completedMinutes).toBe(Math.floor((CONTINUOUS_MINUTES * 5) / 6));
    const lastSecond = marketPosition(tokyo('2026-02-08 23:59:59.999'), opts);
    expect(lastSecond).toMatchObject({ completedMinutes: CONTINUOUS_MINUTES - 1, second: 59 });
    expect(marketPosition(tokyo('2026-02-09 00:00'), opts)).toMatchObject({
      date: '2026-02-09',
      completedMinutes: 0,
    });
  });

  it('always-open positions never go backwards', () => {
    const opts = { mode: 'always-open' as const };
    let previous = -1;
    const start = tokyo('2026-02-05 00:00').getTime();
    for (let t = start; t < start + 5 * 86_400_000; t += 7 * 60_000) {
      const pos = marketPosition(new Date(t), opts);
      const rank =
        Number(pos.date.replaceAll('-', '')) * 100_000 + pos.completedMinutes * 60 + (pos.second ?? 0);
      expect(rank).toBeGreaterThanOrEqual(previous);
      previous = rank;
    }
  });
});

describe('helpers', () => {
  it('maps session minutes to clock minutes', () => {
    expect(sessionMinuteToClock(0)).toBe(9 * 60);
    expect(sessionMinuteToClock(149)).toBe(11 * 60 + 29);
    expect(sessionMinuteToClock(150)).toBe(12 * 60 + 30);
    expect(sessionMinuteToClock(CONTINUOUS_MINUTES - 1)).toBe(15 * 60 + 24);
  });

  it('parses MARKET_CLOCK', () => {
    expect(parseMarketClockMode(undefined)).toBe('tokyo');
    expect(parseMarketClockMode('tokyo')).toBe('tokyo');
    expect(parseMarketClockMode('always-open')).toBe('always-open');
    expect(() => parseMarketClockMode('open')).toThrow(RangeError);
  });
});
