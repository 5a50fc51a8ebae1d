/**
 * The chart's bar periods (GET /api/market/bars?period=), without zod: the web app's boot script reads a stock
 * page's period from its address with them (issue 21).
 */
export const BAR_PERIODS = ['intraday', '1m', '5m', '7m', '15m', '30m', '45m', '1d', '1w', '1mo'] as const;
export type TBarPeriod = (typeof BAR_PERIODS)[number];

export function isBarPeriod(value: unknown): value is TBarPeriod {
  return typeof value === 'string' && (BAR_PERIODS as readonly string[]).includes(value);
}
