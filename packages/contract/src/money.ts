import { numberFormat } from './intl.js';
/**
 * Money is an integer count of sen (1/100 yen), branded so that a plain number cannot pass for it.
 * See docs/adr/0002-money-and-quantities.md. No floating point arithmetic ever touches a Sen value:
 * conversions from user input go through decimal strings, never through `parseFloat`.
 */
declare const senBrand: unique symbol;
export type Sen = number & { readonly [senBrand]: true };

/** Largest amount the system accepts: 10 trillion yen, well inside Number.MAX_SAFE_INTEGER. */
export const MAX_SEN = 1_000_000_000_000_000;
export const SEN_PER_YEN = 100;

export class MoneyError extends Error {}

/** The one gate into Sen: rejects non-integers and magnitudes that could lose precision. */
export function sen(value: number | bigint): Sen {
  const n = typeof value === 'bigint' ? Number(value) : value;
  if (!Number.isSafeInteger(n) || Math.abs(n) > MAX_SEN) {
    throw new MoneyError(`not a valid sen amount: ${String(value)}`);
  }
  return n as Sen;
}

export function yen(wholeYen: number): Sen {
  if (!Number.isSafeInteger(wholeYen)) throw new MoneyError(`not a whole yen amount: ${wholeYen}`);
  return sen(wholeYen * SEN_PER_YEN);
}

export const ZERO: Sen = 0 as Sen;

export function addSen(...values: readonly Sen[]): Sen {
  return sen(values.reduce<number>((a, b) => a + b, 0));
}

export function subSen(a: Sen, b: Sen): Sen {
  return sen(a - b);
}

export function negSen(a: Sen): Sen {
  return sen(0 - a);
}

/** Rounds toward negative infinity to a whole yen (Japanese practice for interest and fees). */
export function floorToYen(a: Sen): Sen {
  return sen(Math.floor(a / SEN_PER_YEN) * SEN_PER_YEN);
}

/**
 * Parses what a user typed as an amount in yen. Accepts an optional sign-free decimal with at most
 * two fractional digits; thousands separators of the user's locale are removed first. Full-width digits
 * are normalised. Returns null when the text is not an amount.
 */
export function parseYenInput(text: string, decimalSeparator: '.' | ',' = '.'): Sen | null {
  const normalised = text
    .normalize('NFKC')
    .trim()
    .replace(/[\s\u00a0\u202f]/g, '');
  const group = decimalSeparator === '.' ? /[,']/g : /[.']/g;
  const plain = normalised
    .replace(group, '')
    .replace(decimalSeparator, '.')
    .replace(/^[¥￥]/, '');
  const match = /^(\d{1,14})(?:\.(\d{1,2}))?$/.exec(plain);
  if (!match) return null;
  const whole = match[1] ?? '0';
  const frac = (match[2] ?? '').padEnd(2, '0');
  return sen(Number(whole) * SEN_PER_YEN + Number(frac));
}

/** Decimal string of an amount in yen with exactly two fraction digits ("1234.50"), for CSV and inputs. */
export function senToDecimalString(a: Sen): string {
  const sign = a < 0 ? '-' : '';
  const abs = Math.abs(a);
  const whole = Math.floor(abs / SEN_PER_YEN);
  const frac = String(abs % SEN_PER_YEN).padStart(2, '0');
  return `${sign}${whole}.${frac}`;
}

/**
 * Formats an amount for display: whole yen (amounts in yen have no minor unit on screen) unless
 * `fractionDigits` asks for more (prices may show decimals). Rounds toward zero, never up.
 */
export function formatYen(a: Sen, locale: string, fractionDigits: 0 | 1 | 2 = 0): string {
  const factor = 10 ** (2 - fractionDigits);
  const truncated = Math.trunc(a / factor);
  const fmt = numberFormat(locale, {
    style: 'currency',
    currency: 'JPY',
    minimumFractionDigits: fractionDigits,
    maximumFractionDigits: fractionDigits,
  });
  // Build the value from its integer parts so that no binary fraction is formatted.
  const value = fractionDigits === 0 ? truncated : Number(`${truncated}e-${fractionDigits}`);
  return fmt.format(value);
}
