import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BOARD_DEPTH, isValidTick, sen, tickDown, tickUp } from '@kabuto/contract';
import { FixedClock } from '../lib/clock.js';
import { averagePrice, depthWithin, walkBook } from './board.js';
import type { BoardLevel } from './provider.js';
import { referenceData } from './instruments.js';
import { MarketSimulator } from './simulator.js';

const tokyo = (dateTime: string): Date => new Date(`${dateTime.replace(' ', 'T')}+09:00`);
const data = referenceData();
const isT500 = (code: string): boolean => data.byCode.get(code)?.is_topix500 ?? false;
/** Stocks across the tick tables: 0.1-yen, 0.5-yen, 1-yen, 10-yen TOPIX500 ticks and other stocks. */
const SAMPLE = ['9432', '7203', '9984', '9983', '6146', '7205', '7004', '6103'];

function simAt(at: string, seed = 42): MarketSimulator {
  return new MarketSimulator({ seed, clock: new FixedClock(tokyo(at)) });
}

describe('the simulated order book (板)', () => {
  it('shows ten levels a side, one tick apart from the quote’s ask and bid, in lots, within the limits', () => {
    const sim = simAt('2026-11-24 10:15:07');
    for (const code of SAMPLE) {
      const quote = sim.quote(code);
      const board = sim.board(code);
      if (!quote || !board) throw new Error(`no book for ${code}`);
      const t5 = isT500(code);
      expect(board).toMatchObject({ code, last: quote.last, simulated: true, time: quote.time });
      expect(board.asks).toHaveLength(BOARD_DEPTH);
      expect(board.bids).toHaveLength(BOARD_DEPTH);
      expect(board.asks[0]?.price).toBe(quote.ask);
      expect(board.bids[0]?.price).toBe(quote.bid);
      for (let i = 1; i < BOARD_DEPTH; i++) {
        expect(board.asks[i]?.price).toBe(tickUp(board.asks[i - 1]?.price ?? 0, t5));
        expect(board.bids[i]?.price).toBe(tickDown(board.bids[i - 1]?.price ?? 0, t5));
      }
      for (const level of [...board.asks, ...board.bids]) {
        expect(isValidTick(level.price, t5)).toBe(true);
        expect(level.price).toBeGreaterThanOrEqual(quote.limit_down);
        expect(level.price).toBeLessThanOrEqual(quote.limit_up);
        expect(level.quantity % 100).toBe(0);
        expect(level.quantity).toBeGreaterThanOrEqual(100);
      }
      expect(board.over % 100).toBe(0);
      expect(board.under % 100).toBe(0);
    }
  });

  it('is the same for the same seed and time, and moves with the price', () => {
    const a = simAt('2026-11-24 10:15:07').board('7203');
    const b = simAt('2026-11-24 10:15:07').board('7203');
    const other = simAt('2026-11-24 10:15:07', 7).board('7203');
    expect(a).toEqual(b);
    expect(other).not.toEqual(a);
    const later = simAt('2026-11-24 13:40:00').board('7203');
    expect(later?.asks.map((l) => l.price)).not.toEqual(a?.asks.map((l) => l.price));
  });

  it('queues more away from the touch, and more for a liquid stock than for a thin one', () => {
    // Averaged over a session's minutes: the tenth level holds more than the first.
    let first = 0;
    let tenth = 0;
    for (let m = 0; m < 60; m++) {
      const at = `2026-11-24 ${String(9 + Math.floor(m / 30)).padStart(2, '0')}:${String((m * 2) % 60).padStart(2, '0')}:10`;
      const board = simAt(at).board('7203');
      first += (board?.asks[0]?.quantity ?? 0) + (board?.bids[0]?.quantity ?? 0);
      tenth += (board?.asks[9]?.quantity ?? 0) + (board?.bids[9]?.quantity ?? 0);
    }
    expect(tenth).toBeGreaterThan(first);
    const sim = simAt('2026-11-24 10:15:07');
    const touch = (code: string) => (sim.board(code)?.asks ?? []).reduce((s, l) => s + l.quantity, 0);
    const volume = (code: string) => data.calibration.get(code)?.avg_volume_60d ?? 0;
    const [liquid, thin] = [...data.calibration.values()]
      .map((c) => c.code)
      .sort((x, y) => volume(y) - volume(x))
      .filter((_, i, all) => i === 0 || i === all.length - 1);
    expect(touch(liquid ?? '')).toBeGreaterThan(touch(thin ?? ''));
  });

  it('shows no level beyond the day’s limit: at ストップ高 the ask side is short', () => {
    const sim = simAt('2026-11-24 10:15:07');
    for (const code of data.calibration.keys()) {
      const board = sim.board(code);
      const quote = sim.quote(code);
      if (!board || !quote) continue;
      for (const level of board.asks) expect(level.price).toBeLessThanOrEqual(quote.limit_up);
      for (const level of board.bids) expect(level.price).toBeGreaterThanOrEqual(quote.limit_down);
      if (board.asks.length < BOARD_DEPTH) expect(board.over).toBe(0);
      if (board.bids.length < BOARD_DEPTH) expect(board.under).toBe(0);
    }
  });
});

/** A side of a book: ten levels one yen apart from `touch` (sen), with these sizes. */
function side(touch: number, sizes: number[], dir: 1 | -1): BoardLevel[] {
  return sizes.map((quantity, i) => ({ price: sen(touch + dir * i * 100), quantity }));
}

describe('executing against the book', () => {
  const asks = side(310_100, [300, 500, 1_000, 1_000, 2_000, 2_000, 3_000, 3_000, 5_000, 5_000], 1);
  const bids = side(309_900, [200, 400, 1_000, 1_000, 2_000, 2_000, 3_000, 3_000, 5_000, 5_000], -1);

  it('fills a small market buy at the best ask', () => {
    expect(walkBook(asks, 300, 'buy', null)).toEqual({
      principal: 310_100 * 300,
      price: 310_100,
      fills: [{ price: 310_100, quantity: 300 }],
    });
  });

  it('walks three levels for a larger buy: ¥3,101 × 300 + ¥3,102 × 500 + ¥3,103 × 200', () => {
    const fill = walkBook(asks, 1_000, 'buy', null);
    expect(fill?.fills).toEqual([
      { price: 310_100, quantity: 300 },
      { price: 310_200, quantity: 500 },
      { price: 310_300, quantity: 200 },
    ]);
    // ¥930,300 + ¥1,551,000 + ¥620,600 = ¥3,101,900: the average ¥3,101.90
    expect(fill?.principal).toBe(310_190_000);
    expect(fill?.price).toBe(310_190);
  });

  it('keeps the principal exact and rounds an average that is not a whole sen half up', () => {
    // 200 @ ¥3,099 + 100 @ ¥3,098 = ¥929,600 over 300 shares = ¥3,098.6666…: shown ¥3,098.67
    const fill = walkBook(bids, 300, 'sell', null);
    expect(fill?.principal).toBe(92_960_000);
    expect(fill?.price).toBe(309_867);
    expect(averagePrice(5, 2)).toBe(3); // 2.5 sen → 3
    expect(averagePrice(7, 3)).toBe(2); // 2.33 sen → 2
  });

  it('takes nothing past a limit: a limit buy the levels within its price cannot fill waits whole', () => {
    expect(walkBook(asks, 800, 'buy', 310_200)?.price).toBe(310_163); // (930,300 + 1,551,000)/800
    expect(walkBook(asks, 900, 'buy', 310_200)).toBeNull();
    expect(walkBook(bids, 600, 'sell', 309_800)?.principal).toBe(309_900 * 200 + 309_800 * 400);
    expect(walkBook(bids, 601, 'sell', 309_800)).toBeNull();
  });

  it('refuses (null) an order larger than the ten levels hold', () => {
    expect(depthWithin(asks, 'buy', null)).toBe(22_800);
    expect(walkBook(asks, 22_800, 'buy', null)).not.toBeNull();
    expect(walkBook(asks, 22_900, 'buy', null)).toBeNull();
  });
});

const arbSide = fc
  .tuple(
    fc.integer({ min: 1_000, max: 500_000 }),
    fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: BOARD_DEPTH }),
    fc.integer({ min: 1, max: 1_000 }),
  )
  .map(([touch, lots, tick]) => ({
    touch,
    tick,
    levels: lots.map((l, i) => ({ price: sen(touch + i * tick), quantity: l * 100 })),
  }));

describe('properties of the walk', () => {
  it('principal = Σ level price × shares, shares add up, and the average is principal ÷ shares to the sen', () => {
    fc.assert(
      fc.property(arbSide, fc.integer({ min: 1, max: 500 }), ({ levels }, lots) => {
        const quantity = lots * 100;
        const fill = walkBook(levels, quantity, 'buy', null);
        if (fill === null) return depthWithin(levels, 'buy', null) < quantity;
        const sum = fill.fills.reduce((s, f) => s + f.price * f.quantity, 0);
        const shares = fill.fills.reduce((s, f) => s + f.quantity, 0);
        return (
          fill.principal === sum &&
          shares === quantity &&
          Math.abs(fill.price * quantity - fill.principal) * 2 <= quantity
        );
      }),
    );
  });

  it('the average buy price never falls as the order grows (nor the average sell price rises)', () => {
    fc.assert(
      fc.property(arbSide, fc.integer({ min: 1, max: 500 }), ({ levels }, lots) => {
        const small = walkBook(levels, lots * 100, 'buy', null);
        const big = walkBook(levels, (lots + 1) * 100, 'buy', null);
        if (small === null || big === null) return true;
        // compared exactly: principal per share, cross-multiplied
        return big.principal * (lots * 100) >= small.principal * ((lots + 1) * 100);
      }),
    );
    fc.assert(
      fc.property(arbSide, fc.integer({ min: 1, max: 500 }), ({ levels }, lots) => {
        const down = levels.map((l, i) => ({ ...l, price: sen((levels[0]?.price ?? 0) - i * 10) }));
        const small = walkBook(down, lots * 100, 'sell', null);
        const big = walkBook(down, (lots + 1) * 100, 'sell', null);
        if (small === null || big === null) return true;
        return big.principal * (lots * 100) <= small.principal * ((lots + 1) * 100);
      }),
    );
  });

  it('never fills beyond the limit, nor beyond the day’s limits of a simulated book', () => {
    fc.assert(
      fc.property(
        arbSide,
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 0, max: 12 }),
        ({ levels, touch, tick }, lots, steps) => {
          const limit = touch + steps * tick;
          const fill = walkBook(levels, lots * 100, 'buy', limit);
          return fill === null || fill.fills.every((f) => f.price <= limit);
        },
      ),
    );
    const sim = simAt('2026-11-24 14:05:33');
    fc.assert(
      fc.property(
        fc.constantFrom(...SAMPLE),
        fc.integer({ min: 1, max: 2_000 }),
        fc.boolean(),
        (code, lots, buy) => {
          const board = sim.board(code);
          const quote = sim.quote(code);
          if (!board || !quote) return false;
          const fill = walkBook(buy ? board.asks : board.bids, lots * 100, buy ? 'buy' : 'sell', null);
          return (
            fill === null || fill.fills.every((f) => f.price >= quote.limit_down && f.price <= quote.limit_up)
          );
        },
      ),
    );
  });
});
