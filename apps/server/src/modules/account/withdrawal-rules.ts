import {
  DEFAULT_WITHDRAWAL_WINDOWS,
  MARKET_TIME_ZONE,
  WITHDRAWAL_CREDIT_HOURS,
  yen,
  type TWithdrawalRules,
} from '@kabuto/contract';
import { addDays, parseHHMM, tokyoInstant, tokyoParts } from '../../lib/tokyo-time.js';

export interface WithdrawalPolicy {
  minYen: number;
  windows: readonly { start: string; end: string }[];
}

export const defaultWithdrawalPolicy = (minYen: number): WithdrawalPolicy => ({
  minYen,
  windows: DEFAULT_WITHDRAWAL_WINDOWS,
});

/**
 * The published withdrawal rules as they apply at `now`: requests are accepted at any time and are
 * processed inside the windows (Tokyo time) of business days. No fee, ever.
 */
export function withdrawalRules(
  policy: WithdrawalPolicy,
  isBusinessDay: (date: string) => boolean,
  now: Date,
): Omit<TWithdrawalRules, 'withdrawable'> {
  const today = tokyoParts(now);
  const windows = policy.windows.map((w) => ({ start: parseHHMM(w.start), end: parseHHMM(w.end) }));
  const openNow =
    isBusinessDay(today.date) &&
    windows.some((w) => today.minuteOfDay >= w.start && today.minuteOfDay < w.end);
  return {
    min_amount: yen(policy.minYen),
    currency: 'JPY',
    time_zone: MARKET_TIME_ZONE,
    windows: policy.windows.map((w) => ({ start: w.start, end: w.end })),
    business_days_only: true,
    open_now: openNow,
    next_window_start: nextWindowStart(windows, isBusinessDay, now).toISOString(),
    credited_within_hours: WITHDRAWAL_CREDIT_HOURS,
  };
}

/** The start of the window in force now, or of the next one (searching up to a year ahead). */
export function nextWindowStart(
  windows: readonly { start: number; end: number }[],
  isBusinessDay: (date: string) => boolean,
  now: Date,
): Date {
  const today = tokyoParts(now);
  for (let offset = 0; offset < 370; offset++) {
    const date = addDays(today.date, offset);
    if (!isBusinessDay(date)) continue;
    for (const w of windows) {
      if (offset > 0 || today.minuteOfDay < w.end) {
        const start = tokyoInstant(date, w.start);
        return offset === 0 && today.minuteOfDay >= w.start ? now : start;
      }
    }
  }
  throw new Error('no withdrawal window within a year: check the calendar');
}
