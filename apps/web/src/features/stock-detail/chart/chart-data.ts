import type { TBar, TBarPeriod, TQuote } from '@kabuto/contract';

/**
 * The chart's working bars and how a live quote changes them, free of the chart library so that it can
 * be tested. Prices stay in sen here; the chart gets yen. Times: lightweight-charts reads numbers as UTC
 * seconds, so minute bars are shifted by +9 h to show Tokyo wall-clock time; day, week and month bars
 * use their Tokyo date ("YYYY-MM-DD").
 */
export const TOKYO_OFFSET_S = 9 * 3600;
const DAY_MS = 86_400_000;
const MORNING_OPEN = 9 * 60;
const AFTERNOON_OPEN = 12 * 60 + 30;

export const MINUTES: Partial<Record<TBarPeriod, number>> = {
  intraday: 1,
  '1m': 1,
  '5m': 5,
  '7m': 7,
  '15m': 15,
  '30m': 30,
  '45m': 45,
};

export function isCalendarPeriod(period: TBarPeriod): boolean {
  return period === '1d' || period === '1w' || period === '1mo';
}

/** The moving averages drawn (ADR 0024): 5, 25 and 75 bars, the defaults of Japanese brokers' charts. */
export const MA_LENGTHS: readonly number[] = [5, 25, 75];

export interface WorkBar {
  /** Chart time: shifted UTC seconds for minute bars, the Tokyo date for longer bars. */
  time: number | string;
  /** Epoch ms of the bar's start (minute bars). */
  startMs: number;
  date: string;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

export function chartTimeOf(startMs: number): number {
  return Math.floor(startMs / 1000) + TOKYO_OFFSET_S;
}

export function toWorkBars(bars: readonly TBar[], period: TBarPeriod): WorkBar[] {
  const calendar = isCalendarPeriod(period);
  const out: WorkBar[] = [];
  for (const bar of bars) {
    const startMs = Date.parse(bar.time);
    const time = calendar ? bar.date : chartTimeOf(startMs);
    const previous = out.at(-1);
    // The chart needs strictly increasing times.
    if (previous !== undefined && previous.time >= time) continue;
    out.push({
      time,
      startMs,
      date: bar.date,
      open: bar.open,
      high: bar.high,
      low: bar.low,
      close: bar.close,
      volume: bar.volume,
    });
  }
  return out;
}

/** Simple moving average of the closes; undefined until n bars exist. */
export function movingAverage(bars: readonly WorkBar[], n: number): (number | undefined)[] {
  const out: (number | undefined)[] = [];
  let sum = 0;
  for (let i = 0; i < bars.length; i += 1) {
    sum += bars[i]?.close ?? 0;
    if (i >= n) sum -= bars[i - n]?.close ?? 0;
    out.push(i >= n - 1 ? sum / n : undefined);
  }
  return out;
}

export function lastMovingAverage(bars: readonly WorkBar[], n: number): number | undefined {
  if (bars.length < n) return undefined;
  let sum = 0;
  for (let i = bars.length - n; i < bars.length; i += 1) sum += bars[i]?.close ?? 0;
  return sum / n;
}

/** Simple moving average of the closes of bars[i - n + 1..i]; undefined before n bars. */
export function movingAverageAt(bars: readonly WorkBar[], i: number, n: number): number | undefined {
  if (i < n - 1 || i >= bars.length) return undefined;
  let sum = 0;
  for (let j = i - n + 1; j <= i; j += 1) sum += bars[j]?.close ?? 0;
  return sum / n;
}

/** How far back a refetch may change bars and still be drawn with update() rather than setData(). */
export const MERGE_MAX_REDRAW = 30;
/** Bars kept in front of a refetch before the chart is trimmed with a full setData(). */
export const MERGE_MAX_KEPT = 300;

export interface WorkMerge {
  /** The drawn bars followed by the fetched ones (bars older than the fetch are kept). */
  work: WorkBar[];
  /** Index in `work` of the first changed or new bar (work.length when nothing changed). */
  from: number;
  /** Indexes in `work` of the bars to draw again. */
  changed: Set<number>;
}

function sameBar(a: WorkBar, b: WorkBar): boolean {
  return (
    a.time === b.time &&
    a.open === b.open &&
    a.high === b.high &&
    a.low === b.low &&
    a.close === b.close &&
    a.volume === b.volume
  );
}

/**
 * Lays freshly fetched bars over the drawn ones so that only what changed is drawn again: null when that
 * cannot be done with updates of the last few bars (nothing drawn yet, the fetch starts before the drawn
 * bars, a drawn bar is missing from it, too many changes far back, or too many bars kept in front).
 */
export function mergeWorkBars(old: readonly WorkBar[], next: readonly WorkBar[]): WorkMerge | null {
  const first = next[0];
  const oldFirst = old[0];
  if (first === undefined || oldFirst === undefined || first.time < oldFirst.time) return null;
  let keep = 0;
  while (keep < old.length && (old[keep]?.time ?? first.time) < first.time) keep += 1;
  if (keep > MERGE_MAX_KEPT || old.length > keep + next.length) return null;
  const changed = new Set<number>();
  for (let j = 0; j < next.length; j += 1) {
    const bar = next[j];
    if (bar === undefined) continue;
    const drawn = old[keep + j];
    if (drawn !== undefined && drawn.time !== bar.time) return null;
    if (drawn === undefined || !sameBar(drawn, bar)) changed.add(keep + j);
  }
  const work = [...old.slice(0, keep), ...next];
  const from = changed.size === 0 ? work.length : Math.min(...changed);
  if (from < work.length - MERGE_MAX_REDRAW) return null;
  return { work, from, changed };
}

/** Epoch ms of the start of the N-minute bucket holding `ms` (buckets align on 9:00 and 12:30 Tokyo). */
export function bucketStartMs(ms: number, minutes: number): number {
  const tokyo = ms + TOKYO_OFFSET_S * 1000;
  const midnight = Math.floor(tokyo / DAY_MS) * DAY_MS;
  const minuteOfDay = Math.floor((tokyo - midnight) / 60_000);
  const base = minuteOfDay >= AFTERNOON_OPEN ? AFTERNOON_OPEN : MORNING_OPEN;
  const start =
    minuteOfDay < MORNING_OPEN ? minuteOfDay : base + Math.floor((minuteOfDay - base) / minutes) * minutes;
  return midnight + start * 60_000 - TOKYO_OFFSET_S * 1000;
}

function mondayOf(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d.toISOString().slice(0, 10);
}

export interface TickResult {
  /** 'update': the last bar changed; 'append': a bar was added; 'none': nothing to draw. */
  kind: 'update' | 'append' | 'none';
  bar?: WorkBar;
}

/**
 * Applies a quote to the bars (mutating the array): updates close, high, low and volume of the forming
 * bar, or starts a new bar when the quote's time passes the bar's period. `previousVolume` is the day's
 * cumulative volume at the previous quote (null at the first), to add only the new shares. In
 * always-open mode the quote's wall-clock time is not on the bars' (virtual session) time scale, so only
 * the last bar is updated.
 */
export function applyQuote(
  bars: WorkBar[],
  quote: TQuote,
  period: TBarPeriod,
  options: { alwaysOpen: boolean; previousVolume: number | null },
): TickResult {
  const last = bars.at(-1);
  if (last === undefined || quote.last <= 0) return { kind: 'none' };
  const price = quote.last;
  const delta =
    options.previousVolume === null
      ? 0
      : quote.volume >= options.previousVolume
        ? quote.volume - options.previousVolume
        : quote.volume;
  const update = (bar: WorkBar, volume: number): TickResult => {
    bar.close = price;
    bar.high = Math.max(bar.high, price);
    bar.low = Math.min(bar.low, price);
    bar.volume = volume;
    return { kind: 'update', bar };
  };
  const append = (bar: WorkBar): TickResult => {
    bars.push(bar);
    return { kind: 'append', bar };
  };

  if (period === '1d') {
    if (quote.trading_date === last.date) return update(last, Math.max(last.volume, quote.volume));
    if (quote.trading_date < last.date) return { kind: 'none' };
    return append({
      time: quote.trading_date,
      startMs: Date.parse(`${quote.trading_date}T00:00:00+09:00`),
      date: quote.trading_date,
      open: quote.open > 0 ? quote.open : price,
      high: Math.max(quote.high, price),
      low: quote.low > 0 ? Math.min(quote.low, price) : price,
      close: price,
      volume: quote.volume,
    });
  }
  if (period === '1w' || period === '1mo') {
    const groupOf = period === '1w' ? mondayOf : (d: string) => d.slice(0, 7);
    const group = groupOf(quote.trading_date);
    const lastGroup = groupOf(last.date);
    if (group === lastGroup || options.alwaysOpen) return update(last, last.volume + delta);
    if (group < lastGroup) return { kind: 'none' };
    return append({
      time: quote.trading_date,
      startMs: Date.parse(`${quote.trading_date}T00:00:00+09:00`),
      date: quote.trading_date,
      open: price,
      high: price,
      low: price,
      close: price,
      volume: quote.volume,
    });
  }
  const minutes = MINUTES[period] ?? 1;
  if (options.alwaysOpen) return update(last, last.volume + delta);
  const tickMs = Date.parse(quote.time);
  if (!Number.isFinite(tickMs)) return { kind: 'none' };
  const start = bucketStartMs(tickMs, minutes);
  if (start === last.startMs) return update(last, last.volume + delta);
  if (start < last.startMs) return { kind: 'none' };
  return append({
    time: chartTimeOf(start),
    startMs: start,
    date: quote.trading_date,
    open: price,
    high: price,
    low: price,
    close: price,
    volume: delta,
  });
}

/** What the chart last drew of the forming bar: its bar and its moving-average points. */
export interface DrawnTick {
  time: number | string;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  ma: readonly (number | undefined)[];
}

/**
 * Which series a tick has to update, given what was drawn last (null: nothing yet, or the drawn bars were
 * replaced since). Every series update makes lightweight-charts rebuild that series' points, so a tick
 * that changes only the volume (the price did not move) updates only the volume histogram.
 */
export function tickChanges(
  drawn: DrawnTick | null,
  next: DrawnTick,
): { price: boolean; volume: boolean; ma: boolean[] } {
  if (drawn === null || drawn.time !== next.time) {
    return { price: true, volume: true, ma: next.ma.map(() => true) };
  }
  const price =
    drawn.open !== next.open ||
    drawn.high !== next.high ||
    drawn.low !== next.low ||
    drawn.close !== next.close;
  // The histogram's colour follows whether the bar closes at or above its open.
  const volume = drawn.volume !== next.volume || drawn.close >= drawn.open !== next.close >= next.open;
  return { price, volume, ma: next.ma.map((v, i) => v !== drawn.ma[i]) };
}
