import { numberFormat, type Locale } from '@kabuto/contract';

/** A rate in basis points as the reader writes a percentage: 1800 → "18%" (ja, en), "18 %" (fr). */
export function percent(basisPoints: number, locale: Locale): string {
  return numberFormat(locale, { style: 'percent', maximumFractionDigits: 2 }).format(basisPoints / 10_000);
}
