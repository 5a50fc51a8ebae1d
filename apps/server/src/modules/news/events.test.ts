import { describe, expect, it } from 'vitest';
import type { Quote } from '../../market/provider.js';
import { priceLimits } from '../../market/limits.js';
import { deriveQuoteEvents, MOVERS } from './events.js';

/** A quote at `last` after a session that opened at `prev` (sen), as the market data gives it. */
function quote(code: string, prev: number, last: number, volume = 1000): Quote {
  const limits = priceLimits(prev, false);
  const change = last - prev;
  return {
    code,
    last: last as Quote['last'],
    bid: last as Quote['last'],
    ask: last as Quote['last'],
    open: prev as Quote['last'],
    high: Math.max(prev, last) as Quote['last'],
    low: Math.min(prev, last) as Quote['last'],
    prev_close: prev as Quote['last'],
    volume,
    turnover: (last * volume) as Quote['last'],
    change: change as Quote['last'],
    change_bp: Math.round((change * 10_000) / prev),
    limit_up: limits.upper,
    limit_down: limits.lower,
    trading_date: '2026-11-24',
    time: '2026-11-24T06:00:00.000Z',
    simulated: true,
  };
}

describe('market events derived from a fixed price path (ADR 0029)', () => {
  // previous close 1,000 yen: the daily limit is 300 yen either way (1,300 / 700)
  const path = [
    quote('1001', 100_000, 130_000), // at the upper limit: ストップ高
    quote('1002', 100_000, 70_000), // at the lower limit: ストップ安
    quote('1003', 100_000, 112_000), // +12 %
    quote('1004', 100_000, 105_000), // +5 %
    quote('1005', 100_000, 100_500), // +0.5 %: not a mover
    quote('1006', 100_000, 91_000), // -9 %
    quote('1007', 100_000, 150_000, 0), // no trade today: nothing
  ];
  const events = deriveQuoteEvents(path, (code) => `name ${code}`);
  const of = (kind: string) => events.filter((e) => e.kind === kind).map((e) => e.code);

  it('finds limit-up and limit-down from the day’s limits', () => {
    expect(path[0]?.limit_up).toBe(130_000);
    expect(of('limit_up')).toEqual(['1001']);
    expect(of('limit_down')).toEqual(['1002']);
  });

  it('ranks the movers of at least 1 %, stocks at a limit not counted twice', () => {
    expect(of('top_gainer')).toEqual(['1003', '1004']);
    expect(of('top_loser')).toEqual(['1006']);
    expect(events.find((e) => e.code === '1003')).toEqual({
      kind: 'top_gainer',
      code: '1003',
      name: 'name 1003',
      date: '2026-11-24',
      change_bp: 1200,
      price: 112_000,
    });
  });

  it(`names at most ${MOVERS} gainers`, () => {
    const many = Array.from({ length: 12 }, (_, i) => quote(String(2000 + i), 100_000, 102_000 + i * 1000));
    const top = deriveQuoteEvents(many, (c) => c).filter((e) => e.kind === 'top_gainer');
    expect(top.map((e) => e.code)).toEqual(['2011', '2010', '2009', '2008', '2007']);
  });
});
