import { formatYen, numberFormat, type Locale, type Sen } from '@kabuto/contract';

/** Prices, changes and volumes of quotes. Prices are integer sen shown with the instrument's decimals. */
export type PriceDecimals = 0 | 1;

export function priceDecimalsOf(value: number): PriceDecimals {
  return value === 1 ? 1 : 0;
}

/** "¥3,012" or "¥1,234.5" (never rounded up: formatYen truncates toward zero). */
export function formatPrice(amount: number, decimals: PriceDecimals, locale: Locale): string {
  return formatYen(amount as Sen, locale, decimals);
}

/** A price without the currency sign, e.g. for table cells: "3,012" / "1,234.5". */
export function formatPlainPrice(amount: number, decimals: PriceDecimals, locale: Locale): string {
  const factor = 10 ** (2 - decimals);
  const truncated = Math.trunc(amount / factor);
  const value = decimals === 0 ? truncated : Number(`${truncated}e-${decimals}`);
  return numberFormat(locale, {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  }).format(value);
}

/** A signed price change: "+12", "-3.5", "0". */
export function formatSignedPrice(amount: number, decimals: PriceDecimals, locale: Locale): string {
  const text = formatPlainPrice(Math.abs(amount), decimals, locale);
  return amount > 0 ? `+${text}` : amount < 0 ? `-${text}` : text;
}

/** Basis points as a signed percentage with two decimals: 123 → "+1.23%", -5 → "-0.05%". */
export function formatChangeBp(bp: number, locale: Locale): string {
  const abs = Math.abs(Math.trunc(bp));
  const text = numberFormat(locale, {
    style: 'percent',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(Number(`${abs}e-4`));
  return bp > 0 ? `+${text}` : bp < 0 ? `-${text}` : text;
}

/** An index level in points with two decimals. */
export function formatPoints(value: number, locale: Locale, signed = false): string {
  const text = numberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(
    Math.abs(value),
  );
  if (!signed) return value < 0 ? `-${text}` : text;
  return value > 0 ? `+${text}` : value < 0 ? `-${text}` : text;
}

/** Share volumes and turnover in a compact form for lists: "1.2M", "3.4万". */
export function formatCompact(value: number, locale: Locale): string {
  return numberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 }).format(value);
}

export function formatShares(value: number, locale: Locale): string {
  return numberFormat(locale, { maximumFractionDigits: 0 }).format(value);
}

/** The CSS class of a rise or a fall (colours follow the price colour setting). */
export function changeClass(change: number): string {
  return change > 0 ? 'price-rise' : change < 0 ? 'price-fall' : 'price-flat';
}

/** A price with the decimals it needs: one for 0.1-yen ticks, two for an average fill price (ADR 0024). */
export function formatPriceAuto(amount: number, locale: Locale): string {
  return formatYen(amount as Sen, locale, amount % 100 === 0 ? 0 : amount % 10 === 0 ? 1 : 2);
}
