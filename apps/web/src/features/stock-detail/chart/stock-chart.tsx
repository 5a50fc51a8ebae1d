import type { Locale, TBar, TBarPeriod, TQuote } from '@kabuto/contract';
import {
  AreaSeries,
  CandlestickSeries,
  ColorType,
  createChart,
  HistogramSeries,
  LineSeries,
  LineStyle,
  type IChartApi,
  type ISeriesApi,
  type LineData,
  type Time,
} from 'lightweight-charts';
import { useEffect, useRef } from 'react';
import {
  applyQuote,
  isCalendarPeriod,
  lastMovingAverage,
  MA_LENGTHS,
  mergeWorkBars,
  movingAverage,
  movingAverageAt,
  tickChanges,
  toWorkBars,
  type DrawnTick,
  type WorkBar,
} from './chart-data';
import { indicatorData, type Point } from './indicator-series';
import type { IndicatorChoice } from './indicator-settings';

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
  /** the indicators shown (ADR 0024): moving averages and volume on the price pane, Bollinger Bands and
   * 一目均衡表 over the prices, MACD and RSI each in a pane of its own below */
  indicators: IndicatorChoice;
}

const MA_COLORS = ['#f59f00', '#7048e8', '#0ca678'] as const;
/** Height of the price pane, and of each indicator pane below it (px). */
export const PRICE_PANE_PX = 320;
export const INDICATOR_PANE_PX = 110;
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
  const { period, bars, quote, priceDecimals, alwaysOpen, locale, label, indicators } = props;
  const containerRef = useRef<HTMLDivElement>(null);
  const handlesRef = useRef<Handles | null>(null);
  const workRef = useRef<WorkBar[]>([]);
  const volumeSeenRef = useRef<number | null>(null);
  /** The forming bar as last drawn by a tick (null after the bars were drawn from a fetch). */
  const drawnRef = useRef<DrawnTick | null>(null);
  const fittedRef = useRef(false);
  const colorsRef = useRef({ rise: '#d02a1a', fall: '#15803d' });

  // Create the chart once per instance (period, decimals and locale are part of the parent's key).
  useEffect(() => {
    const container = containerRef.current;
    if (container === null) return;
    const rise = cssColor('--rise', '#d02a1a');
    const fall = cssColor('--fall', '#15803d');
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
    const ma = MA_LENGTHS.map((n, i) =>
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
    const lengths = MA_LENGTHS;
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
      ma: MA_LENGTHS.map((n) => lastMovingAverage(work, n)),
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

  // Moving averages and volume: drawn always (their live updates are above), shown when chosen.
  useEffect(() => {
    const handles = handlesRef.current;
    if (handles === null) return;
    for (const line of handles.ma) line.applyOptions({ visible: indicators.ma });
    handles.volume.applyOptions({ visible: indicators.volume });
  }, [indicators.ma, indicators.volume]);

  // The other indicators' series exist while they are on; MACD and RSI each add a pane.
  const overlaysRef = useRef<Overlays | null>(null);
  const { bollinger: withBands, ichimoku: withCloud, macd: withMacd, rsi: withRsi } = indicators;
  useEffect(() => {
    const handles = handlesRef.current;
    const container = containerRef.current;
    if (handles === null || container === null) return;
    const overlays = createOverlays(handles.chart, {
      bollinger: withBands,
      ichimoku: withCloud,
      macd: withMacd,
      rsi: withRsi,
    });
    overlaysRef.current = overlays;
    container.dataset['panes'] = String(handles.chart.panes().length);
    return () => {
      overlaysRef.current = null;
      if (handlesRef.current === null) return; // the chart itself was removed
      for (const series of overlays.all) handles.chart.removeSeries(series);
      for (let i = handles.chart.panes().length - 1; i > 0; i -= 1) handles.chart.removePane(i);
    };
  }, [withBands, withCloud, withMacd, withRsi, period, priceDecimals, locale]);

  // Their data follows the bars and the live quote (recomputed from the drawn bars: a few hundred at most).
  useEffect(() => {
    const overlays = overlaysRef.current;
    if (overlays === null || overlays.all.length === 0) return;
    const data = indicatorData(workRef.current, indicators);
    const set = (series: ISeriesApi<'Line'> | ISeriesApi<'Histogram'> | undefined, points?: Point[]) => {
      if (series !== undefined && points !== undefined) series.setData(points as LineData[]);
    };
    set(overlays.bands?.upper, data.bollinger?.upper);
    set(overlays.bands?.middle, data.bollinger?.middle);
    set(overlays.bands?.lower, data.bollinger?.lower);
    set(overlays.cloud?.conversion, data.ichimoku?.conversion);
    set(overlays.cloud?.base, data.ichimoku?.base);
    set(overlays.cloud?.spanA, data.ichimoku?.spanA);
    set(overlays.cloud?.spanB, data.ichimoku?.spanB);
    set(overlays.cloud?.lagging, data.ichimoku?.lagging);
    set(overlays.macd?.macd, data.macd?.macd);
    set(overlays.macd?.signal, data.macd?.signal);
    set(
      overlays.macd?.histogram,
      data.macd?.histogram.map((p) =>
        p.value === undefined
          ? p
          : { ...p, color: p.value >= 0 ? `${colorsRef.current.rise}99` : `${colorsRef.current.fall}99` },
      ),
    );
    set(overlays.rsi, data.rsi);
  }, [bars, quote, indicators]);

  const extraPanes = (withMacd ? 1 : 0) + (withRsi ? 1 : 0);
  // a figure named by its caption (the period, the latest price and change), not role="img": the chart
  // library puts a link of its own inside, which an image may not hold (axe: nested-interactive)
  return (
    <figure className="stock-chart-figure">
      <div
        ref={containerRef}
        style={{ height: PRICE_PANE_PX + extraPanes * INDICATOR_PANE_PX }}
        data-indicators={INDICATOR_ORDER.filter((id) => indicators[id]).join(' ')}
        className="stock-chart"
        data-testid="stock-chart"
        data-period={period}
        data-bars={bars.length}
      />
      <figcaption className="visually-hidden" data-testid="stock-chart-summary">
        {label}
      </figcaption>
    </figure>
  );
}

const INDICATOR_ORDER = ['ma', 'volume', 'bollinger', 'ichimoku', 'macd', 'rsi'] as const;

interface Overlays {
  all: (ISeriesApi<'Line'> | ISeriesApi<'Histogram'>)[];
  bands?: { upper: ISeriesApi<'Line'>; middle: ISeriesApi<'Line'>; lower: ISeriesApi<'Line'> };
  cloud?: {
    conversion: ISeriesApi<'Line'>;
    base: ISeriesApi<'Line'>;
    spanA: ISeriesApi<'Line'>;
    spanB: ISeriesApi<'Line'>;
    lagging: ISeriesApi<'Line'>;
  };
  macd?: { macd: ISeriesApi<'Line'>; signal: ISeriesApi<'Line'>; histogram: ISeriesApi<'Histogram'> };
  rsi?: ISeriesApi<'Line'>;
}

/** The series of the chosen indicators (Bollinger Bands and 一目均衡表 on the price pane, MACD and RSI below). */
function createOverlays(
  chart: IChartApi,
  on: { bollinger: boolean; ichimoku: boolean; macd: boolean; rsi: boolean },
): Overlays {
  const all: Overlays['all'] = [];
  const line = (color: string, pane: number, extra: Record<string, unknown> = {}) => {
    const series = chart.addSeries(
      LineSeries,
      {
        color,
        lineWidth: 1,
        priceLineVisible: false,
        lastValueVisible: false,
        crosshairMarkerVisible: false,
        ...extra,
      },
      pane,
    );
    all.push(series);
    return series;
  };
  const out: Overlays = { all };
  if (on.bollinger) {
    out.bands = {
      upper: line('#74c0fc', 0, { title: '+2σ' }),
      middle: line('#4dabf7', 0, { lineStyle: LineStyle.Dashed }),
      lower: line('#74c0fc', 0, { title: '−2σ' }),
    };
  }
  if (on.ichimoku) {
    out.cloud = {
      conversion: line('#e8590c', 0),
      base: line('#1c7ed6', 0),
      spanA: line('#f08c00', 0, { lineWidth: 2 }),
      spanB: line('#9c36b5', 0, { lineWidth: 2 }),
      lagging: line('#2f9e44', 0, { lineStyle: LineStyle.Dotted }),
    };
  }
  let pane = 1;
  if (on.macd) {
    const histogram = chart.addSeries(
      HistogramSeries,
      { priceLineVisible: false, lastValueVisible: false },
      pane,
    );
    all.push(histogram);
    out.macd = {
      histogram,
      macd: line('#1c7ed6', pane, { title: 'MACD' }),
      signal: line('#f08c00', pane, { title: 'Signal' }),
    };
    pane += 1;
  }
  if (on.rsi) {
    out.rsi = line('#7048e8', pane, { title: 'RSI', lastValueVisible: true });
    out.rsi.createPriceLine({
      price: 70,
      color: '#adb5bd',
      lineWidth: 1,
      lineStyle: LineStyle.Dashed,
      axisLabelVisible: false,
    });
    out.rsi.createPriceLine({
      price: 30,
      color: '#adb5bd',
      lineWidth: 1,
      lineStyle: LineStyle.Dashed,
      axisLabelVisible: false,
    });
  }
  // the panes share the chart's height in these proportions (the chart grows with its panes)
  chart.panes().forEach((p, i) => {
    p.setStretchFactor(i === 0 ? PRICE_PANE_PX : INDICATOR_PANE_PX);
  });
  return out;
}
