import type { TBarPeriod } from '@kabuto/contract/bar-periods';
import type { ApiRead } from '@/shared/api/early';

/**
 * The market's GETs as paths and queries, without their schemas: market-api.ts's queries send them, and the
 * boot script sends the first page's ahead of the app (app/first-reads.ts), so both build the same URL from
 * one place (issue 21).
 */
export type MarketSort = 'gainers' | 'losers' | 'active' | 'turnover' | 'code' | 'price';

export interface ListParams {
  sort: MarketSort;
  sector?: string;
  limit?: number;
}

/** The bars a chart starts with. */
export const BARS_LIMIT = 300;

export const marketReads = {
  indices: (): ApiRead => ({ path: '/market/indices' }),
  list: (params: ListParams): ApiRead => ({
    path: '/market/list',
    query: { sort: params.sort, sector: params.sector, limit: params.limit ?? 50, offset: 0 },
  }),
  stock: (code: string): ApiRead => ({ path: '/market/stock', query: { code } }),
  bars: (code: string, period: TBarPeriod, limit: number): ApiRead => ({
    path: '/market/bars',
    query: { code, period, limit },
  }),
};
