import type { TMarketList, TQuote, TStockDetail, TStockRow } from '@kabuto/contract';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { applyQuotes, createFrameBatcher } from './quote-cache';

const quote = (code: string, last: number, time = '2026-01-05T00:00:01.000Z') =>
  ({ code, last, time, change: 0, change_bp: 0 }) as unknown as TQuote;
const row = (code: string, last: number) =>
  ({ code, name: code, quote: quote(code, last, '2026-01-05T00:00:00.000Z') }) as unknown as TStockRow;

describe('quote cache', () => {
  it('patches lists, the watchlist and the detail, keeping untouched rows', () => {
    const client = new QueryClient();
    const list: TMarketList = { total: 2, items: [row('7203', 1), row('6758', 2)] };
    client.setQueryData(['market', 'list', 'en', null, 'gainers', '', 50], list);
    client.setQueryData(['watchlist', 7], [row('7203', 1)]);
    client.setQueryData(['market', 'stock', '7203', 'en', 7], { ...row('7203', 1), watched: true });
    client.setQueryData(['market', 'stock', '9999', 'en', 7], { code: '9999', quote: null });
    applyQuotes(client, new Map([['7203', quote('7203', 5)]]));
    const next = client.getQueryData<TMarketList>(['market', 'list', 'en', null, 'gainers', '', 50]);
    expect(next?.items[0]?.quote.last).toBe(5);
    expect(next?.items[1]).toBe(list.items[1]);
    expect(client.getQueryData<TStockRow[]>(['watchlist', 7])?.[0]?.quote.last).toBe(5);
    expect(client.getQueryData<TStockDetail>(['market', 'stock', '7203', 'en', 7])?.quote?.last).toBe(5);
    expect(client.getQueryData<TStockDetail>(['market', 'stock', '9999', 'en', 7])?.quote).toBeNull();
  });

  it('ignores an older quote and leaves the entry untouched', () => {
    const client = new QueryClient();
    const list: TMarketList = { total: 1, items: [row('7203', 1)] };
    client.setQueryData(['market', 'list', 'x'], list);
    applyQuotes(client, new Map([['7203', quote('7203', 9, '2025-01-01T00:00:00.000Z')]]));
    expect(client.getQueryData(['market', 'list', 'x'])).toBe(list);
  });

  it('applies the latest tick per code once per frame', () => {
    const frames: (() => void)[] = [];
    const apply = vi.fn();
    const batcher = createFrameBatcher(apply, (fn) => frames.push(fn));
    batcher.quote(quote('7203', 1));
    batcher.quote(quote('7203', 2));
    batcher.quote(quote('6758', 3));
    expect(frames).toHaveLength(1);
    frames[0]?.();
    expect(apply).toHaveBeenCalledOnce();
    const [quotes] = apply.mock.calls[0] as [Map<string, TQuote>];
    expect([...quotes.values()].map((q) => q.last)).toEqual([2, 3]);
  });
});
