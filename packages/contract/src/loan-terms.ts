/**
 * The credit loan's terms engine (issue 18, ADR 0028): pure functions of a loan's terms and a Tokyo date,
 * shared by the server (accrual, repayment, the refusals) and the web app's calculator. Every amount is a
 * whole number of yen, rounded down (Japanese practice); rates are basis points (1800 = 18.00% a year).
 *
 * The law (MARKET.md, lending): the Interest Rate Restriction Act caps interest, fees included, at 20% a
 * year below 100,000 yen of principal, 18% from 100,000 to under 1,000,000, 15% from 1,000,000; a business
 * lender's late charge (遅延損害金) at 20% a year; the Money Lending Business Act limits total borrowing
 * from money lenders to one third of annual income. We charge no fee of any kind, so interest is all of it.
 *
 * Day count: a day's charge accrues for every calendar day after the disbursement date up to and including
 * the repayment date (初日不算入). A day's rate is annual / 365, or / 366 in a leap year (うるう年は366日),
 * so that a year's interest is never more than the annual rate. From `late_grace_days` after the due date
 * the late charge replaces interest (at the late rate, at most 20%); days up to the end of the free period
 * carry no interest. Totals are exact sums rounded down once; a day's charge is the difference of two
 * totals, so the days' charges always add up to the total.
 */

/** The specification's maximum loan. */
export const LOAN_MAX_YEN = 100_000_000;
/** 利息制限法 art. 1: the caps by principal, in basis points a year. */
export const LEGAL_CAP_BANDS = [
  { below_yen: 100_000, cap_bp: 2000 },
  { below_yen: 1_000_000, cap_bp: 1800 },
  { below_yen: Number.POSITIVE_INFINITY, cap_bp: 1500 },
] as const;
/** 利息制限法 art. 7 (営業的金銭消費貸借): a late charge of at most 20% a year. */
export const LATE_CHARGE_CAP_BP = 2000;
/** 貸金業法 (総量規制): total borrowing at most one third of annual income. */
export const TOTAL_VOLUME_DIVISOR = 3;

/** The Interest Rate Restriction Act's cap for a principal (yen), in basis points a year. */
export function legalCapBp(principalYen: number): number {
  for (const band of LEGAL_CAP_BANDS) if (principalYen < band.below_yen) return band.cap_bp;
  return 1500;
}

/** Whether `rateBp` a year is lawful for every principal up to `maxYen` (the cap only falls as principal grows). */
export function lawfulRate(rateBp: number, maxYen: number): boolean {
  return Number.isInteger(rateBp) && rateBp >= 0 && rateBp <= legalCapBp(maxYen);
}

export function lawfulLateRate(lateRateBp: number): boolean {
  return Number.isInteger(lateRateBp) && lateRateBp >= 0 && lateRateBp <= LATE_CHARGE_CAP_BP;
}

const DAY_MS = 86_400_000;
/** Days since 1970-01-01 of an ISO date (YYYY-MM-DD). */
export function dayNumber(iso: string): number {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  return Math.round(Date.UTC(y, m - 1, d) / DAY_MS);
}
export function isoOfDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}
export function addIsoDays(iso: string, days: number): string {
  return isoOfDay(dayNumber(iso) + days);
}
/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return dayNumber(to) - dayNumber(from);
}
export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}
const yearDaysOf = (day: number) => (isLeapYear(new Date(day * DAY_MS).getUTCFullYear()) ? 366 : 365);

/** What a loan's charges depend on (fixed at disbursement). */
export interface LoanTerms {
  principal_yen: number;
  rate_bp: number;
  late_rate_bp: number;
  /** Tokyo date of the disbursement; its own day carries no charge */
  disbursed_on: string;
  due_on: string;
  /** last day without interest (the 180 days after registration), or null when the loan is not free */
  free_until: string | null;
  /** late charges from this many days after the due date (7) */
  late_grace_days: number;
}

export interface Charges {
  interest_yen: number;
  late_yen: number;
}

/** Days of each kind from the day after disbursement through `through`, split by the year's length. */
function chargedDays(terms: LoanTerms, through: string) {
  const counts = { interest365: 0, interest366: 0, late365: 0, late366: 0 };
  const start = dayNumber(terms.disbursed_on) + 1;
  const end = dayNumber(through);
  const due = dayNumber(terms.due_on);
  const freeUntil = terms.free_until === null ? Number.NEGATIVE_INFINITY : dayNumber(terms.free_until);
  for (let day = start; day <= end; day += 1) {
    const leap = yearDaysOf(day) === 366;
    if (day - due >= terms.late_grace_days) {
      if (leap) counts.late366 += 1;
      else counts.late365 += 1;
    } else if (day > freeUntil) {
      if (leap) counts.interest366 += 1;
      else counts.interest365 += 1;
    }
  }
  return counts;
}

/** ⌊principal × rate × (n365/365 + n366/366)⌋ in yen, exactly (bigint: no float touches money). */
function accrued(principalYen: number, rateBp: number, n365: number, n366: number): number {
  const numerator = BigInt(principalYen) * BigInt(rateBp) * (BigInt(n365) * 366n + BigInt(n366) * 365n);
  return Number(numerator / (10_000n * 365n * 366n));
}

/** Interest and late charges of the loan from its disbursement through `through` (inclusive), in yen. */
export function chargesThrough(terms: LoanTerms, through: string): Charges {
  if (dayNumber(through) <= dayNumber(terms.disbursed_on)) return { interest_yen: 0, late_yen: 0 };
  const n = chargedDays(terms, through);
  return {
    interest_yen: accrued(terms.principal_yen, terms.rate_bp, n.interest365, n.interest366),
    late_yen: accrued(terms.principal_yen, terms.late_rate_bp, n.late365, n.late366),
  };
}

/** What day `day` adds: the difference of the totals through it and through the day before. */
export function chargesOfDay(terms: LoanTerms, day: string): Charges {
  const upTo = chargesThrough(terms, day);
  const before = chargesThrough(terms, addIsoDays(day, -1));
  return {
    interest_yen: upTo.interest_yen - before.interest_yen,
    late_yen: upTo.late_yen - before.late_yen,
  };
}

export type LoanDayState = 'current' | 'overdue' | 'collection';
/** After the due date a loan is overdue; `collection_days` after it, the claim goes to collection. */
export function dayState(dueOn: string, day: string, collectionDays: number): LoanDayState {
  const late = daysBetween(dueOn, day);
  if (late >= collectionDays) return 'collection';
  if (late >= 1) return 'overdue';
  return 'current';
}

/**
 * Whether charges of `chargesYen` (fees included: we have none) on a principal held `days` days are within an
 * annual rate of `capBp` on a 365-day year: charges / principal × 365 / days ≤ cap, compared exactly.
 */
export function withinCap(chargesYen: number, principalYen: number, days: number, capBp: number): boolean {
  if (days <= 0) return chargesYen === 0;
  return BigInt(chargesYen) * 365n * 10_000n <= BigInt(capBp) * BigInt(principalYen) * BigInt(days);
}

/**
 * 総量規制: how much more (yen) may be borrowed from money lenders in all: a third of the annual income,
 * less what is owed to others and to us. Never below zero.
 */
export function totalVolumeRoom(incomeYen: number, otherLendersYen: number, oursYen: number): number {
  return Math.max(0, Math.floor(incomeYen / TOTAL_VOLUME_DIVISOR) - otherLendersYen - oursYen);
}

/** The loan calculator: what a loan of `principalYen` disbursed on `today` would cost if repaid when due. */
export interface LoanQuote {
  principal_yen: number;
  /** the rate that applies after the free period (basis points a year), and a day's share of it */
  rate_bp: number;
  /** a day's interest at the rate, on a 365-day year, rounded down (before and after any free period) */
  interest_per_day_yen: number;
  due_on: string;
  free_until: string | null;
  interest_to_due_yen: number;
  total_at_due_yen: number;
  late_rate_bp: number;
  late_from: string;
}

export function quoteLoan(terms: LoanTerms): LoanQuote {
  const atDue = chargesThrough(terms, terms.due_on);
  return {
    principal_yen: terms.principal_yen,
    rate_bp: terms.rate_bp,
    interest_per_day_yen: accrued(terms.principal_yen, terms.rate_bp, 1, 0),
    due_on: terms.due_on,
    free_until: terms.free_until,
    interest_to_due_yen: atDue.interest_yen,
    total_at_due_yen: terms.principal_yen + atDue.interest_yen + atDue.late_yen,
    late_rate_bp: terms.late_rate_bp,
    late_from: addIsoDays(terms.due_on, terms.late_grace_days),
  };
}

/**
 * The free period's rule: a loan is interest-free up to the registration date + `freeDays` when it is one of
 * the user's first `freeLoans` loans and is disbursed within that period; null when it is not free.
 */
export function freeUntil(
  registeredOn: string,
  disbursedOn: string,
  loansBefore: number,
  freeDays: number,
  freeLoans: number,
): string | null {
  const last = addIsoDays(registeredOn, freeDays);
  if (loansBefore >= freeLoans) return null;
  if (dayNumber(disbursedOn) >= dayNumber(last)) return null;
  return last;
}
