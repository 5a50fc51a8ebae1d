import { useQuery } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { marketStatusQuery } from './market-status';
import { lastFeedBeat } from '../realtime/realtime';
import { isQuoteStale } from './stale-rule';

/**
 * A quote is stale when, during a continuous session, its time is older than stale_after_ms. One shared
 * one-second clock drives every check; a component renders again only when its answer flips.
 */
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | null = null;

function subscribeClock(listener: () => void): () => void {
  listeners.add(listener);
  timer ??= setInterval(() => {
    for (const l of listeners) l();
  }, 1000);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== null) {
      clearInterval(timer);
      timer = null;
    }
  };
}

/** Whether a quote with this time is stale now (corrected for the server's clock offset). */
export function useIsStale(time: string | null | undefined): boolean {
  const { data: status, dataUpdatedAt } = useQuery(marketStatusQuery());
  const offset = status === undefined ? 0 : Date.parse(status.server_time) - dataUpdatedAt;
  const safeOffset = Number.isFinite(offset) ? offset : 0;
  return useSyncExternalStore(subscribeClock, () =>
    time == null ? false : isQuoteStale(time, status, Date.now() + safeOffset, lastFeedBeat()),
  );
}

export function useStaleSeconds(): number {
  const { data: status } = useQuery(marketStatusQuery());
  return Math.round((status?.stale_after_ms ?? 5000) / 1000);
}
