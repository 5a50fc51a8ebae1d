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
  // In BigInt, like feeFor: principal × 3,000 passes 2^53 from ¥30 billion on, where a float rounds.
  const lev = BigInt(Math.max(1, Math.trunc(leverage)));
  const p = BigInt(principal);
  const perLeverage = ceilDiv(p, lev * 100n) * 100n;
  const minimum = ceilDiv(p * BigInt(MARGIN_RULES.initialMarginBp), 10_000n * 100n) * 100n;
  return sen(perLeverage > minimum ? perLeverage : minimum);
}

/** ⌈a / b⌉ for a ≥ 0, b > 0. */
function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}

/** ⌊a / b⌋ for b > 0, negative a included (BigInt division truncates toward zero). */
function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b < 0n ? q - 1n : q;
}

/**
 * The part of `total` that `part` of `whole` shares carry, rounded down to the sen (a partial close's share
 * of a position's collateral): exact in BigInt, where total × part can pass 2^53.
 */
export function proportionalPart(total: Sen, part: number, whole: number): Sen {
  if (!Number.isSafeInteger(part) || !Number.isSafeInteger(whole) || whole <= 0 || part < 0) {
    throw new RangeError(`bad share ${part} of ${whole}`);
  }
  return sen(floorDiv(BigInt(total) * BigInt(part), BigInt(whole)));
}

/** ⌊numerator × 10,000 / denominator⌋ in basis points, exact in BigInt (0 when the denominator is not positive). */
export function floorBp(numerator: number, denominator: number): number {
  if (denominator <= 0) return 0;
  return Number(floorDiv(BigInt(numerator) * 10_000n, BigInt(denominator)));
}

/**
 * A short position is always a margin position; a long one is margin when leveraged or when its margin
 * type says so (issue 23: a 信用新規買 at a 100% collateral rate is a margin position at leverage 1).
 */
export function isMarginPosition(
  direction: 'long' | 'short',
  leverage: number,
  marginType?: 'cash' | 'standard' | 'general',
): boolean {
  return direction === 'short' || leverage > 1 || marginType === 'standard' || marginType === 'general';
}
