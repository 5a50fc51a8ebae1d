import type { TIndexQuote, TMarketList, TQuote, TStockDetail, TStockRow } from '@kabuto/contract';
import type { QueryClient } from '@tanstack/react-query';
import type { IndexTick } from './connection';

/**
 * Puts streamed quotes into the TanStack Query cache (no copy of server state in components): the stock
 * detail, every market list and the watchlist that hold the code. Rows that did not change keep their
 * identity so that memoized rows do not render again; an updater returns undefined when nothing changed,
 * which leaves the cache entry untouched.
 */
export function patchRows<T extends TStockRow>(rows: readonly T[], quotes: ReadonlyMap<string, TQuote>) {
  let next: T[] | undefined;
  for (const [i, row] of rows.entries()) {
    const quote = quotes.get(row.code);
    if (quote === undefined || !isNewer(quote, row.quote)) continue;
    next ??= [...rows];
    next[i] = { ...row, quote };
  }
  return next;
}

function isNewer(quote: TQuote, current: TQuote | null): boolean {
  if (current === null) return true;
  if (quote === current) return false;
  return quote.time >= current.time;
}

export function applyQuotes(client: QueryClient, quotes: ReadonlyMap<string, TQuote>): void {
  if (quotes.size === 0) return;
  client.setQueriesData<TMarketList>({ queryKey: ['market', 'list'] }, (old) => {
    if (old === undefined) return undefined;
    const items = patchRows(old.items, quotes);
    return items === undefined ? undefined : { ...old, items };
  });
  client.setQueriesData<TStockRow[]>({ queryKey: ['watchlist'] }, (old) =>
    old === undefined ? undefined : patchRows(old, quotes),
  );
  for (const [code, quote] of quotes) {
    client.setQueriesData<TStockDetail>({ queryKey: ['market', 'stock', code] }, (old) => {
      if (old?.quote == null || !isNewer(quote, old.quote)) return undefined;
      return { ...old, quote };
    });
  }
}

export function applyIndices(client: QueryClient, ticks: ReadonlyMap<string, IndexTick>): void {
  if (ticks.size === 0) return;
  client.setQueryData<TIndexQuote[]>(['market', 'indices'], (old) => {
    if (old === undefined) return undefined;
    let next: TIndexQuote[] | undefined;
    for (const [i, index] of old.entries()) {
      const tick = ticks.get(index.id);
      if (tick === undefined || tick.time < index.time) continue;
      next ??= [...old];
      next[i] = { ...index, ...tick, name: tick.name ?? index.name };
    }
    return next;
  });
}

/** Collects ticks and applies the latest per code once per animation frame. */
export function createFrameBatcher(
  apply: (quotes: Map<string, TQuote>, indices: Map<string, IndexTick>) => void,
  schedule: (fn: () => void) => void,
) {
  let quotes = new Map<string, TQuote>();
  let indices = new Map<string, IndexTick>();
  let pending = false;
  const flush = () => {
    pending = false;
    const q = quotes;
    const i = indices;
    quotes = new Map();
    indices = new Map();
    apply(q, i);
  };
  const request = () => {
    if (pending) return;
    pending = true;
    schedule(flush);
  };
  return {
    quote(quote: TQuote) {
      quotes.set(quote.code, quote);
      request();
    },
    index(tick: IndexTick) {
      indices.set(tick.id, tick);
      request();
    },
  };
}
