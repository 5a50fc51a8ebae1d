import { sen, type TQuote, type TStockDetail } from '@kabuto/contract';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import {
  selectFigures,
  selectHeaderPrice,
  selectInfo,
  selectQuote,
  selectQuoteMinute,
  selectQuoteTime,
} from './stock-selectors';

const KEY = ['market', 'stock', '3436', 'en', null];

function quote(second: number, last: number, volume: number): TQuote {
  return {
    code: '3436',
    last: sen(last),
    bid: sen(last - 10),
    ask: sen(last),
    open: sen(98_000),
    high: sen(Math.max(98_000, last)),
    low: sen(Math.min(98_000, last)),
    prev_close: sen(97_500),
    volume,
    turnover: sen(volume * last),
    change: sen(last - 97_500),
    change_bp: Math.round(((last - 97_500) * 10_000) / 97_500),
    limit_up: sen(112_500),
    limit_down: sen(82_500),
    trading_date: '2026-11-20',
    time: `2026-11-20T03:40:${String(second).padStart(2, '0')}.000Z`,
    simulated: true,
  };
}

const stock = (q: TQuote | null): TStockDetail => ({
  code: '3436',
  name: 'SUMCO',
  name_ja: 'ＳＵＭＣＯ',
  name_en: 'SUMCO',
  sector: 'Metal Products',
  market: 'Prime',
  topix500: true,
  nikkei225: true,
  tradable: true,
  price_decimals: 1,
  watched: false,
  price_basis: 'calibrated',
  quote: q,
});

/**
 * How often an observer of the stock query through `select` would render its component again: useQuery
 * renders again when a property the component read changed, and the parts read `data`.
 */
function watch<T>(client: QueryClient, select: (s: TStockDetail) => T) {
  const observer = new QueryObserver(client, {
    queryKey: KEY,
    select,
    staleTime: Infinity,
    enabled: false,
    notifyOnChangeProps: ['data'],
  });
  const seen: T[] = [];
  const stop = observer.subscribe((result) => {
    seen.push(result.data as T);
  });
  return { seen, stop, current: () => observer.getCurrentResult().data as T };
}

describe('the stock page selectors', () => {
  it('pick what each part draws', () => {
    const s = stock(quote(1, 98_410, 1_000));
    const { quote: _q, ...rest } = s;
    expect(selectInfo(s)).toEqual({ ...rest, hasQuote: true });
    expect(selectInfo(stock(null)).hasQuote).toBe(false);
    expect(selectHeaderPrice(s)).toEqual({ last: 98_410, change: 910, change_bp: 93 });
    expect(selectHeaderPrice(stock(null))).toBeNull();
    expect(selectQuoteTime(s)).toBe('2026-11-20T03:40:01.000Z');
    expect(selectQuoteMinute(s)).toBe(Date.parse('2026-11-20T03:40:00.000Z'));
    expect(selectQuoteMinute(stock(null))).toBeNull();
    expect(selectFigures(s)).toMatchObject({ volume: 1_000, bid: 98_400, ask: 98_410, limit_up: 112_500 });
    expect(selectQuote(s)).toBe(s.quote);
  });

  it('let a tick render only the parts whose figures changed', () => {
    const client = new QueryClient();
    client.setQueryData(KEY, stock(quote(1, 98_410, 1_000)));
    const info = watch(client, selectInfo);
    const price = watch(client, selectHeaderPrice);
    const minute = watch(client, selectQuoteMinute);
    const figures = watch(client, selectFigures);
    const whole = watch(client, selectQuote);
    const infoBefore = info.current();

    const tick = (q: TQuote) => {
      // as the realtime stream applies a tick (shared/realtime/quote-cache.ts): the quote replaced
      client.setQueryData<TStockDetail>(KEY, (old) => (old === undefined ? old : { ...old, quote: q }));
    };
    // Same price, more volume: the figures and the chart follow, the header's price does not.
    tick(quote(2, 98_410, 1_100));
    // A new price.
    tick(quote(3, 98_420, 1_200));
    // Nothing new at all (the same figures a second later): only the time moves.
    tick(quote(4, 98_420, 1_200));

    expect(info.seen).toHaveLength(0);
    expect(info.current()).toBe(infoBefore);
    expect(price.seen.map((p) => p?.last)).toEqual([98_420]);
    expect(minute.seen).toHaveLength(0);
    expect(figures.seen.map((f) => f?.volume)).toEqual([1_100, 1_200]);
    expect(whole.seen).toHaveLength(3);
    for (const o of [info, price, minute, figures, whole]) o.stop();
  });
});
