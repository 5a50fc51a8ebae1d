import type { TMarketStatus } from '@kabuto/contract';

/**
 * A quote is stale when, during a continuous session, neither its own time nor the live feed's latest beat
 * (which confirms every quote the feed carries) is within stale_after_ms. A quiet stock on a live feed is
 * current; any quote is stale once the feed itself stops (connection lost, server stalled).
 */
export function isQuoteStale(
  time: string,
  status: Pick<TMarketStatus, 'continuous' | 'stale_after_ms'> | undefined,
  now: number,
  feedBeatAt = 0,
): boolean {
  if (status?.continuous !== true) return false;
  const at = Math.max(Date.parse(time), feedBeatAt);
  return Number.isFinite(at) && now - at > status.stale_after_ms;
}
