import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import {
  closeReasons,
  closedDayTradesToday,
  holdingDayTrades,
  orderStatusLabel,
  reasonLabel,
  tokyoDate,
} from './order-labels';

const t = ((key: string) => key) as unknown as TFunction;

describe('order reason and status labels', () => {
  it('puts the known reason codes into words and keeps an unknown one', () => {
    expect(reasonLabel(t, 'pts_session_ended')).toBe('reasons.pts_session_ended');
    expect(reasonLabel(t, 'day_trade_close')).toBe('reasons.day_trade_close');
    expect(reasonLabel(t, 'margin_call_deadline')).toBe('reasons.margin_call_deadline');
    expect(reasonLabel(t, 'something_else')).toBe('something_else');
    expect(reasonLabel(t, null)).toBeNull();
    expect(reasonLabel(t, '')).toBeNull();
  });

  it('names PTS application statuses applying / success / failed / cancelled', () => {
    expect(orderStatusLabel(t, { venue: 'pts', status: 'pending' })).toBe('pts.status.applying');
    expect(orderStatusLabel(t, { venue: 'pts', status: 'filled' })).toBe('pts.status.success');
    expect(orderStatusLabel(t, { venue: 'pts', status: 'rejected' })).toBe('pts.status.failed');
    expect(orderStatusLabel(t, { venue: 'pts', status: 'cancelled' })).toBe('pts.status.cancelled');
    expect(orderStatusLabel(t, { venue: 'exchange', status: 'pending' })).toBe('orders.status.pending');
  });
});

describe("today's day trades", () => {
  it('takes the Tokyo calendar date', () => {
    expect(tokyoDate('2026-03-02T14:59:00Z')).toBe('2026-03-02');
    expect(tokyoDate('2026-03-02T15:00:00Z')).toBe('2026-03-03');
  });

  it('keeps day-trade positions closed today (Tokyo), latest first', () => {
    const now = new Date('2026-03-03T06:30:00Z'); // 15:30 in Tokyo
    const positions = [
      { id: 1, day_trade: true, closed_at: '2026-03-03T06:24:00Z' },
      { id: 2, day_trade: true, closed_at: '2026-03-02T06:24:00Z' },
      { id: 3, day_trade: false, closed_at: '2026-03-03T05:00:00Z' },
      { id: 4, day_trade: true, closed_at: null },
      { id: 5, day_trade: true, closed_at: '2026-03-02T15:30:00Z' }, // 00:30 on the 3rd in Tokyo
      { id: 6, day_trade: true, closed_at: '2026-03-03T01:00:00Z' },
    ];
    expect(closedDayTradesToday(positions, now).map((p) => p.id)).toEqual([1, 6, 5]);
    expect(holdingDayTrades(positions).map((p) => p.id)).toEqual([1, 2, 4, 5, 6]);
  });

  it('finds the positions closed by rule from their filled close orders', () => {
    const map = closeReasons([
      { kind: 'close', position_id: 1, reason: 'day_trade_close', status: 'filled' },
      { kind: 'close', position_id: 2, reason: null, status: 'filled' },
      { kind: 'open', position_id: 3, reason: 'day_trade_close', status: 'filled' },
      { kind: 'close', position_id: 4, reason: 'margin_call_deadline', status: 'filled' },
      { kind: 'close', position_id: 5, reason: 'day_trade_close', status: 'cancelled' },
    ]);
    expect([...map.entries()]).toEqual([
      [1, 'day_trade_close'],
      [4, 'margin_call_deadline'],
    ]);
  });
});
