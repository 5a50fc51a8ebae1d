import { and, eq, gte, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { sen, type Sen } from '@kabuto/contract';
import { dividendAnnouncements, positions } from '../../db/schema.js';
import type { Executor } from '../../db/types.js';
import { tokyoParts } from '../../lib/tokyo-time.js';
import { taxSettings } from '../settings/settings.js';
import { adjustmentOf, entitlementCutoff } from './dates.js';

/**
 * What a short seller's margin positions owe as dividend adjustments (配当落調整金, ADR 0027) between the ex
 * date and the payment: from its ex date until its announcement is paid, the amount each short position
 * entitled to it (opened before the end of the cum date, not closed before it) will pay, as the payment job
 * will compute it. Brokers hold it back from withdrawable cash (MARKET.md); the withdrawal rule does too.
 */
export async function dividendAdjustmentsHeld(db: Executor, userId: number, now: Date): Promise<Sen> {
  const today = tokyoParts(now).date;
  const due = await db
    .select()
    .from(dividendAnnouncements)
    .where(and(isNull(dividendAnnouncements.paidAt), lte(dividendAnnouncements.exDate, today)));
  if (due.length === 0) return sen(0);
  const shorts = await db
    .select({
      code: positions.code,
      marginType: positions.marginType,
      taxAccount: positions.taxAccount,
      quantity: positions.quantity,
      openedAt: positions.openedAt,
      status: positions.status,
      closedAt: positions.closedAt,
    })
    .from(positions)
    .where(
      and(
        eq(positions.userId, userId),
        eq(positions.direction, 'short'),
        inArray(positions.marginType, ['standard', 'general']),
        inArray(
          positions.code,
          due.map((a) => a.code),
        ),
        or(
          eq(positions.status, 'holding'),
          gte(positions.closedAt, sql`${entitlementCutoff(minCumDate(due)).toISOString()}::timestamptz`),
        ),
      ),
    );
  if (shorts.length === 0) return sen(0);
  const { national_rate_pcm: nationalRatePcm } = await taxSettings(db);
  let owed = 0;
  for (const a of due) {
    const cutoff = entitlementCutoff(a.cumDate).getTime();
    // grouped per tax account and margin type, as the payment job settles them (its rounding too)
    const groups = new Map<string, { type: 'standard' | 'general'; quantity: number }>();
    for (const p of shorts) {
      if (p.code !== a.code || p.marginType === 'cash' || p.openedAt.getTime() >= cutoff) continue;
      if (p.status !== 'holding' && (p.closedAt === null || p.closedAt.getTime() < cutoff)) continue;
      const key = `${p.taxAccount}|${p.marginType}`;
      const group = groups.get(key) ?? { type: p.marginType, quantity: 0 };
      group.quantity += p.quantity;
      groups.set(key, group);
    }
    for (const { type, quantity } of groups.values()) {
      owed -= adjustmentOf(quantity * a.perShare, 'short', type, nationalRatePcm);
    }
  }
  return sen(owed);
}

function minCumDate(rows: readonly { cumDate: string }[]): string {
  return rows.reduce((min, r) => (r.cumDate < min ? r.cumDate : min), rows[0]?.cumDate ?? '9999-12-31');
}
