import type { Locale, TBar, TBarPeriod, TQuote } from '@kabuto/contract';
import {
  AreaSeries,
  CandlestickSeries,
  ColorType,
  createChart,
  HistogramSeries,
  LineSeries,
  type IChartApi,
  type ISeriesApi,
  type Time,
} from 'lightweight-charts';
import { useEffect, useRef } from 'react';
import {
  applyQuote,
  isCalendarPeriod,
  lastMovingAverage,
  maLengths,
  mergeWorkBars,
  movingAverage,
  movingAverageAt,
  tickChanges,
  toWorkBars,
  type DrawnTick,
  type WorkBar,
} from './chart-data';

/**
 * The price chart (lightweight-charts, loaded lazily in its own chunk): candlesticks for bar periods, an
 * area for the intraday series, volume as a histogram on its own scale at the bottom and two moving
 * averages. Prices in yen. The last bar follows the live quote. The parent gives it a new key for each
 * period, so one chart instance draws one period; it resizes with its container and is removed on unmount.
 */
export interface StockChartProps {
  period: TBarPeriod;
  bars: readonly TBar[];
  quote: TQuote | null;
  priceDecimals: 0 | 1;
  alwaysOpen: boolean;
  locale: Locale;
  label: string;
}

const MA_COLORS = ['#f59f00', '#7048e8'] as const;
const VISIBLE_BARS = 90;

interface Handles {
  chart: IChartApi;
  price: ISeriesApi<'Candlestick'> | ISeriesApi<'Area'>;
  volume: ISeriesApi<'Histogram'>;
  ma: ISeriesApi<'Line'>[];
}

function cssColor(name: string, fallback: string): string {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return value === '' ? fallback : value;
}

const yen = (sen: number) => sen / 100;

export default function StockChart(props: StockChartProps) {
  const { period, bars, quote, priceDecimals, alwaysOpen, locale, label } = props;
  const containerRef = useRef<HTMLDivElement>(null);
  const handlesRef = useRef<Handles | null>(null);
  const workRef = useRef<WorkBar[]>([]);
  const volumeSeenRef = useRef<number | null>(null);
  /** The forming bar as last drawn by a tick (null after the bars were drawn from a fetch). */
  const drawnRef = useRef<DrawnTick | null>(null);
  const fittedRef = useRef(false);
  const colorsRef = useRef({ rise: '#e0301e', fall: '#1a9a4b' });

  // Create the chart once per instance (period, decimals and locale are part of the parent's key).
  useEffect(() => {
    const container = containerRef.current;
    if (container === null) return;
    const rise = cssColor('--rise', '#e0301e');
    const fall = cssColor('--fall', '#1a9a4b');
    colorsRef.current = { rise, fall };
    const calendar = isCalendarPeriod(period);
    const chart = createChart(container, {
      autoSize: true,
      layout: {
        background: { type: ColorType.Solid, color: '#ffffff' },
        textColor: '#5c6470',
        fontSize: 11,
      },
      localization: { locale },
      grid: { vertLines: { color: '#f0f2f5' }, horzLines: { color: '#f0f2f5' } },
      rightPriceScale: { borderColor: '#e3e6ea', scaleMargins: { top: 0.08, bottom: 0.3 } },
      timeScale: { borderColor: '#e3e6ea', timeVisible: !calendar, secondsVisible: false },
    });
    const priceFormat = {
      type: 'price' as const,
      precision: priceDecimals,
      minMove: priceDecimals === 1 ? 0.1 : 1,
    };
    const price =
      period === 'intraday'
        ? chart.addSeries(AreaSeries, {
            lineColor: '#1a6fc4',
            topColor: 'rgba(26, 111, 196, 0.28)',
            bottomColor: 'rgba(26, 111, 196, 0.02)',
            lineWidth: 2,
            priceFormat,
          })
        : chart.addSeries(CandlestickSeries, {
            upColor: rise,
            downColor: fall,
            borderUpColor: rise,
            borderDownColor: fall,
            wickUpColor: rise,
            wickDownColor: fall,
            priceFormat,
          });
    const volume = chart.addSeries(HistogramSeries, {
      priceScaleId: 'volume',
      priceFormat: { type: 'volume' },
      lastValueVisible: false,
      priceLineVisible: false,
    });
    chart.priceScale('volume').applyOptions({ scaleMargins: { top: 0.76, bottom: 0 } });
    const ma = maLengths(period).map((n, i) =>
      chart.addSeries(LineSeries, {
        color: MA_COLORS[i] ?? '#999',
        lineWidth: 1,
        priceFormat,
        priceLineVisible: false,
        lastValueVisible: false,
        crosshairMarkerVisible: false,
        title: `MA${n}`,
      }),
    );
    handlesRef.current = { chart, price, volume, ma };
    fittedRef.current = false;
    return () => {
      handlesRef.current = null;
      chart.remove();
    };
  }, [period, priceDecimals, locale]);

  // The first bars set the data; later fetches (the minute refetch) only update the bars that changed.
  useEffect(() => {
    const handles = handlesRef.current;
    if (handles === null) return;
    const next = toWorkBars(bars, period);
    const { rise, fall } = colorsRef.current;
    const time = (b: WorkBar) => b.time as Time;
    const lengths = maLengths(period);
    const drawBar = (b: WorkBar, historical: boolean) => {
      if (period === 'intraday') {
        (handles.price as ISeriesApi<'Area'>).update({ time: time(b), value: yen(b.close) }, historical);
      } else {
        (handles.price as ISeriesApi<'Candlestick'>).update(
          { time: time(b), open: yen(b.open), high: yen(b.high), low: yen(b.low), close: yen(b.close) },
          historical,
        );
      }
      handles.volume.update(
        { time: time(b), value: b.volume, color: `${b.close >= b.open ? rise : fall}66` },
        historical,
      );
    };
    const merge = mergeWorkBars(workRef.current, next);
    if (merge !== null) {
      try {
        const work = merge.work;
        const last = work.length - 1;
        for (let i = merge.from; i <= last; i += 1) {
          const b = work[i];
          if (b !== undefined && merge.changed.has(i)) drawBar(b, i < last);
        }
        lengths.forEach((n, k) => {
          for (let i = merge.from; i <= last; i += 1) {
            const b = work[i];
            if (b === undefined) continue;
            const v = movingAverageAt(work, i, n);
            handles.ma[k]?.update(
              v === undefined ? { time: time(b) } : { time: time(b), value: yen(v) },
              i < last,
            );
          }
        });
        workRef.current = work;
        volumeSeenRef.current = null;
        drawnRef.current = null;
        return;
      } catch {
        // Fall back to replacing the data.
      }
    }
    const work = next;
    workRef.current = work;
    volumeSeenRef.current = null;
    drawnRef.current = null;
    if (period === 'intraday') {
      (handles.price as ISeriesApi<'Area'>).setData(
        work.map((b) => ({ time: time(b), value: yen(b.close) })),
      );
    } else {
      (handles.price as ISeriesApi<'Candlestick'>).setData(
        work.map((b) => ({
          time: time(b),
          open: yen(b.open),
          high: yen(b.high),
          low: yen(b.low),
          close: yen(b.close),
        })),
      );
    }
    handles.volume.setData(
      work.map((b) => ({ time: time(b), value: b.volume, color: `${b.close >= b.open ? rise : fall}66` })),
    );
    lengths.forEach((n, i) => {
      const values = movingAverage(work, n);
      handles.ma[i]?.setData(
        work.map((b, j) => {
          const v = values[j];
          return v === undefined ? { time: time(b) } : { time: time(b), value: yen(v) };
        }),
      );
    });
    if (!fittedRef.current && work.length > 0) {
      fittedRef.current = true;
      if (work.length > VISIBLE_BARS) {
        handles.chart
          .timeScale()
          .setVisibleLogicalRange({ from: work.length - VISIBLE_BARS, to: work.length + 2 });
      } else {
        handles.chart.timeScale().fitContent();
      }
    }
  }, [bars, period]);

  // Live quotes move the last bar (or start the next one).
  useEffect(() => {
    const handles = handlesRef.current;
    if (handles === null || quote === null) return;
    const work = workRef.current;
    const result = applyQuote(work, quote, period, { alwaysOpen, previousVolume: volumeSeenRef.current });
    volumeSeenRef.current = quote.volume;
    const b = result.bar;
    if (result.kind === 'none' || b === undefined) return;
    const time = b.time as Time;
    const { rise, fall } = colorsRef.current;
    const tick: DrawnTick = {
      time: b.time,
      open: b.open,
      high: b.high,
      low: b.low,
      close: b.close,
      volume: b.volume,
      ma: maLengths(period).map((n) => lastMovingAverage(work, n)),
    };
    const changed = tickChanges(drawnRef.current, tick);
    try {
      if (changed.price && period === 'intraday') {
        (handles.price as ISeriesApi<'Area'>).update({ time, value: yen(b.close) });
      } else if (changed.price) {
        (handles.price as ISeriesApi<'Candlestick'>).update({
          time,
          open: yen(b.open),
          high: yen(b.high),
          low: yen(b.low),
          close: yen(b.close),
        });
      }
      if (changed.volume) {
        handles.volume.update({ time, value: b.volume, color: `${b.close >= b.open ? rise : fall}66` });
      }
      tick.ma.forEach((v, i) => {
        if (changed.ma[i] === true)
          handles.ma[i]?.update(v === undefined ? { time } : { time, value: yen(v) });
      });
      drawnRef.current = tick;
    } catch {
      // A quote older than the drawn bars: the next fetch of bars puts things right.
      drawnRef.current = null;
    }
  }, [quote, period, alwaysOpen]);

  return (
    <div
      ref={containerRef}
      className="stock-chart"
      role="img"
      aria-label={label}
      data-testid="stock-chart"
      data-period={period}
      data-bars={bars.length}
    />
  );
}
