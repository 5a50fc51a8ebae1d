import type { TQuote } from '@kabuto/contract';
import { useEffect, useState } from 'react';
import { realtime, useQuoteStream } from './realtime';

/**
 * The latest streamed quote of each code while mounted (for screens whose data is not a market query,
 * such as positions). Updates are gathered and applied at most four times a second.
 */
export function useLiveQuotes(codes: readonly string[]): ReadonlyMap<string, TQuote> {
  useQuoteStream(codes);
  const key = [...new Set(codes)].sort().join(',');
  const [quotes, setQuotes] = useState<ReadonlyMap<string, TQuote>>(() => new Map());
  useEffect(() => {
    if (key === '') return;
    const wanted = new Set(key.split(','));
    let pending = new Map<string, TQuote>();
    let timer: ReturnType<typeof setTimeout> | null = null;
    const stop = realtime.onQuote((quote) => {
      if (!wanted.has(quote.code)) return;
      pending.set(quote.code, quote);
      timer ??= setTimeout(() => {
        timer = null;
        const batch = pending;
        pending = new Map();
        setQuotes((old) => {
          const next = new Map(old);
          for (const [code, q] of batch) {
            const current = next.get(code);
            if (current === undefined || q.time >= current.time) next.set(code, q);
          }
          return next;
        });
      }, 250);
    });
    return () => {
      stop();
      if (timer !== null) clearTimeout(timer);
    };
  }, [key]);
  return quotes;
}
