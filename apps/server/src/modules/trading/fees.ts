import { MARGIN_RULES, floorToYen, sen, yen, type Sen } from '@kabuto/contract';

/** The published commission schedule (FEE_BP, FEE_MIN_YEN, FEE_MAX_YEN); zero by default. */
export interface FeeSchedule {
  bp: number;
  minYen: number;
  /** 0 = no cap */
  maxYen: number;
}

/** fee = max(min, principal × bp / 10,000 rounded down to the yen), capped at max when max > 0. */
export function feeFor(schedule: FeeSchedule, principal: Sen): Sen {
  if (schedule.bp === 0 && schedule.minYen === 0) return sen(0);
  // Integer arithmetic: principal (sen) × bp fits in a safe integer for any principal we accept.
  const raw = floorToYen(sen(Math.floor((principal * schedule.bp) / 10_000)));
  const withMin = Math.max(raw, yen(schedule.minYen));
  return sen(schedule.maxYen > 0 ? Math.min(withMin, yen(schedule.maxYen)) : withMin);
}

/** Collateral for a margin position: principal / leverage, rounded up to the yen (never below 30%). */
export function collateralFor(principal: Sen, leverage: number): Sen {
  const perLeverage = Math.ceil(principal / leverage / 100) * 100;
  const minimum = Math.ceil((principal * MARGIN_RULES.initialMarginBp) / 10_000 / 100) * 100;
  return sen(Math.max(perLeverage, minimum));
}

export function principalOf(price: Sen, quantity: number): Sen {
  return sen(price * quantity);
}
