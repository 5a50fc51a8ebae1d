import type { TMarketStatus } from '@kabuto/contract';

/** A quote is stale when, during a continuous session, its time is older than stale_after_ms. */
export function isQuoteStale(
  time: string,
  status: Pick<TMarketStatus, 'continuous' | 'stale_after_ms'> | undefined,
  now: number,
): boolean {
  if (status?.continuous !== true) return false;
  const at = Date.parse(time);
  return Number.isFinite(at) && now - at > status.stale_after_ms;
}
