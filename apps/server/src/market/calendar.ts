import { addDays, tokyoParts } from '../lib/tokyo-time.js';
import { readMarketCsv } from './csv.js';

/** A Tokyo calendar date, YYYY-MM-DD. */
export type IsoDate = string;

export interface MarketHoliday {
  date: IsoDate;
  name_ja: string;
  name_en: string;
}

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

function checkDate(date: IsoDate): void {
  if (!DATE_RE.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`))) {
    throw new RangeError(`not a YYYY-MM-DD date: ${date}`);
  }
}

function weekday(date: IsoDate): number {
  return new Date(`${date}T00:00:00Z`).getUTCDay();
}

/** The exchange's fixed year-end closures (12/31, 1/1, 1/2, 1/3). */
function isFixedYearEndClosure(date: IsoDate): boolean {
  const md = date.slice(5);
  return md === '12-31' || md === '01-01' || md === '01-02' || md === '01-03';
}

/**
 * TSE business days: Monday to Friday except the listed weekday closures. For years the holiday list
 * does not cover, only weekends and the fixed year-end closures (12/31, 1/1-1/3) are known, so national
 * holidays of those years count as business days: extend holidays.csv before then.
 */
export class TradingCalendar {
  private readonly holidays: ReadonlyMap<IsoDate, MarketHoliday>;
  /** first and last year the holiday list covers */
  readonly coveredYears: { readonly from: number; readonly to: number };

  constructor(holidays: Iterable<MarketHoliday>) {
    const map = new Map<IsoDate, MarketHoliday>();
    for (const h of holidays) {
      checkDate(h.date);
      map.set(h.date, h);
    }
    this.holidays = map;
    const years = [...map.keys()].map((d) => Number(d.slice(0, 4)));
    this.coveredYears = years.length
      ? { from: Math.min(...years), to: Math.max(...years) }
      : { from: Number.POSITIVE_INFINITY, to: Number.NEGATIVE_INFINITY };
  }

  /** The listed closure on that date, if any (weekends are not listed). */
  holiday(date: IsoDate): MarketHoliday | undefined {
    return this.holidays.get(date);
  }

  isBusinessDay(date: IsoDate): boolean {
    checkDate(date);
    const wd = weekday(date);
    if (wd === 0 || wd === 6) return false;
    if (this.holidays.has(date)) return false;
    const year = Number(date.slice(0, 4));
    const covered = year >= this.coveredYears.from && year <= this.coveredYears.to;
    return covered || !isFixedYearEndClosure(date);
  }

  /** The first business day strictly after `date`. */
  nextBusinessDay(date: IsoDate): IsoDate {
    let d = addDays(date, 1);
    while (!this.isBusinessDay(d)) d = addDays(d, 1);
    return d;
  }

  /** The last business day strictly before `date`. */
  previousBusinessDay(date: IsoDate): IsoDate {
    let d = addDays(date, -1);
    while (!this.isBusinessDay(d)) d = addDays(d, -1);
    return d;
  }

  /** `date` itself when it is a business day, else the next one. */
  onOrAfter(date: IsoDate): IsoDate {
    return this.isBusinessDay(date) ? date : this.nextBusinessDay(date);
  }

  /** `date` itself when it is a business day, else the previous one. */
  onOrBefore(date: IsoDate): IsoDate {
    return this.isBusinessDay(date) ? date : this.previousBusinessDay(date);
  }

  /** Moves n business days forward (n > 0) or back (n < 0); from a closed day the count starts there. */
  addBusinessDays(date: IsoDate, n: number): IsoDate {
    let d = date;
    for (let i = 0; i < Math.abs(n); i++) {
      d = n > 0 ? this.nextBusinessDay(d) : this.previousBusinessDay(d);
    }
    return d;
  }

  /** Settlement date, T+2: two business days after the trade date. */
  settlementDate(tradeDate: IsoDate): IsoDate {
    return this.addBusinessDays(tradeDate, 2);
  }

  /** Business days from `from` to `to`, both inclusive, oldest first. */
  businessDaysBetween(from: IsoDate, to: IsoDate): IsoDate[] {
    const out: IsoDate[] = [];
    for (let d = this.onOrAfter(from); d <= to; d = this.nextBusinessDay(d)) out.push(d);
    return out;
  }
}

let defaultCalendar: TradingCalendar | undefined;

/** The calendar from market-data/holidays.csv (read once). */
export function tradingCalendar(): TradingCalendar {
  defaultCalendar ??= new TradingCalendar(
    readMarketCsv('holidays.csv', ['date', 'name_ja', 'name_en'] as const),
  );
  return defaultCalendar;
}

/** A Tokyo date string, or the Tokyo date of an instant. */
function toDate(date: IsoDate | Date): IsoDate {
  return typeof date === 'string' ? date : tokyoParts(date).date;
}

export function isBusinessDay(date: IsoDate | Date): boolean {
  return tradingCalendar().isBusinessDay(toDate(date));
}

export function nextBusinessDay(date: IsoDate | Date): IsoDate {
  return tradingCalendar().nextBusinessDay(toDate(date));
}

export function previousBusinessDay(date: IsoDate | Date): IsoDate {
  return tradingCalendar().previousBusinessDay(toDate(date));
}

export function settlementDate(tradeDate: IsoDate | Date): IsoDate {
  return tradingCalendar().settlementDate(toDate(tradeDate));
}
