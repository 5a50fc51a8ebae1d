import {
  bollinger,
  ICHIMOKU_DISPLACEMENT,
  ichimoku,
  macd,
  rsi,
  type Series,
} from '@/domains/market/indicators';
import type { IndicatorChoice } from './indicator-settings';
import type { WorkBar } from './chart-data';

/**
 * What the chart draws for the indicators that are on, from its bars: points with the bars' times (prices in
 * yen), whitespace where an indicator is not defined. The cloud of 一目均衡表 is drawn 26 bars ahead, past
 * the last bar, at the times the next bars would have (futureTimes); its lagging span 26 bars behind.
 */
export type ChartTime = number | string;
export interface Point {
  time: ChartTime;
  value?: number;
}

export interface IndicatorData {
  bollinger?: { upper: Point[]; middle: Point[]; lower: Point[] };
  ichimoku?: { conversion: Point[]; base: Point[]; spanA: Point[]; spanB: Point[]; lagging: Point[] };
  macd?: { macd: Point[]; signal: Point[]; histogram: Point[] };
  rsi?: Point[];
}

const DAY_MS = 86_400_000;

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

function nextWeekday(date: string): string {
  let next = addDays(date, 1);
  for (let day = new Date(`${next}T00:00:00Z`).getUTCDay(); day === 0 || day === 6;) {
    next = addDays(next, 1);
    day = new Date(`${next}T00:00:00Z`).getUTCDay();
  }
  return next;
}

function nextMonth(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + 1, 1);
  return d.toISOString().slice(0, 10);
}

/**
 * `count` times after the last bar's: minute bars continue at their step (seconds); daily bars go on by
 * weekdays (holidays are not skipped), weekly bars by weeks and monthly bars by months.
 */
export function futureTimes(times: readonly ChartTime[], count: number): ChartTime[] {
  const last = times[times.length - 1];
  if (last === undefined || count <= 0) return [];
  const prev = times[times.length - 2];
  const out: ChartTime[] = [];
  if (typeof last === 'number') {
    const step = typeof prev === 'number' && last > prev ? last - prev : 60;
    for (let i = 1; i <= count; i += 1) out.push(last + step * i);
    return out;
  }
  const gapDays = typeof prev === 'string' ? Math.round((Date.parse(last) - Date.parse(prev)) / DAY_MS) : 1;
  let t = last;
  for (let i = 0; i < count; i += 1) {
    t = gapDays >= 28 ? nextMonth(t) : gapDays >= 5 ? addDays(t, 7) : nextWeekday(t);
    out.push(t);
  }
  return out;
}

const yenPoints = (times: readonly ChartTime[], values: Series, scale = 100): Point[] =>
  times.map((time, i) => {
    const v = values[i] ?? null;
    return v === null ? { time } : { time, value: v / scale };
  });

export function indicatorData(work: readonly WorkBar[], choice: IndicatorChoice): IndicatorData {
  const out: IndicatorData = {};
  if (work.length === 0) return out;
  const times = work.map((b) => b.time);
  const closes = work.map((b) => b.close);
  if (choice.bollinger) {
    const b = bollinger(closes, 20, 2);
    out.bollinger = {
      upper: yenPoints(times, b.upper),
      middle: yenPoints(times, b.middle),
      lower: yenPoints(times, b.lower),
    };
  }
  if (choice.ichimoku) {
    const i = ichimoku(
      work.map((b) => b.high),
      work.map((b) => b.low),
      closes,
    );
    const d = ICHIMOKU_DISPLACEMENT;
    const ahead = [...times.slice(d), ...futureTimes(times, Math.min(d, times.length))];
    const shifted = (values: Series) => yenPoints(ahead, values.slice(0, ahead.length));
    out.ichimoku = {
      conversion: yenPoints(times, i.conversion),
      base: yenPoints(times, i.base),
      spanA: shifted(i.spanA),
      spanB: shifted(i.spanB),
      lagging: yenPoints(times.slice(0, Math.max(0, times.length - d)), i.lagging.slice(d)),
    };
  }
  if (choice.macd) {
    const m = macd(closes, 12, 26, 9);
    out.macd = {
      macd: yenPoints(times, m.macd),
      signal: yenPoints(times, m.signal),
      histogram: yenPoints(times, m.histogram),
    };
  }
  if (choice.rsi) out.rsi = yenPoints(times, rsi(closes, 14), 1);
  return out;
}
