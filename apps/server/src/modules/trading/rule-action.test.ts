import { describe, expect, it } from 'vitest';
import { ruleAction } from './rules.js';
import type { PositionRow } from './orders.js';

/** ruleAction decides alone, from a position, the last price, the session and the time (ADR 0010). */
const position = (over: Partial<PositionRow> = {}): PositionRow => ({
  id: 1,
  userId: 1,
  code: '7203',
  direction: 'long',
  leverage: 3,
  dayTrade: false,
  taxAccount: 'specific',
  marginType: 'standard',
  bookValue: 0,
  repayDeadline: null,
  status: 'holding',
  quantity: 100,
  closingQuantity: 0,
  avgPrice: 300_000,
  // a third of ¥300,000 × 100 shares, in sen
  collateral: 10_000_000,
  openedAt: new Date('2026-11-24T01:00:00.000Z'),
  closedAt: null,
  closePrice: null,
  realizedPl: 0,
  parentId: null,
  marginCallAt: null,
  marginCallDeadline: null,
  ...over,
});
const open = { always_open: false, continuous: true };
const closed = { always_open: false, continuous: false };
const at1000 = new Date('2026-11-24T01:00:00.000Z'); // Tue 10:00 Tokyo
const at1524 = new Date('2026-11-24T06:24:00.000Z'); // Tue 15:24 Tokyo

describe('ruleAction', () => {
  it('closes a day trade from 15:24 while the market trades, never before, never in always-open mode', () => {
    const day = position({ dayTrade: true, leverage: 1, marginType: 'cash', collateral: 0 });
    expect(ruleAction(day, 300_000, open, at1000)).toEqual({ kind: 'none' });
    expect(ruleAction(day, 300_000, open, at1524)).toEqual({ kind: 'day_trade_close' });
    expect(ruleAction(day, 300_000, closed, at1524)).toEqual({ kind: 'none' });
    expect(ruleAction(day, 300_000, { always_open: true, continuous: true }, at1524)).toEqual({
      kind: 'none',
    });
    // one left over from an earlier day goes at the first chance
    const next = new Date('2026-11-25T00:00:00.000Z'); // Wed 9:00 Tokyo
    expect(ruleAction(day, 300_000, open, next)).toEqual({ kind: 'day_trade_close' });
  });

  it('leaves cash positions alone', () => {
    expect(ruleAction(position({ leverage: 1, marginType: 'cash', collateral: 0 }), 1, open, at1000)).toEqual(
      { kind: 'none' },
    );
  });

  it('calls below 20% maintenance, closes at the deadline, and lifts the call when the ratio recovers', () => {
    const p = position();
    // (¥100,000 + (¥2,200 - ¥3,000) × 100) / (¥2,200 × 100) = 9.09%
    expect(ruleAction(p, 220_000, open, at1000)).toEqual({ kind: 'margin_call', ratio: 909 });
    // at ¥2,600: (100,000 - 40,000) / 260,000 = 23.07%, above the line
    expect(ruleAction(p, 260_000, open, at1000)).toEqual({ kind: 'none' });
    const called = position({
      marginCallAt: at1000,
      marginCallDeadline: new Date('2026-11-26T03:00:00.000Z'), // Thu 12:00 Tokyo
    });
    expect(ruleAction(called, 220_000, open, at1524)).toEqual({ kind: 'none' });
    const due = new Date('2026-11-26T03:00:00.000Z');
    expect(ruleAction(called, 220_000, open, due)).toEqual({ kind: 'margin_call_close' });
    expect(ruleAction(called, 220_000, closed, due)).toEqual({ kind: 'none' });
    expect(ruleAction(called, 260_000, open, due)).toEqual({ kind: 'margin_call_met', ratio: 2307 });
  });

  it('treats a short as a margin position: a rise is its loss', () => {
    const short = position({ direction: 'short' });
    // (¥100,000 - (¥3,800 - ¥3,000) × 100) / (¥3,800 × 100) = 5.26%
    expect(ruleAction(short, 380_000, open, at1000)).toEqual({ kind: 'margin_call', ratio: 526 });
  });
});
