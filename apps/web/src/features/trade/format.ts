import { dateTimeFormat, MARKET_TIME_ZONE, type Locale } from '@kabuto/contract';
import { formatNumber } from '@/shared/format/format';
import { formatPrice, type PriceDecimals } from '@/shared/format/price';

/** A session date (YYYY-MM-DD) as a short day and month in Japan time: "18 Nov", "11月18日". */
export function formatSessionDate(date: string, locale: Locale): string {
  const at = new Date(`${date}T00:00:00+09:00`);
  if (Number.isNaN(at.getTime())) return date;
  return dateTimeFormat(locale, {
    timeZone: MARKET_TIME_ZONE,
    month: 'short',
    day: 'numeric',
  }).format(at);
}

/**
 * A moving average (a mean of closes in sen, not money) shown as a price: rounded to a whole sen, then
 * through the one price formatter (which truncates to the instrument's decimals).
 */
export function formatAverage(averageSen: number, decimals: PriceDecimals, locale: Locale): string {
  return formatPrice(Math.round(averageSen), decimals, locale);
}

/** An RSI value (0 to 100, not money) with one decimal. */
export function formatRsi(value: number, locale: Locale): string {
  return formatNumber(Math.round(value * 10) / 10, locale, 1);
}
