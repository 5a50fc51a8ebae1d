import type { ListParams } from '@/domains/market/market-reads';
import type { ApiRead } from '@/shared/api/early';

/**
 * The home page's GETs that are not the market's, without schemas (shared with the boot script's first reads,
 * app/first-reads.ts; issue 21).
 */

/** The hot stocks under the banners: the day's ten largest by turnover. */
export const HOT_STOCKS = { sort: 'turnover', limit: 10 } as const satisfies ListParams;

/** GET /api/banners: the published banners in the reader's language. */
export const bannersRead = (): ApiRead => ({ path: '/banners' });

/** The first banner's image in an answer to bannersRead (the home page's largest paint), if any. */
export function firstBannerImage(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const data = (body as { data?: unknown }).data;
  if (typeof data !== 'object' || data === null) return undefined;
  const items = (data as { items?: unknown }).items;
  if (!Array.isArray(items)) return undefined;
  const first: unknown = items[0];
  if (typeof first !== 'object' || first === null) return undefined;
  const url = (first as { image_url?: unknown }).image_url;
  return typeof url === 'string' && url !== '' ? url : undefined;
}
