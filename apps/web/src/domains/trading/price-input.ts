import { parseYenInput } from '@kabuto/contract';

/** A price in sen as the text of a yen input: 123450 → "1234.5", 300000 → "3000". */
export function priceToInput(priceSen: number): string {
  const whole = Math.floor(priceSen / 100);
  const frac = priceSen % 100;
  if (frac === 0) return String(whole);
  if (frac % 10 === 0) return `${whole}.${frac / 10}`;
  return `${whole}.${String(frac).padStart(2, '0')}`;
}

/** The price a user typed (yen, up to two decimals, full-width digits allowed), in sen; null if not a price. */
export function inputToPrice(text: string): number | null {
  const parsed = parseYenInput(text);
  return parsed === null || parsed <= 0 ? null : parsed;
}

/** A quantity typed in shares: a whole positive number, or null. */
export function inputToQuantity(text: string): number | null {
  const plain = text.normalize('NFKC').replace(/[\s,]/g, '');
  if (!/^\d{1,9}$/.test(plain)) return null;
  const n = Number(plain);
  return n > 0 ? n : null;
}
