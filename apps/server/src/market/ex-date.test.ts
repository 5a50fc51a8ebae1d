import { describe, expect, it } from 'vitest';
import { FixedClock } from '../lib/clock.js';
import { referenceData } from './instruments.js';
import { priceLimits } from './limits.js';
import type { PriceAdjustment } from './provider.js';
import { MarketSimulator } from './simulator.js';

/**
 * The ex-date price drop (issue 17, ADR 0027): a published dividend lowers the stock's base price (基準値段)
 * on its ex date (権利落ち日) to the previous close less the dividend, as a scenario with a fixed clock.
 */

const tokyo = (dateTime: string): Date => new Date(`${dateTime.replace(' ', 'T')}+09:00`);
const data = referenceData();
const CODE = '7203';
const T500 = data.byCode.get(CODE)?.is_topix500 ?? false;
/** record date Wed 2026-02-12 → cum date Mon 2026-02-09, ex date Tue 2026-02-10 (02-11 is a holiday) */
const CUM = '2026-02-09';
const EX = '2026-02-10';
const DIVIDEND = 5_000; // ¥50 a share, in sen
const ADJUSTMENTS: PriceAdjustment[] = [
  { code: CODE, exDate: EX, amount: DIVIDEND as PriceAdjustment['amount'] },
];

function simAt(at: string, adjustments: readonly PriceAdjustment[] = ADJUSTMENTS): MarketSimulator {
  return new MarketSimulator({ seed: 42, clock: new FixedClock(tokyo(at)), adjustments });
}

function closeOn(sim: MarketSimulator, date: string): number {
  const bar = sim.barsNow(CODE, '1d', { limit: 10 }).find((b) => b.date === date);
  if (!bar) throw new Error(`no bar on ${date}`);
  return bar.close;
}

describe('the ex-date price drop', () => {
  it('opens the ex date from the cum date close less the dividend, with limits from that base', () => {
    const sim = simAt(`${EX} 09:00:30`);
    const cumClose = closeOn(sim, CUM);
    const quote = sim.quote(CODE);
    const base = cumClose - DIVIDEND;
    const limits = priceLimits(base, T500);
    expect(quote).toMatchObject({
      trading_date: EX,
      prev_close: base,
      change: (quote?.last ?? 0) - base,
      limit_up: limits.upper,
      limit_down: limits.lower,
    });
    // without the dividend the same day is measured from the cum date's close
    const plain = simAt(`${EX} 09:00:30`, []);
    expect(closeOn(plain, CUM)).toBe(cumClose);
    expect(plain.quote(CODE)?.prev_close).toBe(cumClose);
    expect(plain.quote(CODE)?.limit_up).toBe(priceLimits(cumClose, T500).upper);
  });

  it('draws the drop on the chart: the ex date and every day after it are lower, the days before are not', () => {
    const adjusted = simAt('2026-02-13 15:30');
    const plain = simAt('2026-02-13 15:30', []);
    const a = adjusted.barsNow(CODE, '1d', { limit: 8 });
    const p = plain.barsNow(CODE, '1d', { limit: 8 });
    expect(a.map((b) => b.date)).toEqual(p.map((b) => b.date));
    for (const [i, bar] of a.entries()) {
      const other = p[i];
      if (!other) throw new Error('missing bar');
      if (bar.date < EX) expect(bar).toEqual(other);
      else {
        expect(bar.open).toBeLessThan(other.open);
        expect(bar.close).toBeLessThan(other.close);
      }
    }
    // the ex date's bar stays within the limits of its base, on the day's intraday path
    const ex = a.find((b) => b.date === EX);
    const base = closeOn(adjusted, CUM) - DIVIDEND;
    const { lower, upper } = priceLimits(base, T500);
    expect(ex?.low).toBeGreaterThanOrEqual(lower);
    expect(ex?.high).toBeLessThanOrEqual(upper);
    const later = adjusted.barsNow(CODE, '1d', { limit: 8 }).find((b) => b.date === '2026-02-12');
    expect(later?.open).toBeLessThan(p.find((b) => b.date === '2026-02-12')?.open ?? 0);
  });

  it('agrees across bars, quote and board on the ex date', () => {
    const sim = simAt(`${EX} 10:15:20`);
    const quote = sim.quote(CODE);
    const board = sim.board(CODE);
    const today = sim.barsNow(CODE, '1d', { limit: 1 })[0];
    const minutes = sim.barsNow(CODE, 'intraday');
    expect(today).toMatchObject({ date: EX, open: quote?.open, close: quote?.last });
    expect(minutes[0]?.open).toBe(quote?.open);
    expect(minutes[minutes.length - 1]?.close).toBe(quote?.last);
    for (const level of [...(board?.asks ?? []), ...(board?.bids ?? [])]) {
      expect(level.price).toBeGreaterThanOrEqual(quote?.limit_down ?? Infinity);
      expect(level.price).toBeLessThanOrEqual(quote?.limit_up ?? 0);
    }
  });

  it('recomputes a running simulator when a dividend is published, and only that stock', () => {
    const sim = simAt(`${EX} 11:00`, []);
    const before = sim.quote(CODE);
    const other = sim.quote('9984');
    sim.setPriceAdjustments(ADJUSTMENTS);
    expect(sim.quote(CODE)).toEqual(simAt(`${EX} 11:00`).quote(CODE));
    expect(sim.quote(CODE)?.prev_close).toBe((before?.prev_close ?? 0) - DIVIDEND);
    expect(sim.quote('9984')).toEqual(other);
    sim.setPriceAdjustments([]);
    expect(sim.quote(CODE)).toEqual(before);
  });

  it('leaves the calibration anchors in place when an ex date falls before them', () => {
    const sim = simAt('2026-02-06 15:30', [
      { code: CODE, exDate: '2026-02-04', amount: DIVIDEND as PriceAdjustment['amount'] },
    ]);
    const cal = data.calibration.get(CODE);
    const bars = sim.barsNow(CODE, '1d', { limit: 4 });
    expect(bars.at(-1)?.close).toBe(cal?.ref_close);
    expect(bars.at(-2)?.close).toBe(cal?.prev_close);
    const cum = bars.find((b) => b.date === '2026-02-03');
    const ex = bars.find((b) => b.date === '2026-02-04');
    const { lower, upper } = priceLimits((cum?.close ?? 0) - DIVIDEND, T500);
    expect(ex?.close).toBeGreaterThanOrEqual(lower);
    expect(ex?.close).toBeLessThanOrEqual(upper);
  });
});
