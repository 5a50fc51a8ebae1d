/**
 * Mechanical price signals of the AI trade tab, computed from daily closes only. Pure functions, no I/O.
 *
 * Inputs are the closes of daily bars in integer sen, oldest first. Moving averages and the RSI are
 * statistics, not money, so they are plain floating-point numbers; a moving average is only ever shown
 * through the price formatter after rounding to a whole sen. The 20-day change is an integer count of
 * basis points (truncated toward zero), shown through the basis-point formatter.
 *
 * The rules, in plain words (the page shows the same words):
 * - Moving averages: the simple average of the last 5 closes (MA5) and of the last 25 closes (MA25).
 *   A "golden cross" is MA5 going from at or below MA25 to above it on one of the last 3 sessions
 *   (today, the session before, or the one before that); a "dead cross" is the opposite. With no cross in
 *   that window the signal is the current relation: above, below or level. The most recent cross wins.
 * - RSI (14, Wilder): the first average gain and loss are the plain means of the first 14 daily changes;
 *   after that each new average is (previous × 13 + today's gain or loss) / 14.
 *   RSI = 100 − 100 / (1 + average gain / average loss); 100 when there is no loss at all, and 50 when
 *   the price did not move at all. ≥ 70 reads "overbought", ≤ 30 "oversold", otherwise neutral.
 * - 20-day change: (last close − close 20 sessions earlier) / close 20 sessions earlier.
 * Fewer closes than a rule needs gives "not enough data" for that rule, never a guess.
 */
export const SHORT_MA = 5;
export const LONG_MA = 25;
export const CROSS_LOOKBACK = 3;
export const RSI_PERIOD = 14;
export const RSI_OVERBOUGHT = 70;
export const RSI_OVERSOLD = 30;
export const CHANGE_SESSIONS = 20;

export interface DailyClose {
  /** the session date, YYYY-MM-DD */
  date: string;
  /** the close, integer sen */
  close: number;
}

export interface NotEnoughData {
  kind: 'insufficient';
  /** closes the rule needs */
  needed: number;
  /** closes there are */
  have: number;
}

export type MaSignal =
  | NotEnoughData
  | {
      kind: 'golden' | 'dead';
      /** MA5 and MA25 at the last close, sen (not rounded) */
      short: number;
      long: number;
      /** the session on which the cross happened */
      crossDate: string;
      /** 0 = the last session, 1 = the one before, 2 = the one before that */
      sessionsAgo: number;
    }
  | { kind: 'above' | 'below' | 'level'; short: number; long: number };

export type RsiSignal = NotEnoughData | { kind: 'overbought' | 'oversold' | 'neutral'; value: number };

export type ChangeSignal =
  | NotEnoughData
  | {
      kind: 'change';
      /** basis points of the earlier close, truncated toward zero: 123 = +1.23% */
      bp: number;
      fromDate: string;
      /** sen */
      fromClose: number;
      toClose: number;
    };

export interface StockSignals {
  ma: MaSignal;
  rsi: RsiSignal;
  change: ChangeSignal;
  /** the last session used (null without bars) */
  asOf: string | null;
}

function insufficient(needed: number, have: number): NotEnoughData {
  return { kind: 'insufficient', needed, have };
}

/** The simple moving average ending at each index (null until `window` values exist). */
export function smaSeries(values: readonly number[], window: number): (number | null)[] {
  if (!Number.isInteger(window) || window < 1) throw new RangeError(`bad window: ${String(window)}`);
  const out: (number | null)[] = [];
  // A running sum of integers (sen) stays exact; the division is the only floating-point step.
  let sum = 0;
  for (const [i, value] of values.entries()) {
    sum += value;
    if (i >= window) sum -= values[i - window] ?? 0;
    out.push(i >= window - 1 ? sum / window : null);
  }
  return out;
}

/** The simple moving average of the last `window` values, or null when there are fewer. */
export function sma(values: readonly number[], window: number): number | null {
  return smaSeries(values, window).at(-1) ?? null;
}

/** MA5 against MA25, with a cross on one of the last 3 sessions taking precedence (the latest wins). */
export function maSignal(closes: readonly DailyClose[]): MaSignal {
  if (closes.length < LONG_MA) return insufficient(LONG_MA, closes.length);
  const values = closes.map((c) => c.close);
  const shortSeries = smaSeries(values, SHORT_MA);
  const longSeries = smaSeries(values, LONG_MA);
  const diffAt = (i: number): number | null => {
    const s = shortSeries[i];
    const l = longSeries[i];
    return s == null || l == null ? null : s - l;
  };
  const last = closes.length - 1;
  const short = shortSeries[last] ?? 0;
  const long = longSeries[last] ?? 0;
  for (let ago = 0; ago < CROSS_LOOKBACK; ago++) {
    const i = last - ago;
    const now = diffAt(i);
    const before = diffAt(i - 1);
    // A cross needs both averages on both sessions; the earliest sessions cannot show one.
    if (now === null || before === null) break;
    const date = closes[i]?.date ?? '';
    if (before <= 0 && now > 0) return { kind: 'golden', short, long, crossDate: date, sessionsAgo: ago };
    if (before >= 0 && now < 0) return { kind: 'dead', short, long, crossDate: date, sessionsAgo: ago };
  }
  const diff = short - long;
  return { kind: diff > 0 ? 'above' : diff < 0 ? 'below' : 'level', short, long };
}

/** The 14-day RSI with Wilder's smoothing, over all the closes given. */
export function rsi(values: readonly number[], period = RSI_PERIOD): number | null {
  if (values.length < period + 1) return null;
  let gain = 0;
  let loss = 0;
  for (let i = 1; i <= period; i++) {
    const change = (values[i] ?? 0) - (values[i - 1] ?? 0);
    if (change > 0) gain += change;
    else loss -= change;
  }
  gain /= period;
  loss /= period;
  for (let i = period + 1; i < values.length; i++) {
    const change = (values[i] ?? 0) - (values[i - 1] ?? 0);
    gain = (gain * (period - 1) + Math.max(change, 0)) / period;
    loss = (loss * (period - 1) + Math.max(-change, 0)) / period;
  }
  if (loss === 0) return gain === 0 ? 50 : 100;
  return 100 - 100 / (1 + gain / loss);
}

export function rsiSignal(closes: readonly DailyClose[]): RsiSignal {
  const value = rsi(closes.map((c) => c.close));
  if (value === null) return insufficient(RSI_PERIOD + 1, closes.length);
  const kind = value >= RSI_OVERBOUGHT ? 'overbought' : value <= RSI_OVERSOLD ? 'oversold' : 'neutral';
  return { kind, value };
}

/** The change over the last 20 sessions, in basis points truncated toward zero (integer arithmetic). */
export function changeSignal(closes: readonly DailyClose[]): ChangeSignal {
  const needed = CHANGE_SESSIONS + 1;
  const to = closes.at(-1);
  const from = closes.at(-needed);
  if (closes.length < needed || to === undefined || from === undefined || from.close <= 0) {
    return insufficient(needed, closes.length);
  }
  const bp = Math.trunc(((to.close - from.close) * 10_000) / from.close);
  return { kind: 'change', bp, fromDate: from.date, fromClose: from.close, toClose: to.close };
}

export function computeSignals(closes: readonly DailyClose[]): StockSignals {
  return {
    ma: maSignal(closes),
    rsi: rsiSignal(closes),
    change: changeSignal(closes),
    asOf: closes.at(-1)?.date ?? null,
  };
}
