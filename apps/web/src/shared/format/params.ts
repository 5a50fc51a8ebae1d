import { sen, type Sen } from '@kabuto/contract';

/** How amounts and instants are written in the reader's language (the shared format helpers). */
export interface Formatters {
  money: (amount: Sen) => string;
  dateTime: (iso: string) => string;
  /** a calendar day (YYYY-MM-DD, a day in Japan) */
  date: (iso: string) => string;
  /** a per-unit amount that may have sen (a dividend per share, a NAV); money when absent */
  price?: (amount: Sen) => string;
}

/** Params that are amounts in sen, and params that are instants: shown in the reader's format. */
const MONEY_PARAMS = new Set([
  'amount',
  'price',
  'needed',
  'available',
  'min',
  'm',
  'gain',
  'national',
  'local',
  'refund',
  'cost',
  'proceeds',
  'gross',
  'net',
  // a loan's repayment (issue 18)
  'principal',
  'interest',
  'late',
]);
/** Per-unit amounts in sen that may have sen: a dividend per share, a fund's NAV. */
const PRICE_PARAMS = new Set(['per_share', 'nav']);
const TIME_PARAMS = new Set(['process_after', 'deadline', 'until']);
/** Params that are calendar days (YYYY-MM-DD). */
const DATE_PARAMS = new Set(['transfer_date', 'nav_date', 'due_on']);

/**
 * A catalogue text's params (a message's, a ledger memo's) as the reader reads them: amounts as money,
 * instants in Japan time, calendar days as dates, other strings and numbers as they are; anything else is left out.
 */
export function formatParams(params: Record<string, unknown>, fmt: Formatters): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(params)) {
    if (MONEY_PARAMS.has(key) && typeof value === 'number' && Number.isSafeInteger(value)) {
      out[key] = fmt.money(sen(value));
    } else if (PRICE_PARAMS.has(key) && typeof value === 'number' && Number.isSafeInteger(value)) {
      out[key] = (fmt.price ?? fmt.money)(sen(value));
    } else if (TIME_PARAMS.has(key) && typeof value === 'string' && Number.isFinite(Date.parse(value))) {
      out[key] = fmt.dateTime(value);
    } else if (DATE_PARAMS.has(key) && typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) {
      out[key] = fmt.date(value);
    } else if (typeof value === 'string' || typeof value === 'number') {
      out[key] = String(value);
    }
  }
  return out;
}
