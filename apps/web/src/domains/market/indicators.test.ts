/* eslint-disable @typescript-eslint/no-unsafe-class-instance-assignment --
   technicalindicators declares its inputs as classes, but its documented calling form is a plain object
   (`SMA.calculate({ period, values })`); the classes add nothing but their fields. */
import fc from 'fast-check';
import { BollingerBands, EMA, IchimokuCloud, MACD, RSI, SMA } from 'technicalindicators';
import { describe, expect, it } from 'vitest';
import { bollinger, ema, ichimoku, macd, rsi, sma, type Series } from './indicators';

/** The defined tail of a series (what technicalindicators returns: only the values it can compute). */
const defined = (s: Series) => s.filter((v): v is number => v !== null);
const close = (a: number, b: number, tolerance = 1e-6) =>
  Math.abs(a - b) <= tolerance * Math.max(1, Math.abs(b));

/** Random price series: a positive walk of 1 to 160 bars (in sen, like the charts pass them). */
const arbPrices = fc
  .tuple(
    fc.integer({ min: 1_000, max: 1_000_000 }),
    fc.array(fc.double({ min: -0.05, max: 0.05, noNaN: true }), { minLength: 1, maxLength: 160 }),
  )
  .map(([start, steps]) => {
    const out: number[] = [];
    let p = start;
    for (const s of steps) {
      p = Math.max(1, Math.round(p * (1 + s)));
      out.push(p);
    }
    return out;
  });

describe('indicators on a small hand-checked series', () => {
  const v = [1, 2, 3, 4, 5, 6];

  it('SMA and EMA', () => {
    expect(sma(v, 3)).toEqual([null, null, 2, 3, 4, 5]);
    // seeded with SMA(3) = 2 at the third bar, then k = 0.5: 3, 4, 5
    expect(ema(v, 3)).toEqual([null, null, 2, 3, 4, 5]);
    expect(ema([2, 4, 10], 2)).toEqual([null, 3, 3 + (10 - 3) * (2 / 3)]);
  });

  it('Bollinger Bands: the SMA ± 2 population standard deviations', () => {
    const b = bollinger([1, 2, 3], 3, 2);
    const sd = Math.sqrt(2 / 3);
    expect(b.middle).toEqual([null, null, 2]);
    expect(b.upper[2]).toBeCloseTo(2 + 2 * sd, 12);
    expect(b.lower[2]).toBeCloseTo(2 - 2 * sd, 12);
  });

  it("RSI with Wilder's smoothing: 50 after one up and one down, then 75", () => {
    expect(rsi([1, 2, 1, 2], 2)).toEqual([null, null, 50, 75]);
    expect(rsi([1, 2, 3], 2)).toEqual([null, null, 100]);
  });

  it('MACD: the fast EMA less the slow, its signal and histogram', () => {
    const m = macd([1, 2, 3, 4, 5, 6], 2, 3, 2);
    // EMA2: [null, 1.5, 2.5, 3.5, 4.5, 5.5]; EMA3: [null, null, 2, 3, 4, 5]; MACD 0.5 from the third bar
    expect(m.macd).toEqual([null, null, 0.5, 0.5, 0.5, 0.5]);
    expect(m.signal).toEqual([null, null, null, 0.5, 0.5, 0.5]);
    expect(m.histogram).toEqual([null, null, null, 0, 0, 0]);
  });

  it('一目均衡表: midpoints of the highest high and lowest low', () => {
    const i = ichimoku([3, 5, 4, 6], [1, 2, 2, 3], [2, 4, 3, 5], 2, 3, 4);
    expect(i.conversion).toEqual([null, 3, 3.5, 4]);
    expect(i.base).toEqual([null, null, 3, 4]);
    expect(i.spanA).toEqual([null, null, 3.25, 4]);
    expect(i.spanB).toEqual([null, null, null, 3.5]);
    expect(i.lagging).toEqual([2, 4, 3, 5]);
  });
});

describe('indicators agree with the technicalindicators package on random series', () => {
  it('SMA(5, 25, 75) and EMA(12)', () => {
    fc.assert(
      fc.property(arbPrices, (values) => {
        for (const n of [5, 25, 75]) {
          const mine = defined(sma(values, n));
          const theirs = SMA.calculate({ period: n, values });
          if (mine.length !== theirs.length || !mine.every((x, i) => close(x, theirs[i] ?? NaN)))
            return false;
        }
        const mine = defined(ema(values, 12));
        const theirs = EMA.calculate({ period: 12, values });
        return mine.length === theirs.length && mine.every((x, i) => close(x, theirs[i] ?? NaN));
      }),
    );
  });

  it('Bollinger Bands (20, 2)', () => {
    fc.assert(
      fc.property(arbPrices, (values) => {
        const mine = bollinger(values, 20, 2);
        const theirs = BollingerBands.calculate({ period: 20, values, stdDev: 2 });
        const up = defined(mine.upper);
        const low = defined(mine.lower);
        return (
          up.length === theirs.length &&
          theirs.every((t, i) => close(up[i] ?? NaN, t.upper) && close(low[i] ?? NaN, t.lower))
        );
      }),
    );
  });

  it('MACD (12, 26, 9) with exponential averages', () => {
    fc.assert(
      fc.property(arbPrices, (values) => {
        const mine = macd(values, 12, 26, 9);
        const theirs = MACD.calculate({
          values,
          fastPeriod: 12,
          slowPeriod: 26,
          signalPeriod: 9,
          SimpleMAOscillator: false,
          SimpleMASignal: false,
        });
        const line = defined(mine.macd);
        const offset = values.length - line.length;
        return (
          line.length === theirs.length &&
          theirs.every((t, i) => {
            const signal = mine.signal[offset + i] ?? null;
            const lineOk = close(line[i] ?? NaN, t.MACD ?? NaN, 1e-6);
            if (t.signal === undefined) return lineOk && signal === null;
            return lineOk && signal !== null && close(signal, t.signal, 1e-6);
          })
        );
      }),
    );
  });

  it('RSI (14), which the package rounds to two decimals', () => {
    fc.assert(
      fc.property(arbPrices, (values) => {
        const mine = defined(rsi(values, 14));
        const theirs = RSI.calculate({ period: 14, values });
        return (
          mine.length === theirs.length && mine.every((x, i) => Math.abs(x - (theirs[i] ?? NaN)) <= 0.0051)
        );
      }),
    );
  });

  it('一目均衡表 (9, 26, 52), compared where the package computes it (from the 52nd bar)', () => {
    fc.assert(
      fc.property(
        arbPrices,
        fc.array(fc.integer({ min: 0, max: 500 }), { maxLength: 160 }),
        (values, wiggle) => {
          const high = values.map((v, i) => v + (wiggle[i] ?? 7));
          const low = values.map((v, i) =>
            Math.max(1, v - (wiggle[(i + 1) % Math.max(1, wiggle.length)] ?? 3)),
          );
          const mine = ichimoku(high, low, values);
          const theirs = IchimokuCloud.calculate({
            high,
            low,
            conversionPeriod: 9,
            basePeriod: 26,
            spanPeriod: 52,
            displacement: 26,
          });
          const first = 51;
          return (
            theirs.length === Math.max(0, values.length - first) &&
            theirs.every(
              (t, i) =>
                close(mine.conversion[first + i] ?? NaN, t.conversion) &&
                close(mine.base[first + i] ?? NaN, t.base) &&
                close(mine.spanA[first + i] ?? NaN, t.spanA) &&
                close(mine.spanB[first + i] ?? NaN, t.spanB),
            )
          );
        },
      ),
    );
  });
});
