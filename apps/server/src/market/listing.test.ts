import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidTick } from '@kabuto/contract';
import { FixedClock } from '../lib/clock.js';
import { tokyoInstant } from '../lib/tokyo-time.js';
import { priceLimits } from './limits.js';
import { firstDayBar, listingKey, type NewListing } from './listing.js';
import { stockGrid } from './price-grid.js';
import { MarketSimulator } from './simulator.js';

/**
 * A listed IPO on the simulated market (ADR 0035): the first day is a function of the offering's id and draw
 * seed alone, on ticks and inside the offer price's limits; the simulator quotes it from its listing day's
 * opening auction, not before, and two simulators (two processes, or one after a restart) agree on it.
 */
const SEED = 'ab'.repeat(32);
const LISTING: NewListing = {
  code: '996B',
  name: 'Kabuto Robotics',
  offeringId: 42,
  seed: SEED,
  offerPrice: 110_000,
  listingDate: '2026-12-01',
  offeredShares: 100_000,
};
const grid = stockGrid(false);

function simulator(
  at: string,
  listings: readonly NewListing[] = [LISTING],
  mode: 'tokyo' | 'always-open' = 'tokyo',
) {
  return new MarketSimulator({
    clock: new FixedClock(at),
    mode,
    universe: 'nikkei225',
    codes: ['7203'],
    listings,
  });
}

describe('the first day of a listing', () => {
  it('is the same for the same offering and seed, and differs with the seed', () => {
    expect(firstDayBar(LISTING, grid)).toEqual(firstDayBar({ ...LISTING }, grid));
    expect(listingKey(42, SEED)).toBe(listingKey(42, SEED));
    const others = Array.from({ length: 8 }, (_, i) =>
      JSON.stringify(firstDayBar({ ...LISTING, seed: i.toString(16).padStart(64, '0') }, grid)),
    );
    expect(new Set(others).size).toBeGreaterThan(1);
    expect(listingKey(43, SEED)).not.toBe(listingKey(42, SEED));
  });

  it('keeps every price on a tick, inside the offer price limits, and whole lots of volume', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: 100, max: 5_000_000 }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.integer({ min: 1, max: 10_000 }),
        (id, offerYenTimes100, seedBytes, units) => {
          const offerPrice = grid.round(offerYenTimes100, 'nearest');
          const l: NewListing = {
            ...LISTING,
            offeringId: id,
            offerPrice,
            seed: Buffer.from(seedBytes).toString('hex'),
            offeredShares: units * 100,
          };
          const bar = firstDayBar(l, grid);
          const { lower, upper } = priceLimits(offerPrice, false);
          for (const p of [bar.open, bar.high, bar.low, bar.close]) {
            expect(isValidTick(p, false)).toBe(true);
            expect(p).toBeGreaterThanOrEqual(lower);
            expect(p).toBeLessThanOrEqual(upper);
          }
          expect(bar.high).toBeGreaterThanOrEqual(Math.max(bar.open, bar.close));
          expect(bar.low).toBeLessThanOrEqual(Math.min(bar.open, bar.close));
          expect(bar.volume % 100).toBe(0);
          expect(bar.volume).toBeGreaterThanOrEqual(100);
        },
      ),
      { numRuns: 2_000 },
    );
  });
});

describe('a listing in the simulator', () => {
  it('has no quote, board or bar before its listing day, nor before 9:00 that day', async () => {
    for (const at of ['2026-11-30T03:00:00Z', tokyoInstant('2026-12-01', 8 * 60 + 59).toISOString()]) {
      const sim = simulator(at);
      expect(sim.quote('996B')).toBeUndefined();
      expect(sim.board('996B')).toBeUndefined();
      expect(await sim.bars('996B', '1d')).toEqual([]);
      expect(await sim.bars('996B', '5m')).toEqual([]);
    }
  });

  it('opens at the first day bar on its listing day, with the offer price as the base and its limits', async () => {
    const sim = simulator(tokyoInstant('2026-12-01', 10 * 60).toISOString());
    const bar = firstDayBar(LISTING, grid);
    const q = sim.quote('996B');
    const limits = priceLimits(LISTING.offerPrice, false);
    expect(q).toMatchObject({
      prev_close: LISTING.offerPrice,
      open: bar.open,
      limit_up: limits.upper,
      limit_down: limits.lower,
      simulated: true,
      trading_date: '2026-12-01',
    });
    expect(sim.codes).toContain('996B');
    expect(sim.priceBasis('996B')).toBe('ipo');
    expect(sim.board('996B')?.bids.length).toBeGreaterThan(0);
    // the first day's minute bars: every price a valid tick inside the limits; the day starts at the open
    const minutes = await sim.bars('996B', '1m');
    expect(minutes[0]?.open).toBe(bar.open);
    for (const m of minutes) {
      for (const p of [m.open, m.high, m.low, m.close]) {
        expect(isValidTick(p, false)).toBe(true);
        expect(p).toBeGreaterThanOrEqual(limits.lower);
        expect(p).toBeLessThanOrEqual(limits.upper);
      }
    }
    const daily = await sim.bars('996B', '1d');
    expect(daily.map((d) => d.date)).toEqual(['2026-12-01']);
  });

  it('is the same path in two simulators, and after a restart that loads the listings again', async () => {
    const at = tokyoInstant('2026-12-01', 13 * 60 + 17).toISOString();
    const a = simulator(at);
    const b = simulator(at, []);
    b.setListings([LISTING]);
    expect(b.quote('996B')).toEqual(a.quote('996B'));
    expect(await b.bars('996B', '1m')).toEqual(await a.bars('996B', '1m'));
    // the day after: closes the first day at the bar's close, then walks on from it
    const next = simulator(tokyoInstant('2026-12-02', 15 * 60 + 40).toISOString());
    const days = await next.bars('996B', '1d');
    expect(days.map((d) => d.date)).toEqual(['2026-12-01', '2026-12-02']);
    expect(days[0]?.close).toBe(firstDayBar(LISTING, grid).close);
    expect(next.quote('996B')?.prev_close).toBe(firstDayBar(LISTING, grid).close);
  });

  it('leaves a code of the reference universe on its own path, and drops a listing no longer given', () => {
    const at = tokyoInstant('2026-12-01', 10 * 60).toISOString();
    const plain = simulator(at, []).quote('7203');
    const sim = simulator(at, [{ ...LISTING, code: '7203' }]);
    expect(sim.quote('7203')).toEqual(plain);
    expect(sim.priceBasis('7203')).toBe('calibrated');
    const other = simulator(at);
    other.setListings([]);
    expect(other.codes).not.toContain('996B');
  });
});
