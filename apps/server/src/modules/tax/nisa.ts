import { formatYen, sen, yen, type Sen, type TNisaQuota, type TTaxSettings } from '@kabuto/contract';
import { run, statement } from '../../db/statement.js';
import type { Executor } from '../../db/types.js';
import { AppError } from '../../lib/app-error.js';
import { taxSettings } from '../settings/settings.js';
import { taxYearOf, taxYearStart } from './realize.js';

/**
 * NISA's 成長投資枠 (ADR 0021). Quota counts at purchase price (principal, fees excluded in the yearly
 * quota): this year's filled NISA purchases and the estimates of pending NISA buy orders. The lifetime limit
 * counts the book value of NISA holdings, the book value sold this year (it returns on January 1) and the
 * pending orders. IPO and distribution applications into NISA (ADR 0035) count like orders: their amount held is
 * pending until delivery, and what was paid for shares delivered into NISA this year counts as bought.
 */

interface UsageRow {
  bought: string;
  pending: string;
  offering_bought: string;
  offering_pending: string;
  held: string;
  sold: string;
}

const usageStatement = statement<{ userId: number; yearStart: Date }, UsageRow>(
  'tax_nisa_usage',
  (p) => `select
      (select coalesce(sum(principal), 0) from orders where user_id = ${p('userId')}::int
        and tax_account = 'nisa' and kind = 'open' and side = 'buy' and status = 'filled'
        and filled_at >= ${p('yearStart')}::timestamptz)::text as bought,
      (select coalesce(sum(principal), 0) from orders where user_id = ${p('userId')}::int
        and tax_account = 'nisa' and kind = 'open' and side = 'buy' and status = 'pending')::text as pending,
      (select coalesce(sum(amount_paid), 0) from offering_applications where user_id = ${p('userId')}::int
        and tax_account = 'nisa' and state = 'approved' and position_id is not null
        and updated_at >= ${p('yearStart')}::timestamptz)::text as offering_bought,
      (select coalesce(sum(case when state in ('applied', 'won') then reserved
          when state = 'approved' and position_id is null then amount_paid else 0 end), 0)
        from offering_applications where user_id = ${p('userId')}::int
        and tax_account = 'nisa')::text as offering_pending,
      (select coalesce(sum(book_value), 0) from positions where user_id = ${p('userId')}::int
        and tax_account = 'nisa' and status = 'holding')::text as held,
      (select coalesce(sum(book_value), 0) from positions where user_id = ${p('userId')}::int
        and tax_account = 'nisa' and status = 'closed'
        and closed_at >= ${p('yearStart')}::timestamptz)::text as sold`,
);

/** The customer's NISA quota now. */
export async function nisaQuota(
  db: Executor,
  userId: number,
  now: Date,
  settings?: TTaxSettings,
): Promise<TNisaQuota> {
  const s = settings ?? (await taxSettings(db));
  const year = taxYearOf(now);
  const [row] = await run(db, usageStatement, { userId, yearStart: taxYearStart(year) });
  const n = (v: string | undefined) => sen(BigInt(v ?? '0'));
  const pending = sen(n(row?.pending) + n(row?.offering_pending));
  const annualLimit = yen(s.nisa_annual_growth_limit_yen);
  const annualUsed = sen(n(row?.bought) + n(row?.offering_bought) + pending);
  const lifetimeLimit = yen(s.nisa_lifetime_limit_yen);
  const growthLimit = yen(s.nisa_growth_lifetime_limit_yen);
  const sold = n(row?.sold);
  const lifetimeUsed = sen(n(row?.held) + sold + pending);
  const left = (limit: Sen, used: Sen) => sen(Math.max(0, limit - used));
  return {
    year,
    annual_limit: annualLimit,
    annual_used: annualUsed,
    annual_remaining: left(annualLimit, annualUsed),
    lifetime_limit: lifetimeLimit,
    growth_lifetime_limit: growthLimit,
    lifetime_used: lifetimeUsed,
    lifetime_remaining: sen(Math.min(left(lifetimeLimit, lifetimeUsed), left(growthLimit, lifetimeUsed))),
    returning_next_year: sold,
  };
}

/**
 * Refuses a NISA purchase of `principal` that the quota cannot take, naming the limit it hits and what is
 * left: the year's quota first, then the growth quota's lifetime limit, then the lifetime limit.
 */
export async function checkNisaBuy(
  db: Executor,
  userId: number,
  principal: Sen,
  now: Date,
  locale: string,
): Promise<void> {
  const q = await nisaQuota(db, userId, now);
  const refuse = (
    error: 'NISA_ANNUAL_LIMIT' | 'NISA_GROWTH_LIFETIME_LIMIT' | 'NISA_LIFETIME_LIMIT',
    limit: Sen,
    used: Sen,
  ) => {
    const remaining = sen(Math.max(0, limit - used));
    throw new AppError(
      error,
      { limit: formatYen(limit, locale), remaining: formatYen(remaining, locale) },
      { limit, remaining },
    );
  };
  if (q.annual_used + principal > q.annual_limit) refuse('NISA_ANNUAL_LIMIT', q.annual_limit, q.annual_used);
  if (q.lifetime_used + principal > q.growth_lifetime_limit) {
    refuse('NISA_GROWTH_LIFETIME_LIMIT', q.growth_lifetime_limit, q.lifetime_used);
  }
  if (q.lifetime_used + principal > q.lifetime_limit) {
    refuse('NISA_LIFETIME_LIMIT', q.lifetime_limit, q.lifetime_used);
  }
}
