import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NAV_UNITS } from '@kabuto/contract';
import { strikeNav, unitsFor, valueOf } from './nav.js';

/**
 * The rounding rules of ADR 0027 for random amounts, NAVs and price paths. PROPERTY_RUNS sets the runs
 * (200 by default; e.g. `PROPERTY_RUNS=100000 npx vitest run apps/server/src/modules/products/nav.property.test.ts`).
 */
const RUNS = Number(process.env['PROPERTY_RUNS'] ?? 200);

describe('units and values never round against the holder', () => {
  it('a purchase buys every whole unit the amount pays for, costs at most its value, returns the rest', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 1e11 }),
        fc.integer({ min: 1_000, max: 1e8 }),
        (amount, nav) => {
          const { units, cost, refund } = unitsFor(amount, nav);
          expect(cost + refund).toBe(amount);
          expect(refund).toBeGreaterThanOrEqual(0);
          // one more unit would cost more than the amount
          expect(((units + 1) * nav) / NAV_UNITS).toBeGreaterThan(amount);
          // the holder pays no more than the units are worth, and a redemption at the same NAV pays it back
          expect(cost).toBeLessThanOrEqual((units * nav) / NAV_UNITS);
          expect(valueOf(units, nav)).toBeGreaterThanOrEqual(cost);
          expect(valueOf(units, nav) - (units * nav) / NAV_UNITS).toBeLessThan(1);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('Σ holders’ units × NAV equals the fund’s basket value net of fee, within the NAV’s rounding at each strike', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 10_000, max: 1e9 }), { minLength: 1, maxLength: 8 }),
        fc.array(
          fc.tuple(
            fc.double({ min: 0.8, max: 1.2, noNaN: true }),
            fc.double({ min: 0.8, max: 1.2, noNaN: true }),
          ),
          {
            minLength: 1,
            maxLength: 20,
          },
        ),
        (amounts, path) => {
          const constituents = [
            { code: 'A', weight_bp: 6000 },
            { code: 'B', weight_bp: 4000 },
          ];
          const fee = 3650;
          let prev = { A: 1000, B: 1000 };
          let nav = 1_000_000;
          const holdings = amounts.map((a) => unitsFor(a, nav));
          // the fund's own book: the value it holds, rebalanced at each strike, net of the fee
          let fund = holdings.reduce((s, h) => s + (h.units * nav) / NAV_UNITS, 0);
          for (const [ra, rb] of path) {
            const next = { A: prev.A * ra, B: prev.B * rb };
            nav = strikeNav({
              prevNav: nav,
              constituents,
              prevCloses: prev,
              closes: next,
              feePpm: fee,
              days: 1,
            });
            fund = fund * (0.6 * ra + 0.4 * rb) * (1 - fee / (1e6 * 365));
            prev = next;
          }
          const held = holdings.reduce((s, h) => s + (h.units * nav) / NAV_UNITS, 0);
          const units = holdings.reduce((s, h) => s + h.units, 0);
          // NAV is rounded to the sen at each strike: the drift is at most half a sen per 10,000 units per strike
          expect(Math.abs(held - fund)).toBeLessThanOrEqual(
            (units / NAV_UNITS) * 0.5 * path.length * 1.3 ** path.length + 1,
          );
        },
      ),
      { numRuns: RUNS },
    );
  });
});
