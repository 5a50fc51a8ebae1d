/**
 * Technical indicators for the charts (ADR 0024), as pure functions of a series. Each returns one value per
 * input bar, aligned with it, and null where the indicator is not defined yet (fewer bars than its window).
 * Inputs are prices in any unit (the charts pass sen); the results are for drawing only, never money.
 *
 * The definitions are the usual ones (those of the `technicalindicators` package, which the tests compare
 * against; it is not shipped to the browser):
 * - SMA(n): the mean of the last n closes.
 * - EMA(n): seeded with the SMA of the first n closes, then ema = close × k + ema × (1 − k), k = 2 / (n + 1).
 * - Bollinger Bands(n, k): SMA(n) ± k × the population standard deviation of the same n closes.
 * - MACD(fast, slow, signal): EMA(fast) − EMA(slow); the signal line EMA(signal) of MACD; the histogram
 *   their difference.
 * - RSI(n): Wilder's: the first average gain and loss are the means of the first n changes, then
 *   avg = (avg × (n − 1) + current) / n; RSI = 100 − 100 / (1 + avgGain / avgLoss) (100 with no loss).
 * - 一目均衡表 (Ichimoku, 9/26/52): 転換線 = (highest high + lowest low) / 2 over 9 bars, 基準線 the same
 *   over 26, 先行スパン1 = (転換線 + 基準線) / 2 and 先行スパン2 = the midpoint over 52, both drawn 26 bars
 *   ahead (the cloud), 遅行スパン = the close drawn 26 bars behind.
 */
export type Series = (number | null)[];

export function sma(values: readonly number[], n: number): Series {
  const out: Series = [];
  let sum = 0;
  for (let i = 0; i < values.length; i += 1) {
    sum += values[i] ?? 0;
    if (i >= n) sum -= values[i - n] ?? 0;
    out.push(i >= n - 1 ? sum / n : null);
  }
  return out;
}

/** EMA over the defined part of `values` (leading nulls are skipped; the seed is the SMA of the first n). */
export function ema(values: readonly (number | null)[], n: number): Series {
  const out: Series = [];
  const k = 2 / (n + 1);
  let prev: number | null = null;
  let seen = 0;
  let seedSum = 0;
  for (const v of values) {
    if (v === null) {
      out.push(null);
      continue;
    }
    seen += 1;
    if (prev === null) {
      seedSum += v;
      if (seen === n) prev = seedSum / n;
      out.push(prev);
    } else {
      prev = v * k + prev * (1 - k);
      out.push(prev);
    }
  }
  return out;
}

export interface Bands {
  middle: Series;
  upper: Series;
  lower: Series;
}

export function bollinger(values: readonly number[], n = 20, k = 2): Bands {
  const middle = sma(values, n);
  const upper: Series = [];
  const lower: Series = [];
  for (let i = 0; i < values.length; i += 1) {
    const m = middle[i] ?? null;
    if (m === null) {
      upper.push(null);
      lower.push(null);
      continue;
    }
    let squares = 0;
    for (let j = i - n + 1; j <= i; j += 1) squares += ((values[j] ?? 0) - m) ** 2;
    const sd = Math.sqrt(squares / n);
    upper.push(m + k * sd);
    lower.push(m - k * sd);
  }
  return { middle, upper, lower };
}

export interface Macd {
  macd: Series;
  signal: Series;
  histogram: Series;
}

export function macd(values: readonly number[], fast = 12, slow = 26, signalLength = 9): Macd {
  const f = ema(values, fast);
  const s = ema(values, slow);
  const line: Series = values.map((_, i) => {
    const a = f[i] ?? null;
    const b = s[i] ?? null;
    return a === null || b === null ? null : a - b;
  });
  const signal = ema(line, signalLength);
  const histogram: Series = line.map((m, i) => {
    const sig = signal[i] ?? null;
    return m === null || sig === null ? null : m - sig;
  });
  return { macd: line, signal, histogram };
}

export function rsi(values: readonly number[], n = 14): Series {
  const out: Series = values.length > 0 ? [null] : [];
  let avgGain = 0;
  let avgLoss = 0;
  for (let i = 1; i < values.length; i += 1) {
    const change = (values[i] ?? 0) - (values[i - 1] ?? 0);
    const gain = Math.max(change, 0);
    const loss = Math.max(-change, 0);
    if (i <= n) {
      avgGain += gain / n;
      avgLoss += loss / n;
      if (i < n) {
        out.push(null);
        continue;
      }
    } else {
      avgGain = (avgGain * (n - 1) + gain) / n;
      avgLoss = (avgLoss * (n - 1) + loss) / n;
    }
    out.push(avgLoss === 0 ? 100 : 100 - 100 / (1 + avgGain / avgLoss));
  }
  return out;
}

export interface Ichimoku {
  /** 転換線 */
  conversion: Series;
  /** 基準線 */
  base: Series;
  /** 先行スパン1 and 2, unshifted: the value computed at each bar (drawn `displacement` bars ahead) */
  spanA: Series;
  spanB: Series;
  /** 遅行スパン: each bar's close, drawn `displacement` bars behind */
  lagging: Series;
}

function midpoint(high: readonly number[], low: readonly number[], n: number): Series {
  const out: Series = [];
  for (let i = 0; i < high.length; i += 1) {
    if (i < n - 1) {
      out.push(null);
      continue;
    }
    let hi = -Infinity;
    let lo = Infinity;
    for (let j = i - n + 1; j <= i; j += 1) {
      hi = Math.max(hi, high[j] ?? -Infinity);
      lo = Math.min(lo, low[j] ?? Infinity);
    }
    out.push((hi + lo) / 2);
  }
  return out;
}

export function ichimoku(
  high: readonly number[],
  low: readonly number[],
  close: readonly number[],
  conversionPeriod = 9,
  basePeriod = 26,
  spanPeriod = 52,
): Ichimoku {
  const conversion = midpoint(high, low, conversionPeriod);
  const base = midpoint(high, low, basePeriod);
  const spanA: Series = conversion.map((c, i) => {
    const b = base[i] ?? null;
    return c === null || b === null ? null : (c + b) / 2;
  });
  return { conversion, base, spanA, spanB: midpoint(high, low, spanPeriod), lagging: [...close] };
}

export const ICHIMOKU_DISPLACEMENT = 26;
