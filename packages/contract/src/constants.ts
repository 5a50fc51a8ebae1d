/** Business constants of the specification (§9) and the published rules built on them. */
export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 10;

export const SMS_CODE_LENGTH = 6;
export const SMS_CODE_TTL_SECONDS = 10 * 60;
export const SMS_CODE_MAX_ATTEMPTS = 5;
export const SMS_RESEND_SECONDS = 60;

export const LOGIN_MAX_FAILURES = 10;

/** Withdrawals (specification §9): the defaults; operators publish changes to them. A withdrawal never carries a fee. */
export const DEFAULT_WITHDRAWAL_MIN_YEN = 10_000;
export const WITHDRAWAL_CREDIT_HOURS = 24;
/** The smallest deposit notice, in yen, and how many notices may wait for review at once per customer. */
export const DEPOSIT_MIN_YEN = 1_000;
export const DEPOSIT_MAX_PENDING = 5;
export const DEFAULT_WITHDRAWAL_WINDOWS = [
  { start: '09:00', end: '11:30' },
  { start: '12:30', end: '15:30' },
] as const;

export const MARKET_TIME_ZONE = 'Asia/Tokyo';

/** Client timings of the specification. */
export const API_TIMEOUT_MS = 5000;
export const SESSION_EXPIRED_REDIRECT_MS = 1500;
export const FAILURE_TOAST_MS = 2000;
export const USER_AGREEMENT_EFFECTIVE_DATE = '2025-06-20';
export const APP_VERSION = '1.0.0';
export const APP_VERSION_CODE = 100;
