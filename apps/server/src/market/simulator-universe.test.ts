import { describe, expect, it } from 'vitest';
import { isValidTick, tickUp } from '@kabuto/contract';
import { FixedClock } from '../lib/clock.js';
import { referenceData, type Instrument } from './instruments.js';
import { priceLimits } from './limits.js';
import type { Bar, MarketEvent } from './provider.js';
import { hashString } from './random.js';
import { MarketSimulator, type SimulatorOptions } from './simulator.js';
import { SIZE_CLASSES, universeParameters, type StockParameters } from './universe.js';

/**
 * The simulator over the wider universes: stocks without a calibration row, whose parameters come from
 * the derivation rule (universe.ts, ADR 0012), follow the same exchange rules as the calibrated ones.
 */
const tokyo = (dateTime: string): Date => new Date(`${dateTime.replace(' ', 'T')}+09:00`);
const data = referenceData();
const SEED = 42;

function simAt(at: string, options: SimulatorOptions = {}): MarketSimulator {
  return new MarketSimulator({ seed: SEED, clock: new FixedClock(tokyo(at)), universe: 'all', ...options });
}

const derived = [...universeParameters('all', data, hashString(String(SEED))).values()].filter(
  (p) => p.basis === 'derived',
);
const instrumentOf = (p: StockParameters): Instrument => {
  const i = data.byCode.get(p.code);
  if (!i) throw new Error(p.code);
  return i;
};

/**
 * A sample of derived stocks covering every TOPIX size class × segment that exists, and every band of
 * both tick tables the derived reference closes fall in (first code in code order of each group).
 */
function sampleCodes(): string[] {
  const groups = new Map<string, string>();
  const band = (yen: number, t5: boolean): string =>
    t5
      ? yen <= 1_000
        ? '0.1'
        : yen <= 3_000
          ? '0.5'
          : yen <= 10_000
            ? '1'
            : '5'
      : yen <= 3_000
        ? '1'
        : yen <= 5_000
          ? '5'
          : '10';
  for (const p of derived) {
    const i = instrumentOf(p);
    for (const key of [
      `${i.topix_size ?? 'none'}|${i.market}`,
      `tick ${band(p.refClose / 100, i.is_topix500)}|${String(i.is_topix500)}`,
    ]) {
      if (!groups.has(key)) groups.set(key, p.code);
    }
  }
  return [...new Set(groups.values())].sort();
}
const SAMPLE = sampleCodes();

function barProblems(code: string, bar: Bar, prevClose: number): string[] {
  const out: string[] = [];
  const t5 = data.byCode.get(code)?.is_topix500 ?? false;
  const { lower, upper } = priceLimits(prevClose, t5);
  for (const key of ['open', 'high', 'low', 'close'] as const) {
    const p = bar[key];
    if (!isValidTick(p, t5)) out.push(`${code} ${bar.time} ${key} ${p} off tick`);
    if (p < lower || p > upper) out.push(`${code} ${bar.time} ${key} ${p} outside ${lower}-${upper}`);
  }
  if (bar.low > Math.min(bar.open, bar.close) || bar.high < Math.max(bar.open, bar.close)) {
    out.push(`${code} ${bar.time} OHLC inconsistent`);
  }
  if (!Number.isSafeInteger(bar.volume) || bar.volume < 0 || bar.volume % 100 !== 0) {
    out.push(`${code} ${bar.time} volume ${bar.volume}`);
  }
  return out;
}

describe('the sample', () => {
  it('covers every size class, segment and tick table', () => {
    const sampled = SAMPLE.map((c) => data.byCode.get(c));
    expect(new Set(sampled.map((i) => i?.topix_size ?? null))).toEqual(new Set(SIZE_CLASSES));
    expect(new Set(sampled.map((i) => i?.market))).toEqual(new Set(['Prime', 'Standard', 'Growth']));
    expect(new Set(sampled.map((i) => i?.is_topix500))).toEqual(new Set([true, false]));
    expect(SAMPLE.length).toBeGreaterThanOrEqual(12);
  });
});

describe('derived stocks follow the exchange rules', () => {
  const sim = simAt('2026-07-31 15:30');

  it('closes at the derived reference close on the calibration date and the previous close the day before', () => {
    const anchored = simAt('2026-02-06 15:30');
    for (const code of SAMPLE) {
      const p = derived.find((d) => d.code === code);
      const [prev, ref] = anchored.barsNow(code, '1d', { limit: 2 });
      expect([prev?.close, ref?.close], code).toEqual([p?.prevClose, p?.refClose]);
    }
  });

  it('keeps every daily price on a valid tick, inside the daily limits, OHLC consistent, volumes in lots', () => {
    const problems: string[] = [];
    for (const code of SAMPLE) {
      const bars = sim.barsNow(code, '1d', { limit: 5000 });
      expect(bars.length).toBeGreaterThan(600);
      for (let i = 1; i < bars.length; i++) {
        const bar = bars[i];
        const prev = bars[i - 1];
        if (bar && prev) problems.push(...barProblems(code, bar, prev.close));
      }
    }
    expect(problems).toEqual([]);
  });

  it('keeps every minute on a tick, inside the limits, and the minutes add up to the day', () => {
    const problems: string[] = [];
    for (const code of SAMPLE) {
      const days = sim.barsNow(code, '1d', { limit: 4 });
      const minutes = sim.barsNow(code, '1m', { limit: 326 * 3 });
      for (let d = 1; d < days.length; d++) {
        const day = days[d];
        const prev = days[d - 1];
        if (!day || !prev) continue;
        const mins = minutes.filter((m) => m.date === day.date);
        expect(mins).toHaveLength(326);
        for (const m of mins) {
          problems.push(...barProblems(code, m, prev.close));
          if (m.high > day.high || m.low < day.low) problems.push(`${code} ${m.time} beyond day`);
        }
        const sum = mins.reduce((s, m) => s + m.volume, 0);
        if (sum !== day.volume)
          problems.push(`${code} ${day.date} minutes trade ${sum}, the day ${day.volume}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('quotes one tick of spread inside the limits, second by second', () => {
    const clock = new FixedClock(tokyo('2026-02-09 10:15:00'));
    const live = new MarketSimulator({ seed: SEED, clock, universe: 'all' });
    for (let s = 0; s < 60; s += 7) {
      clock.set(new Date(tokyo('2026-02-09 10:15:00').getTime() + s * 1000));
      for (const q of live.quotes(SAMPLE)) {
        const t5 = data.byCode.get(q.code)?.is_topix500 ?? false;
        expect([q.bid, q.ask]).toContain(q.last);
        expect(q.ask).toBe(tickUp(q.bid, t5));
        expect(q.bid).toBeGreaterThanOrEqual(q.limit_down);
        expect(q.ask).toBeLessThanOrEqual(q.limit_up);
        expect(q.low).toBeLessThanOrEqual(q.last);
        expect(q.high).toBeGreaterThanOrEqual(q.last);
        expect(q.volume % 100).toBe(0);
        expect(q.volume).toBeGreaterThan(0);
        expect(q.simulated).toBe(true);
      }
    }
  });
});

describe('determinism and the indices', () => {
  it('gives identical quotes and bars for the same seed and clock, whatever the universe', () => {
    const a = simAt('2026-02-09 10:15:30');
    const b = simAt('2026-02-09 10:15:30');
    const topix500 = simAt('2026-02-09 10:15:30', { universe: 'topix500' });
    expect(a.quotes(SAMPLE)).toEqual(b.quotes(SAMPLE));
    for (const code of SAMPLE.slice(0, 4)) {
      expect(a.barsNow(code, '5m', { limit: 200 })).toEqual(b.barsNow(code, '5m', { limit: 200 }));
    }
    const inTopix = SAMPLE.filter((c) => data.byCode.get(c)?.is_topix500);
    expect(inTopix.length).toBeGreaterThan(0);
    expect(topix500.quotes(inTopix)).toEqual(a.quotes(inTopix));
    const other = simAt('2026-02-09 10:15:30', { seed: 43 });
    expect(other.quotes(SAMPLE).map((q) => q.last)).not.toEqual(a.quotes(SAMPLE).map((q) => q.last));
  });

  it('leaves the calibrated stocks and both indices exactly as in the default universe', () => {
    const wide = simAt('2026-02-09 10:15:30');
    const narrow = simAt('2026-02-09 10:15:30', { universe: 'nikkei225' });
    expect(wide.indices()).toEqual(narrow.indices());
    expect(wide.quotes(narrow.codes)).toEqual(narrow.quotes(narrow.codes));
  });

  it('quotes the whole universe and nothing outside it', () => {
    const wide = simAt('2026-02-09 10:15:30');
    const narrow = simAt('2026-02-09 10:15:30', { universe: 'nikkei225' });
    expect(wide.codes).toHaveLength(3791);
    expect(narrow.codes).toHaveLength(225);
    expect(narrow.quote('1301')).toBeUndefined();
    expect(wide.quote('1301')?.code).toBe('1301');
    expect(wide.quote('130A')?.code).toBe('130A');
  });

  it('sends every symbol on the first beat and a seeded share after', () => {
    const clock = new FixedClock(tokyo('2026-02-09 10:00'));
    const sim = new MarketSimulator({ seed: SEED, clock, universe: 'all' });
    const events: MarketEvent[] = [];
    sim.subscribe((e) => events.push(e));
    sim.beat();
    expect(events.filter((e) => e.type === 'quote')).toHaveLength(3791);
    events.length = 0;
    clock.advance(1000);
    sim.beat();
    const quotes = events.filter((e) => e.type === 'quote').length;
    expect(quotes).toBeGreaterThan(3791 * 0.25);
    expect(quotes).toBeLessThan(3791 * 0.35);
  });
});

describe('memory bounds and the next day', () => {
  it('holds one minute path and one second path per stock, however many times it is quoted', () => {
    const clock = new FixedClock(tokyo('2026-02-09 10:00'));
    const sim = new MarketSimulator({ seed: SEED, clock, universe: 'all' });
    for (let i = 0; i < 5; i++) {
      sim.quotes(sim.codes);
      sim.indices();
      clock.advance(20_000);
    }
    const sizes = sim.cacheSizes();
    // every stock and TOPIX (the Nikkei 225 is computed from its members)
    expect(sizes.latestDays).toBe(3791 + 1);
    expect(sizes.latestMinutes).toBe(3791 + 1);
    expect(sizes.days).toBe(0);
    expect(sizes.minutes).toBe(0);
    expect(sizes.prepared).toBe(0);
  });

  it('prepares the next day’s paths in the minutes before it starts, without changing any price', () => {
    const clock = new FixedClock(tokyo('2026-02-09 15:30'));
    const fed = new MarketSimulator({ seed: SEED, clock, universe: 'topix500' });
    fed.quotes(fed.codes);
    clock.set(tokyo('2026-02-10 08:50'));
    fed.beat();
    expect(fed.cacheSizes().prepared).toBe(0); // more than five minutes ahead
    clock.set(tokyo('2026-02-10 08:56'));
    for (let s = 0; s < 180; s++) {
      fed.beat();
      clock.advance(1_000);
    }
    expect(fed.cacheSizes().prepared).toBe(504 + 1);
    clock.set(tokyo('2026-02-10 09:00:05'));
    const fresh = new MarketSimulator({ seed: SEED, clock, universe: 'topix500' });
    expect(fed.quotes(fed.codes)).toEqual(fresh.quotes(fresh.codes));
    expect(fed.indices()).toEqual(fresh.indices());
    expect(fed.cacheSizes().prepared).toBe(0);
  });
});
