import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  LATE_CHARGE_CAP_BP,
  addIsoDays,
  chargesOfDay,
  chargesThrough,
  dayState,
  daysBetween,
  freeUntil,
  lawfulLateRate,
  lawfulRate,
  legalCapBp,
  quoteLoan,
  totalVolumeRoom,
  withinCap,
  type LoanTerms,
} from './loan-terms.js';

/**
 * The credit loan's terms (issue 18, ADR 0028), one named scenario per rule, then properties.
 * PROPERTY_RUNS sets the random cases: 200 in `npm test`; the high count:
 * `PROPERTY_RUNS=20000 npx vitest run packages/contract/src/loan-terms.test.ts`.
 */
const RUNS = Number(process.env['PROPERTY_RUNS'] ?? 200);

const loan = (over: Partial<LoanTerms> = {}): LoanTerms => ({
  principal_yen: 100_000,
  rate_bp: 1800,
  late_rate_bp: 2000,
  disbursed_on: '2026-11-24',
  due_on: '2026-12-24',
  free_until: null,
  late_grace_days: 7,
  ...over,
});

describe('the Interest Rate Restriction Act caps (利息制限法)', () => {
  it('is 20% under 100,000 yen, 18% from 100,000 to under 1,000,000, 15% from 1,000,000', () => {
    expect(legalCapBp(1)).toBe(2000);
    expect(legalCapBp(99_999)).toBe(2000);
    expect(legalCapBp(100_000)).toBe(1800);
    expect(legalCapBp(999_999)).toBe(1800);
    expect(legalCapBp(1_000_000)).toBe(1500);
    expect(legalCapBp(100_000_000)).toBe(1500);
  });

  it('refuses a product rate above the cap of its largest amount, and a late rate above 20%', () => {
    expect(lawfulRate(2000, 99_999)).toBe(true);
    expect(lawfulRate(2000, 100_000)).toBe(false);
    expect(lawfulRate(1800, 999_999)).toBe(true);
    expect(lawfulRate(1801, 999_999)).toBe(false);
    expect(lawfulRate(1500, 1_000_000)).toBe(true);
    expect(lawfulRate(1501, 1_000_000)).toBe(false);
    expect(lawfulRate(1800.5, 100_000)).toBe(false);
    expect(lawfulLateRate(2000)).toBe(true);
    expect(lawfulLateRate(2001)).toBe(false);
  });

  it.each([
    // principal, rate at its cap, 30 days of 2026 (365-day year), interest rounded down to the yen
    [99_999, 2000, 1643], // 99,999 × 20% × 30 / 365 = 1,643.82
    [100_000, 1800, 1479], // 100,000 × 18% × 30 / 365 = 1,479.45
    [999_999, 1800, 14_794], // 999,999 × 18% × 30 / 365 = 14,794.50
    [1_000_000, 1500, 12_328], // 1,000,000 × 15% × 30 / 365 = 12,328.77
  ])('charges %i yen at %i bp for 30 days: %i yen', (principal, rate, interest) => {
    const terms = loan({ principal_yen: principal, rate_bp: rate });
    expect(chargesThrough(terms, terms.due_on)).toEqual({ interest_yen: interest, late_yen: 0 });
    expect(withinCap(interest, principal, 30, legalCapBp(principal))).toBe(true);
  });

  it("is the specification's example: 18% a year is about 0.0493% a day", () => {
    const q = quoteLoan(loan());
    expect(q.interest_per_day_yen).toBe(49); // 100,000 × 0.18 / 365 = 49.32
    expect(q.total_at_due_yen).toBe(101_479);
    expect(q.late_from).toBe('2026-12-31');
  });
});

describe('day count', () => {
  it('charges nothing for the disbursement day, and each day after it through the repayment day', () => {
    const terms = loan();
    expect(chargesThrough(terms, '2026-11-24')).toEqual({ interest_yen: 0, late_yen: 0 });
    expect(chargesThrough(terms, '2026-11-25').interest_yen).toBe(49);
  });

  it('counts a leap year on 366 days, so a year of interest is never more than the rate', () => {
    const terms = loan({
      principal_yen: 1_000_000,
      rate_bp: 1500,
      disbursed_on: '2027-12-31',
      due_on: '2028-12-31',
    });
    // 366 days of 2028 at 15% / 366: exactly 150,000 yen (a 365-day basis would charge 150,410)
    expect(chargesThrough(terms, '2028-12-31').interest_yen).toBe(150_000);
    // 30 days of December 2027 (/365) and 30 of January 2028 (/366): 12,328.77 + 12,295.08
    const mixed = loan({
      principal_yen: 1_000_000,
      rate_bp: 1500,
      disbursed_on: '2027-12-01',
      due_on: '2028-06-01',
    });
    expect(chargesThrough(mixed, '2028-01-30').interest_yen).toBe(24_623);
  });

  it("rounds the total down once, and a day's charge is the difference of two totals", () => {
    const terms = loan({ principal_yen: 12_345, rate_bp: 1999 });
    let sum = 0;
    for (let day = addIsoDays(terms.disbursed_on, 1); day <= '2027-02-10'; day = addIsoDays(day, 1)) {
      sum += chargesOfDay(terms, day).interest_yen + chargesOfDay(terms, day).late_yen;
    }
    const total = chargesThrough(terms, '2027-02-10');
    expect(sum).toBe(total.interest_yen + total.late_yen);
  });
});

describe('late charges and collection', () => {
  const terms = loan();
  it('charges interest up to 6 days after the due date, and the late charge instead from day 7', () => {
    expect(daysBetween(terms.due_on, '2026-12-30')).toBe(6);
    expect(chargesOfDay(terms, '2026-12-30').late_yen).toBe(0);
    expect(chargesOfDay(terms, '2026-12-30').interest_yen).toBeGreaterThan(0);
    expect(chargesOfDay(terms, '2026-12-31').interest_yen).toBe(0);
    // 100,000 × 20% / 365 = 54.79 a day
    expect(chargesOfDay(terms, '2026-12-31').late_yen).toBeGreaterThanOrEqual(54);
    expect(chargesThrough(terms, '2026-12-31').late_yen).toBe(54);
    expect(chargesThrough(terms, '2027-01-09').late_yen).toBe(547); // 10 days: 547.94
  });

  it('is current through the due date, overdue the day after, in collection 30 days after', () => {
    expect(dayState(terms.due_on, '2026-12-24', 30)).toBe('current');
    expect(dayState(terms.due_on, '2026-12-25', 30)).toBe('overdue');
    expect(dayState(terms.due_on, '2027-01-22', 30)).toBe('overdue');
    expect(dayState(terms.due_on, '2027-01-23', 30)).toBe('collection');
  });
});

describe('the free period: no interest for 180 days after registration, for up to 5 loans', () => {
  it('is free for the first five loans disbursed within the 180 days, up to the 180th day', () => {
    expect(freeUntil('2026-06-01', '2026-06-01', 0, 180, 5)).toBe('2026-11-28');
    expect(freeUntil('2026-06-01', '2026-11-27', 4, 180, 5)).toBe('2026-11-28');
    // the sixth loan pays interest from its first day
    expect(freeUntil('2026-06-01', '2026-07-01', 5, 180, 5)).toBeNull();
    // a loan taken on the 180th day or later is not free
    expect(freeUntil('2026-06-01', '2026-11-28', 0, 180, 5)).toBeNull();
  });

  it('charges no interest through the free period and interest after it', () => {
    const terms = loan({ free_until: '2026-12-01' });
    expect(chargesThrough(terms, '2026-12-01').interest_yen).toBe(0);
    // 23 days after the free period: 100,000 × 18% × 23 / 365 = 1,134.2
    expect(chargesThrough(terms, '2026-12-24').interest_yen).toBe(1134);
  });
});

describe('the total-volume rule (総量規制)', () => {
  it('leaves a third of the annual income less what is owed to others and to us, never below zero', () => {
    expect(totalVolumeRoom(6_000_000, 500_000, 300_000)).toBe(1_200_000);
    expect(totalVolumeRoom(3_000_000, 1_000_000, 0)).toBe(0);
    expect(totalVolumeRoom(3_000_000, 2_000_000, 0)).toBe(0);
    expect(totalVolumeRoom(1_000_000, 0, 0)).toBe(333_333);
  });
});

describe('properties', () => {
  const isoDate = fc.integer({ min: 0, max: 365 * 8 }).map((n) => addIsoDays('2024-01-01', n)); // 2024 and 2028 are leap years

  it('a product the engine accepts never charges more than the cap for any amount it offers', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 1, max: 100_000_000 }),
        fc.integer({ min: 1, max: 100_000_000 }),
        (rate, maxYen, amount) => {
          fc.pre(amount <= maxYen);
          if (lawfulRate(rate, maxYen)) expect(rate).toBeLessThanOrEqual(legalCapBp(amount));
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('the effective annual rate (interest, fees none) never exceeds the legal cap; late charges never 20%', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100_000_000 }),
        fc.integer({ min: 0, max: 2000 }),
        fc.integer({ min: 0, max: LATE_CHARGE_CAP_BP }),
        isoDate,
        fc.integer({ min: 1, max: 365 }),
        fc.integer({ min: 0, max: 500 }),
        fc.option(fc.integer({ min: 0, max: 200 })),
        (principal, rateWanted, lateRate, disbursedOn, term, heldDays, free) => {
          const rate = Math.min(rateWanted, legalCapBp(principal));
          const terms = loan({
            principal_yen: principal,
            rate_bp: rate,
            late_rate_bp: lateRate,
            disbursed_on: disbursedOn,
            due_on: addIsoDays(disbursedOn, term),
            free_until: free === null ? null : addIsoDays(disbursedOn, free),
          });
          const repaidOn = addIsoDays(disbursedOn, heldDays);
          const charges = chargesThrough(terms, repaidOn);
          expect(withinCap(charges.interest_yen, principal, heldDays, legalCapBp(principal))).toBe(true);
          expect(withinCap(charges.late_yen, principal, heldDays, LATE_CHARGE_CAP_BP)).toBe(true);
          expect(Number.isInteger(charges.interest_yen) && charges.interest_yen >= 0).toBe(true);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("the days' charges add up to the total through any day", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5_000_000 }),
        fc.integer({ min: 0, max: 2000 }),
        isoDate,
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 0, max: 120 }),
        (principal, rate, disbursedOn, term, heldDays) => {
          const terms = loan({
            principal_yen: principal,
            rate_bp: Math.min(rate, legalCapBp(principal)),
            disbursed_on: disbursedOn,
            due_on: addIsoDays(disbursedOn, term),
          });
          let interest = 0;
          let late = 0;
          for (let d = 1; d <= heldDays; d += 1) {
            const day = chargesOfDay(terms, addIsoDays(disbursedOn, d));
            interest += day.interest_yen;
            late += day.late_yen;
          }
          expect({ interest_yen: interest, late_yen: late }).toEqual(
            chargesThrough(terms, addIsoDays(disbursedOn, heldDays)),
          );
        },
      ),
      { numRuns: Math.max(20, Math.floor(RUNS / 4)) },
    );
  });
});
