import { describe, expect, it } from 'vitest';
import {
  changeSignal,
  computeSignals,
  maSignal,
  rsi,
  rsiSignal,
  sma,
  smaSeries,
  type DailyClose,
} from './signals';

/** Closes (sen) on consecutive made-up session dates, oldest first: day 0 is 2026-09-01. */
function series(closes: readonly number[]): DailyClose[] {
  const start = Date.UTC(2026, 8, 1);
  return closes.map((close, i) => ({
    date: new Date(start + i * 86_400_000).toISOString().slice(0, 10),
    close,
  }));
}

const flat = (n: number, close = 10_000) => Array.from({ length: n }, () => close);

/** Closes that start at `start` and then move by each change in turn. */
function walk(start: number, changes: readonly number[]): number[] {
  const out = [start];
  for (const c of changes) out.push((out.at(-1) ?? 0) + c);
  return out;
}

describe('simple moving average', () => {
  it('averages the last `window` values and is null before there are that many', () => {
    expect(smaSeries([1, 2, 3, 4, 5, 6], 3)).toEqual([null, null, 2, 3, 4, 5]);
    expect(sma([100, 200, 300, 400, 500], 5)).toBe(300);
    expect(sma([100, 200, 300, 400], 5)).toBeNull();
    expect(sma([], 1)).toBeNull();
  });

  it('rejects a window that is not a positive integer', () => {
    expect(() => smaSeries([1], 0)).toThrow(RangeError);
  });
});

describe('5-day against 25-day average', () => {
  it('needs 25 closes', () => {
    expect(maSignal(series(flat(24)))).toEqual({ kind: 'insufficient', needed: 25, have: 24 });
    expect(maSignal([])).toEqual({ kind: 'insufficient', needed: 25, have: 0 });
  });

  it('is level on a flat series', () => {
    expect(maSignal(series(flat(30)))).toEqual({ kind: 'level', short: 10_000, long: 10_000 });
  });

  it('with exactly 25 closes gives the relation only (a cross needs the session before)', () => {
    // MA5 = (4 × 10,000 + 10,500) / 5 = 10,100; MA25 = (24 × 10,000 + 10,500) / 25 = 10,020.
    expect(maSignal(series([...flat(24), 10_500]))).toEqual({ kind: 'above', short: 10_100, long: 10_020 });
  });

  it('a golden cross on the last session', () => {
    // Before: MA5 = MA25 = 10,000 (difference 0). Last: MA5 10,100 > MA25 10,020.
    const closes = series([...flat(30), 10_500]);
    expect(maSignal(closes)).toEqual({
      kind: 'golden',
      short: 10_100,
      long: 10_020,
      crossDate: closes[30]?.date,
      sessionsAgo: 0,
    });
  });

  it('a golden cross two sessions ago is still reported, with its date', () => {
    // Last: MA5 = (2 × 10,000 + 3 × 10,500) / 5 = 10,300; MA25 = (22 × 10,000 + 3 × 10,500) / 25 = 10,060.
    const closes = series([...flat(30), 10_500, 10_500, 10_500]);
    expect(maSignal(closes)).toEqual({
      kind: 'golden',
      short: 10_300,
      long: 10_060,
      crossDate: '2026-10-01', // day 30
      sessionsAgo: 2,
    });
  });

  it('a cross three sessions ago is outside the window: the current relation is shown', () => {
    // MA5 = (10,000 + 4 × 10,500) / 5 = 10,400; MA25 = (21 × 10,000 + 4 × 10,500) / 25 = 10,080.
    const closes = series([...flat(30), 10_500, 10_500, 10_500, 10_500]);
    expect(maSignal(closes)).toEqual({ kind: 'above', short: 10_400, long: 10_080 });
  });

  it('a dead cross', () => {
    // MA5 = (4 × 10,000 + 9,500) / 5 = 9,900; MA25 = (24 × 10,000 + 9,500) / 25 = 9,980.
    const closes = series([...flat(30), 9_500]);
    expect(maSignal(closes)).toMatchObject({ kind: 'dead', short: 9_900, long: 9_980, sessionsAgo: 0 });
    // Four sessions later the cross has left the window.
    expect(maSignal(series([...flat(30), 9_500, 9_500, 9_500, 9_500]))).toMatchObject({ kind: 'below' });
  });

  it('the most recent cross wins', () => {
    // Day 30 crosses above (+80); day 31 closes at 9,000:
    // MA5 = (3 × 10,000 + 10,500 + 9,000) / 5 = 9,900; MA25 = (23 × 10,000 + 10,500 + 9,000) / 25 = 9,980.
    const closes = series([...flat(30), 10_500, 9_000]);
    expect(maSignal(closes)).toEqual({
      kind: 'dead',
      short: 9_900,
      long: 9_980,
      crossDate: closes[31]?.date,
      sessionsAgo: 0,
    });
  });
});

describe('14-day RSI (Wilder)', () => {
  // 14 changes: ten rises of 100 sen and four falls of 100 sen.
  //   first average gain = 1,000 / 14 = 71.43; first average loss = 400 / 14 = 28.57
  //   RS = 1,000 / 400 = 2.5; RSI = 100 − 100 / 3.5 = 71.428571…  → overbought (≥ 70)
  const first = [100, 100, 100, 100, 100, 100, 100, 100, 100, 100, -100, -100, -100, -100];

  it('averages the first 14 changes plainly', () => {
    const value = rsi(walk(10_000, first));
    expect(value).toBeCloseTo(71.428571, 5);
    expect(rsiSignal(series(walk(10_000, first)))).toMatchObject({ kind: 'overbought' });
  });

  it('then smooths each new change as (previous × 13 + new) / 14', () => {
    // A 15th change of −200:
    //   gain = (1,000/14 × 13 + 0) / 14 = 13,000 / 196 = 66.33
    //   loss = (400/14 × 13 + 200) / 14 = (5,200 + 2,800) / 196 = 8,000 / 196 = 40.82
    //   RS = 13,000 / 8,000 = 1.625; RSI = 100 − 100 / 2.625 = 61.904762…  → neutral
    const closes = walk(10_000, [...first, -200]);
    expect(rsi(closes)).toBeCloseTo(61.904762, 5);
    expect(rsiSignal(series(closes))).toMatchObject({ kind: 'neutral' });
  });

  it('reads ≤ 30 as oversold', () => {
    // The mirror image: gain 400/14, loss 1,000/14; RS = 0.4; RSI = 100 − 100 / 1.4 = 28.571429…
    const closes = walk(
      10_000,
      first.map((c) => -c),
    );
    expect(rsi(closes)).toBeCloseTo(28.571429, 5);
    expect(rsiSignal(series(closes))).toMatchObject({ kind: 'oversold' });
  });

  it('is 100 with no loss, 50 with no move, and exactly 70 is overbought', () => {
    expect(
      rsi(
        walk(
          10_000,
          Array.from({ length: 14 }, () => 10),
        ),
      ),
    ).toBe(100);
    expect(rsi(flat(15))).toBe(50);
    // gain 700/14, loss 300/14: RS = 7/3, RSI = 100 − 100 / (10/3) = 70.
    const seventy = walk(10_000, [...flat(7, 100), -300, ...flat(6, 0)]);
    expect(rsi(seventy)).toBeCloseTo(70, 9);
    expect(rsiSignal(series(seventy)).kind).toBe('overbought');
  });

  it('needs 15 closes (14 changes)', () => {
    expect(rsi(flat(14))).toBeNull();
    expect(rsiSignal(series(flat(14)))).toEqual({ kind: 'insufficient', needed: 15, have: 14 });
  });
});

describe('20-day change', () => {
  it('compares the last close with the close 20 sessions earlier, in basis points', () => {
    const closes = series([...flat(5, 9_000), ...flat(20), 10_500]);
    // 21 closes back from the last is 10,000: (10,500 − 10,000) / 10,000 = +5.00% = 500 bp.
    expect(changeSignal(closes)).toEqual({
      kind: 'change',
      bp: 500,
      fromDate: closes.at(-21)?.date,
      fromClose: 10_000,
      toClose: 10_500,
    });
  });

  it('truncates toward zero', () => {
    // (2,999 − 3,000) / 3,000 = −3.33 bp → −3
    expect(changeSignal(series([...flat(20, 3_000), 2_999]))).toMatchObject({ bp: -3 });
  });

  it('needs 21 closes', () => {
    expect(changeSignal(series(flat(20)))).toEqual({ kind: 'insufficient', needed: 21, have: 20 });
  });
});

describe('all signals of a stock', () => {
  it('reports each rule on its own, with the last session used', () => {
    const few = computeSignals(series(flat(16)));
    expect(few.ma.kind).toBe('insufficient');
    expect(few.rsi).toEqual({ kind: 'neutral', value: 50 });
    expect(few.change.kind).toBe('insufficient');
    expect(few.asOf).toBe('2026-09-16');
    expect(computeSignals([]).asOf).toBeNull();
  });
});
