import { afterEach, describe, expect, it, vi } from 'vitest';
import { FixedClock } from '../lib/clock.js';
import { monthOf, weekOf } from './bars.js';
import { referenceData } from './instruments.js';
import { priceLimits } from './limits.js';
import type { Bar, MarketEvent } from './provider.js';
import { UnknownSymbolError } from './provider.js';
import { MarketSimulator, type SimulatorOptions } from './simulator.js';
import { isValidTick, tickUp } from '@kabuto/contract';

/** An instant given as Tokyo wall-clock time. */
const tokyo = (dateTime: string): Date => new Date(`${dateTime.replace(' ', 'T')}+09:00`);

const data = referenceData();
const isT500 = (code: string): boolean => data.byCode.get(code)?.is_topix500 ?? false;

function simAt(at: string, options: SimulatorOptions = {}): MarketSimulator {
  return new MarketSimulator({ seed: 42, clock: new FixedClock(tokyo(at)), ...options });
}

/** Stocks across the tick tables: 0.1-yen, 0.5-yen, 1-yen, 10-yen TOPIX500 ticks and other stocks. */
const SAMPLE = ['9432', '7203', '9984', '9983', '6146', '7205', '7004', '6103'];

/** Problems with a bar against the day's limits (base = previous close) and tick table. */
function barProblems(code: string, bar: Bar, prevClose: number): string[] {
  const out: string[] = [];
  const t5 = isT500(code);
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

describe('calibration anchors and indices', () => {
  const sim = simAt('2026-02-06 15:30');

  it('closes every stock at ref_close on ref_date and at prev_close the day before', () => {
    const wrong: string[] = [];
    for (const cal of data.calibration.values()) {
      const [prev, ref] = sim.barsNow(cal.code, '1d', { limit: 2 });
      if (ref?.date !== '2026-02-06' || ref.close !== cal.ref_close) wrong.push(`${cal.code} ref`);
      if (prev?.date !== '2026-02-05' || prev.close !== cal.prev_close) wrong.push(`${cal.code} prev`);
    }
    expect(wrong).toEqual([]);
    expect(sim.quote('7203')).toMatchObject({ last: 378_000, prev_close: 370_600, change: 7_400 });
  });

  it('puts the Nikkei 225 at its calibrated level at the ref_date close, and TOPIX too', () => {
    const [nikkei, topix] = sim.indices();
    expect(nikkei).toMatchObject({ id: 'nikkei225', level: 54_253.68, simulated: true });
    expect(topix).toMatchObject({ id: 'topix', level: 3_699, prev_close: 3_652.41 });
    expect(topix?.change).toBe(46.59);
  });

  it('computes the Nikkei 225 as a price-weighted average of the simulated members', () => {
    const live = simAt('2026-02-09 10:15:30');
    const codes = data.nikkei225.map((i) => i.code);
    const lastSum = live.quotes(codes).reduce((s, q) => s + q.last, 0);
    const refSum = codes.reduce((s, c) => s + (data.calibration.get(c)?.ref_close ?? 0), 0);
    const nikkei = live.indices()[0];
    expect(nikkei?.level).toBeCloseTo((54_253.68 * lastSum) / refSum, 1);
    expect(nikkei?.high).toBeGreaterThanOrEqual(nikkei?.level ?? 0);
    expect(nikkei?.low).toBeLessThanOrEqual(nikkei?.level ?? 0);
  });
});

describe('determinism', () => {
  it('gives identical quotes, bars and indices for the same seed and clock', () => {
    const a = simAt('2026-02-09 10:15:30');
    const b = simAt('2026-02-09 10:15:30');
    expect(a.quote('7203')).toEqual(b.quote('7203'));
    expect(a.barsNow('6758', '1d', { limit: 300 })).toEqual(b.barsNow('6758', '1d', { limit: 300 }));
    expect(a.barsNow('7203', '1m', { limit: 800 })).toEqual(b.barsNow('7203', '1m', { limit: 800 }));
    expect(a.indices()).toEqual(b.indices());
  });

  it('gives the same answer whatever was asked before (no hidden replay state)', () => {
    const a = simAt('2026-02-09 10:15:30');
    a.barsNow('7203', '1m', { limit: 5000 });
    a.quote('9984');
    const b = simAt('2026-02-09 10:15:30');
    expect(b.barsNow('7203', '5m', { limit: 10 })).toEqual(a.barsNow('7203', '5m', { limit: 10 }));
  });

  it('gives a different path for another seed, with the same calibration anchors', () => {
    const a = simAt('2026-02-06 15:30').barsNow('7203', '1d', { limit: 100 });
    const b = simAt('2026-02-06 15:30', { seed: 43 }).barsNow('7203', '1d', { limit: 100 });
    expect(a.map((x) => x.close)).not.toEqual(b.map((x) => x.close));
    expect(a.at(-1)?.close).toBe(b.at(-1)?.close);
  });
});

describe('price rules', () => {
  // forward of ref_date too: the clock is months after it
  const sim = simAt('2026-07-31 15:30');

  it('keeps every daily price on a valid tick, inside the daily limits, OHLC consistent', () => {
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
      const days = sim.barsNow(code, '1d', { limit: 11 });
      const minutes = sim.barsNow(code, '1m', { limit: 326 * 10 });
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
        expect({
          open: mins[0]?.open,
          high: Math.max(...mins.map((m) => m.high)),
          low: Math.min(...mins.map((m) => m.low)),
          close: mins.at(-1)?.close,
          volume: mins.reduce((s, m) => s + m.volume, 0),
        }).toEqual({
          open: day.open,
          high: day.high,
          low: day.low,
          close: day.close,
          volume: day.volume,
        });
      }
    }
    expect(problems).toEqual([]);
  });

  it('quotes one tick of spread around the last price, inside the limits', () => {
    const live = simAt('2026-02-09 10:15:30');
    for (const q of live.quotes(SAMPLE)) {
      const t5 = isT500(q.code);
      expect([q.bid, q.ask]).toContain(q.last);
      expect(q.ask).toBe(tickUp(q.bid, t5));
      expect(q).toMatchObject(
        ((l) => ({ limit_down: l.lower, limit_up: l.upper }))(priceLimits(q.prev_close, t5)),
      );
      expect(q.bid).toBeGreaterThanOrEqual(q.limit_down);
      expect(q.ask).toBeLessThanOrEqual(q.limit_up);
    }
  });
});

describe('the position kept between quotes', () => {
  it('answers every quote at one instant alike, and follows the clock when it moves, as a fresh simulator does', () => {
    const clock = new FixedClock(tokyo('2026-02-09 10:15:30'));
    const sim = new MarketSimulator({ seed: 42, clock });
    const first = sim.quote('7203');
    expect(sim.quotes(['6758', '7203'])[1]).toEqual(first);
    for (const t of [
      '2026-02-09 10:15:31',
      '2026-02-09 13:02:07',
      '2026-02-10 09:30:00',
      '2026-02-09 11:00:00',
    ]) {
      clock.set(tokyo(t));
      const fresh = new MarketSimulator({ seed: 42, clock: new FixedClock(tokyo(t)) });
      expect(sim.quote('7203'), t).toEqual(fresh.quote('7203'));
      expect(sim.quote('6758'), t).toEqual(fresh.quote('6758'));
    }
  });
});

describe('sessions', () => {
  const clock = new FixedClock(tokyo('2026-02-09 09:00'));
  const sim = new MarketSimulator({ seed: 42, clock });
  const at = (t: string): ReturnType<typeof sim.quote> => {
    clock.set(tokyo(t));
    return sim.quote('7203');
  };

  it('opens at the day open and matches the day so far', () => {
    const open = at('2026-02-09 09:00');
    expect(open?.last).toBe(open?.open);
    const q = at('2026-02-09 10:15:30');
    const bars = sim.barsNow('7203', 'intraday');
    expect(bars).toHaveLength(76);
    expect(q).toMatchObject({
      open: bars[0]?.open,
      high: Math.max(...bars.map((b) => b.high)),
      low: Math.min(...bars.map((b) => b.low)),
      last: bars.at(-1)?.close,
      volume: bars.reduce((s, b) => s + b.volume, 0),
      trading_date: '2026-02-09',
      time: tokyo('2026-02-09 10:15:30').toISOString(),
      simulated: true,
    });
    expect(q?.change).toBe((q?.last ?? 0) - (q?.prev_close ?? 0));
    expect(q?.change_bp).toBe(Math.round(((q?.change ?? 0) * 10_000) / (q?.prev_close ?? 1)));
  });

  it('does not move during lunch', () => {
    const lunch = at('2026-02-09 11:30');
    expect(at('2026-02-09 11:45')).toEqual(lunch);
    expect(at('2026-02-09 12:29:59')).toEqual(lunch);
    expect(lunch?.time).toBe(tokyo('2026-02-09 11:30').toISOString());
    expect(at('2026-02-09 12:30')?.last).toBe(lunch?.last);
  });

  it('does not move between 15:25 and the close, nor after the close until the next open', () => {
    const auction = at('2026-02-09 15:25');
    expect(at('2026-02-09 15:29:59')).toEqual(auction);
    const close = at('2026-02-09 15:30');
    expect(close?.last).toBe(auction?.last);
    expect(close?.volume).toBeGreaterThan(auction?.volume ?? 0); // the closing auction prints
    for (const t of ['2026-02-09 18:00', '2026-02-10 08:59:59']) expect(at(t)).toEqual(close);
    expect(sim.barsNow('7203', 'intraday')).toHaveLength(326);
  });

  it('does not move over a weekend or a holiday', () => {
    const friday = at('2026-02-13 15:30');
    for (const t of ['2026-02-14 10:00', '2026-02-15 23:00', '2026-02-16 08:59']) {
      expect(at(t)).toEqual(friday);
    }
    const beforeHoliday = at('2026-02-10 15:30');
    expect(at('2026-02-11 10:00')).toEqual(beforeHoliday);
  });

  it('emits nothing but final figures outside the session', () => {
    const events: MarketEvent[] = [];
    sim.subscribe((e) => events.push(e));
    at('2026-02-14 10:00');
    sim.beat();
    const first = events.length;
    sim.beat();
    expect(first).toBe(sim.codes.length + 2);
    expect(events.length).toBe(first);
  });
});

describe('history', () => {
  it('has at least two years of daily bars on business days', () => {
    for (const now of ['2026-02-06 15:30', '2026-01-05 09:30', '2027-06-30 10:00']) {
      const bars = simAt(now).barsNow('7203', '1d', { limit: 5000 });
      const twoYearsBack = `${Number(now.slice(0, 4)) - 2}${now.slice(4, 10)}`;
      expect((bars[0]?.date ?? '9999') <= twoYearsBack).toBe(true);
      expect(bars.length).toBeGreaterThan(480);
      expect(bars.every((b, i) => i === 0 || (bars[i - 1]?.date ?? '') < b.date)).toBe(true);
      expect(bars.some((b) => b.date === '2026-01-02' || b.date === '2025-12-31')).toBe(false);
    }
  });

  it('aggregates weekly and monthly bars from the daily bars', () => {
    const sim = simAt('2026-02-09 10:15:30');
    const daily = sim.barsNow('9984', '1d', { limit: 5000 });
    const group = (key: (date: string) => string): Omit<Bar, 'time'>[] => {
      const out: Omit<Bar, 'time'>[] = [];
      let current: Omit<Bar, 'time'> | undefined;
      let currentKey = '';
      for (const b of daily) {
        if (current && key(b.date) === currentKey) {
          current.high = Math.max(current.high, b.high) as Bar['high'];
          current.low = Math.min(current.low, b.low) as Bar['low'];
          current.close = b.close;
          current.volume += b.volume;
        } else {
          currentKey = key(b.date);
          current = {
            date: b.date,
            open: b.open,
            high: b.high,
            low: b.low,
            close: b.close,
            volume: b.volume,
          };
          out.push(current);
        }
      }
      return out;
    };
    const strip = (bars: Bar[]): Omit<Bar, 'time'>[] => bars.map(({ time: _time, ...rest }) => rest);
    const weekly = sim.barsNow('9984', '1w', { limit: 5000 });
    const monthly = sim.barsNow('9984', '1mo', { limit: 5000 });
    expect(strip(weekly)).toEqual(group(weekOf));
    expect(strip(monthly)).toEqual(group(monthOf));
    expect(weekly.at(-1)?.date).toBe('2026-02-09');
    expect(monthly.at(-2)?.date).toBe('2026-01-05');
    expect(sim.barsNow('9984', '1w', { limit: 3 })).toEqual(weekly.slice(-3));
  });

  it.each([
    ['1m', 326, '15:30'],
    ['5m', 30 + 35, '15:20'],
    ['7m', 22 + 25, '15:18'],
    ['15m', 10 + 12, '15:15'],
    ['30m', 5 + 6, '15:00'],
    ['45m', 4 + 4, '14:45'],
  ] as const)('builds %s bars of a whole day (%i bars, last at %s)', (period, count, last) => {
    const sim = simAt('2026-02-06 16:00');
    const day = sim.barsNow('7203', '1d', { limit: 1 })[0];
    const bars = sim.barsNow('7203', period, { from: tokyo('2026-02-06 00:00') });
    expect(bars).toHaveLength(count);
    expect(bars[0]?.time).toBe(tokyo('2026-02-06 09:00').toISOString());
    expect(bars.at(-1)?.time).toBe(tokyo(`2026-02-06 ${last}`).toISOString());
    if (period !== '1m') {
      expect(bars.some((b) => b.time === tokyo('2026-02-06 12:30').toISOString())).toBe(true);
    }
    expect({
      open: bars[0]?.open,
      high: Math.max(...bars.map((b) => b.high)),
      low: Math.min(...bars.map((b) => b.low)),
      close: bars.at(-1)?.close,
      volume: bars.reduce((s, b) => s + b.volume, 0),
    }).toEqual({
      open: day?.open,
      high: day?.high,
      low: day?.low,
      close: day?.close,
      volume: day?.volume,
    });
  });

  it('serves bars as the market stood at `to`, and never the future', () => {
    const sim = simAt('2026-02-09 10:15:30');
    const past = sim.barsNow('7203', '1d', { to: tokyo('2025-06-02 12:00'), limit: 3 });
    expect(past.map((b) => b.date)).toEqual(['2025-05-29', '2025-05-30', '2025-06-02']);
    const full = sim.barsNow('7203', '1d', { limit: 5000 });
    expect(past.slice(0, 2)).toEqual(full.filter((b) => b.date < '2025-06-02').slice(-2));
    const future = sim.barsNow('7203', '1d', { to: tokyo('2027-01-01 00:00'), limit: 1 });
    expect(future[0]?.date).toBe('2026-02-09');
    expect(sim.barsNow('7203', '1m', { limit: 3 }).at(-1)?.time).toBe(
      tokyo('2026-02-09 10:15').toISOString(),
    );
  });

  // Its speed is not asserted here (it was, under 50 ms, and failed on a loaded machine): a timing belongs
  // in bench/, which does not measure this call yet.
  it('serves two years of daily bars for a stock not seen before', () => {
    const sim = simAt('2026-02-06 15:30');
    sim.barsNow('7203', '1d', { limit: 5000 });
    const bars = sim.barsNow('8306', '1d', { limit: 500 });
    expect(bars).toHaveLength(500);
    expect(bars.at(-1)?.date).toBe('2026-02-06');
  });

  it('rejects unknown codes', async () => {
    const sim = simAt('2026-02-06 15:30');
    expect(sim.quote('0000')).toBeUndefined();
    expect(sim.quotes(['0000', '7203']).map((q) => q.code)).toEqual(['7203']);
    await expect(sim.bars('0000', '1d')).rejects.toBeInstanceOf(UnknownSymbolError);
    await expect(sim.bars('7203', '1d', { limit: 2 })).resolves.toHaveLength(2);
  });
});

describe('live feed', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends everything on the first beat, then a seeded share of symbols each beat', () => {
    const clock = new FixedClock(tokyo('2026-02-09 10:00'));
    const sim = new MarketSimulator({ seed: 42, clock });
    const events: MarketEvent[] = [];
    const unsubscribe = sim.subscribe((e) => events.push(e));
    sim.beat();
    expect(events.filter((e) => e.type === 'quote')).toHaveLength(225);
    expect(events.filter((e) => e.type === 'index')).toHaveLength(2);
    const counts: number[] = [];
    for (let i = 0; i < 10; i++) {
      events.length = 0;
      clock.advance(1000);
      sim.beat();
      const quotes = events.flatMap((e) => (e.type === 'quote' ? [e.quote] : []));
      counts.push(quotes.length);
      for (const q of quotes) expect(q.time).toBe(clock.now().toISOString());
    }
    const mean = counts.reduce((a, b) => a + b, 0) / counts.length;
    expect(mean).toBeGreaterThan(225 * 0.2);
    expect(mean).toBeLessThan(225 * 0.4);
    unsubscribe();
    events.length = 0;
    clock.advance(1000);
    sim.beat();
    expect(events).toHaveLength(0);
  });

  it('moves within the current minute bar second by second', () => {
    const clock = new FixedClock(tokyo('2026-02-09 10:20:00'));
    const sim = new MarketSimulator({ seed: 42, clock });
    const seen = new Set<number>();
    for (let s = 0; s < 60; s++) {
      clock.set(new Date(tokyo('2026-02-09 10:20:00').getTime() + s * 1000));
      seen.add(sim.quote('9984')?.last ?? 0);
    }
    clock.set(tokyo('2026-02-09 10:21:00'));
    const bar = sim.barsNow('9984', '1m', { limit: 2 })[0];
    expect(bar?.time).toBe(tokyo('2026-02-09 10:20').toISOString());
    for (const p of seen) {
      expect(p).toBeGreaterThanOrEqual(bar?.low ?? 0);
      expect(p).toBeLessThanOrEqual(bar?.high ?? 0);
    }
    expect(seen.has(bar?.high ?? 0) && seen.has(bar?.low ?? 0)).toBe(true);
  });

  it('start() beats on a timer until stop()', () => {
    vi.useFakeTimers();
    const sim = simAt('2026-02-09 10:00', { tickIntervalMs: 500 });
    let n = 0;
    sim.subscribe(() => n++);
    sim.start();
    sim.start(); // idempotent
    vi.advanceTimersByTime(1_000);
    expect(n).toBeGreaterThan(225);
    sim.stop();
    const after = n;
    vi.advanceTimersByTime(5_000);
    expect(n).toBe(after);
  });

  it('keeps running when a listener throws', () => {
    const sim = simAt('2026-02-09 10:00');
    let n = 0;
    sim.subscribe(() => {
      throw new Error('boom');
    });
    sim.subscribe(() => n++);
    sim.beat();
    expect(n).toBe(227);
  });
});

describe('always-open mode', () => {
  it('trades at any hour, continuing the last business day without jumping back', () => {
    const clock = new FixedClock(tokyo('2026-02-07 03:00')); // Saturday night
    const sim = new MarketSimulator({ seed: 42, clock, mode: 'always-open' });
    expect(sim.session()).toMatchObject({ continuous: true, always_open: true });
    const prices = new Set<number>();
    let volume = 0;
    for (let i = 0; i < 40; i++) {
      const q = sim.quote('7203');
      expect(q?.trading_date).toBe('2026-02-06');
      expect(q?.time).toBe(clock.now().toISOString());
      expect(isValidTick(q?.last ?? 0, true)).toBe(true);
      expect(q?.volume).toBeGreaterThanOrEqual(volume);
      volume = q?.volume ?? 0;
      prices.add(q?.last ?? 0);
      clock.advance(5 * 60_000);
    }
    expect(prices.size).toBeGreaterThan(1);
  });

  it('shares its history with the Tokyo clock', () => {
    const open = simAt('2026-02-07 03:00', { mode: 'always-open' });
    const tokyoClock = simAt('2026-02-07 03:00');
    const a = open.barsNow('7203', '1d', { limit: 30 });
    const b = tokyoClock.barsNow('7203', '1d', { limit: 30 });
    expect(a.slice(0, -1)).toEqual(b.slice(0, -1));
    expect(a.at(-1)?.date).toBe('2026-02-06');
  });
});
