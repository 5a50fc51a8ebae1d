import { MARGIN_RULES } from './api/trading.js';
import { sen, type Sen } from './money.js';

/**
 * The money rules of an order, one definition for the server (authoritative) and the order form (its
 * estimate before confirming). Integers of sen throughout; every division says how it rounds.
 */
export interface FeeSchedule {
  /** basis points of the principal */
  bp: number;
  /** sen */
  min: number;
  /** sen; 0 = no cap */
  max: number;
}

/**
 * fee = max(min, principal × bp / 10,000) rounded down to the yen, capped at max when max > 0.
 * Rounds down: a fee is never rounded up against the customer. BigInt keeps principal × bp exact.
 */
export function feeFor(principal: number, schedule: FeeSchedule): Sen {
  if (principal <= 0 || (schedule.bp === 0 && schedule.min === 0)) return sen(0);
  const byRate = (BigInt(principal) * BigInt(schedule.bp)) / 10_000n;
  const raw = byRate > BigInt(schedule.min) ? byRate : BigInt(schedule.min);
  const yenFloor = (raw / 100n) * 100n;
  const capped = schedule.max > 0 && yenFloor > BigInt(schedule.max) ? BigInt(schedule.max) : yenFloor;
  return sen(capped);
}

/**
 * Collateral of a margin position: principal / leverage, and never below the initial margin (30%),
 * rounded up to the yen (so the rule is met, never missed by rounding).
 */
export function collateralFor(principal: number, leverage: number): Sen {
  const lev = Math.max(1, Math.trunc(leverage));
  const perLeverage = Math.ceil(principal / lev / 100) * 100;
  const minimum = Math.ceil((principal * MARGIN_RULES.initialMarginBp) / 10_000 / 100) * 100;
  return sen(Math.max(perLeverage, minimum));
}

/** A short position is always a margin position; a long one is margin when leveraged. */
export function isMarginPosition(direction: 'long' | 'short', leverage: number): boolean {
  return direction === 'short' || leverage > 1;
}
