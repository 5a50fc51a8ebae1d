import { marketReads } from '@/domains/market/market-reads';
import type { ApiRead } from '@/shared/api/early';
import { marketStatusRead } from '@/shared/market-clock/status-read';

/**
 * The market page's segments, read from its address (?tab=), and what the page reads first: shared by the page
 * and the boot script's first reads (app/first-reads.ts; issue 21).
 */
export const SEGMENTS = ['watchlist', 'gainers', 'losers', 'active', 'turnover', 'sectors'] as const;
export type Segment = (typeof SEGMENTS)[number];

function isSegment(value: string | null): value is Segment {
  return value !== null && (SEGMENTS as readonly string[]).includes(value);
}

/** The segment an address opens: its ?tab= if it names one, else the gainers. */
export function segmentOf(params: URLSearchParams): Segment {
  const tab = params.get('tab');
  return isSegment(tab) ? tab : 'gainers';
}

/** The page's first reads: the clock, the indices and, on a ranking segment, its list (as RankingPanel asks). */
export function marketPageReads(params: URLSearchParams): ApiRead[] {
  const segment = segmentOf(params);
  const reads = [marketStatusRead(), marketReads.indices()];
  if (segment !== 'watchlist' && segment !== 'sectors') reads.push(marketReads.list({ sort: segment }));
  return reads;
}
