import { isBarPeriod, type TBarPeriod } from '@kabuto/contract/bar-periods';
import { BARS_LIMIT, marketReads } from '@/domains/market/market-reads';
import type { ApiRead } from '@/shared/api/early';
import { marketStatusRead } from '@/shared/market-clock/status-read';

/**
 * The stock page's address (?code=7203&period=1d) as the page reads it, and what the page reads first: shared
 * by the page and the boot script's first reads (app/first-reads.ts; issue 21).
 */
export function stockCodeOf(params: URLSearchParams): string {
  return (params.get('code') ?? '').trim().toUpperCase();
}

/** The chart's period: the address's if it names one, else the day's minute bars. */
export function chartPeriodOf(params: URLSearchParams): TBarPeriod {
  const period = params.get('period');
  return isBarPeriod(period) ? period : 'intraday';
}

/** The stock, the market's clock and the chart's bars (as ChartPanel first asks for them). */
export function stockPageReads(params: URLSearchParams): ApiRead[] {
  const code = stockCodeOf(params);
  if (code === '') return [];
  return [
    marketReads.stock(code),
    marketStatusRead(),
    marketReads.bars(code, chartPeriodOf(params), BARS_LIMIT),
  ];
}
