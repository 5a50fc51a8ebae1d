import { tokyoInstant, tokyoParts } from '../lib/tokyo-time.js';
import { tradingCalendar, type IsoDate, type TradingCalendar } from './calendar.js';

/** Exchange hours in minutes since Tokyo midnight (TSE, since 2024-11-05). */
export const TSE_HOURS = {
  /** the TSE starts collecting orders for the opening auction */
  preOpen: 8 * 60,
  morningOpen: 9 * 60,
  morningClose: 11 * 60 + 30,
  afternoonOpen: 12 * 60 + 30,
  /** continuous trading ends; 15:25-15:30 only collects orders for the closing auction */
  continuousEnd: 15 * 60 + 25,
  /** closing auction */
  afternoonClose: 15 * 60 + 30,
} as const;

/**
 * PTS (proprietary trading system) day-session hours, the one place they are set: 8:20-16:00, the day
 * session of Cboe Japan, ODX and Japannext. Japannext's night session (16:30/17:00-06:00) is not
 * offered. To be recorded in an ADR.
 */
export const PTS_HOURS = { open: 8 * 60 + 20, close: 16 * 60 } as const;

/** Continuous-trading minutes per day: 9:00-11:30 (150) and 12:30-15:25 (175). */
export const MORNING_MINUTES = TSE_HOURS.morningClose - TSE_HOURS.morningOpen;
export const CONTINUOUS_MINUTES = MORNING_MINUTES + (TSE_HOURS.continuousEnd - TSE_HOURS.afternoonOpen);

export type SessionPhase = 'pre_open' | 'morning' | 'lunch' | 'afternoon' | 'closing_auction' | 'closed';

/**
 * 'tokyo': the market follows the Tokyo wall clock and the exchange calendar.
 * 'always-open': the simulated market is in session at any hour (MARKET_CLOCK=always-open, for demos
 * and tests; the app must say so on screen). See marketPosition for how instants map to session minutes.
 */
export type MarketClockMode = 'tokyo' | 'always-open';

export interface SessionOptions {
  mode?: MarketClockMode;
  calendar?: TradingCalendar;
}

export interface SessionStatus {
  state: SessionPhase;
  /** continuous trading now (morning or afternoon): orders can match */
  continuous: boolean;
  pts_open: boolean;
  always_open: boolean;
  /** Tokyo calendar date of the instant */
  date: IsoDate;
  /** the session in progress, or the next one an order placed now waits for */
  trading_date: IsoDate;
}

/** Where the market's prices stand at an instant. */
export interface MarketPosition {
  /** the trading date whose session is in progress or was the last to open */
  date: IsoDate;
  /** continuous-trading minutes of that session already complete (0..CONTINUOUS_MINUTES) */
  completedMinutes: number;
  /** while a minute is in progress: the second within it (0-59); that minute's index is completedMinutes */
  second: number | null;
  /** the closing auction is done: the day is final */
  closed: boolean;
  /** the instant of the latest price: now (to the second) while trading, else when trading stopped */
  asOf: Date;
}

/** Parses MARKET_CLOCK: unset or 'tokyo' → 'tokyo'; 'always-open' → 'always-open'. */
export function parseMarketClockMode(value: string | undefined): MarketClockMode {
  if (value === undefined || value === '' || value === 'tokyo') return 'tokyo';
  if (value === 'always-open') return 'always-open';
  throw new RangeError(`MARKET_CLOCK must be "tokyo" or "always-open", not ${JSON.stringify(value)}`);
}

/** Tokyo minute-of-day at which a continuous-session minute (0..CONTINUOUS_MINUTES-1) starts. */
export function sessionMinuteToClock(index: number): number {
  return index < MORNING_MINUTES
    ? TSE_HOURS.morningOpen + index
    : TSE_HOURS.afternoonOpen + (index - MORNING_MINUTES);
}

function truncateToSecond(at: Date): Date {
  return new Date(Math.floor(at.getTime() / 1000) * 1000);
}

/**
 * In always-open mode, trading date D's session (its CONTINUOUS_MINUTES minutes) is stretched evenly
 * over the wall-clock span from Tokyo midnight starting D to Tokyo midnight starting the next business
 * day, so D is the latest business day on or before today. A weekday session takes 24 hours (a virtual
 * minute ≈ 4.4 real minutes), Friday's runs until Monday 0:00. History is the same as in Tokyo mode;
 * only "how far into the session" differs, and the price never jumps back.
 */
function alwaysOpenPosition(at: Date, calendar: TradingCalendar): MarketPosition {
  const date = calendar.onOrBefore(tokyoParts(at).date);
  const start = tokyoInstant(date, 0).getTime();
  const end = tokyoInstant(calendar.nextBusinessDay(date), 0).getTime();
  const virtualSeconds = Math.min(
    Math.floor(((at.getTime() - start) * CONTINUOUS_MINUTES * 60) / (end - start)),
    CONTINUOUS_MINUTES * 60 - 1,
  );
  return {
    date,
    completedMinutes: Math.floor(virtualSeconds / 60),
    second: virtualSeconds % 60,
    closed: false,
    asOf: truncateToSecond(at),
  };
}

export function marketPosition(at: Date, options: SessionOptions = {}): MarketPosition {
  const calendar = options.calendar ?? tradingCalendar();
  if (options.mode === 'always-open') return alwaysOpenPosition(at, calendar);
  const p = tokyoParts(at);
  const m = p.minuteOfDay;
  const final = (date: IsoDate): MarketPosition => ({
    date,
    completedMinutes: CONTINUOUS_MINUTES,
    second: null,
    closed: true,
    asOf: tokyoInstant(date, TSE_HOURS.afternoonClose),
  });
  if (!calendar.isBusinessDay(p.date) || m < TSE_HOURS.morningOpen) {
    return final(calendar.previousBusinessDay(p.date));
  }
  if (m >= TSE_HOURS.afternoonClose) return final(p.date);
  const waiting = (completedMinutes: number, clock: number): MarketPosition => ({
    date: p.date,
    completedMinutes,
    second: null,
    closed: false,
    asOf: tokyoInstant(p.date, clock),
  });
  if (m < TSE_HOURS.morningClose || (m >= TSE_HOURS.afternoonOpen && m < TSE_HOURS.continuousEnd)) {
    const index =
      m < TSE_HOURS.morningClose ? m - TSE_HOURS.morningOpen : MORNING_MINUTES + m - TSE_HOURS.afternoonOpen;
    return {
      date: p.date,
      completedMinutes: index,
      second: p.second,
      closed: false,
      asOf: truncateToSecond(at),
    };
  }
  if (m < TSE_HOURS.afternoonOpen) return waiting(MORNING_MINUTES, TSE_HOURS.morningClose);
  return waiting(CONTINUOUS_MINUTES, TSE_HOURS.continuousEnd);
}

function tokyoPhase(minuteOfDay: number): SessionPhase {
  if (minuteOfDay < TSE_HOURS.preOpen) return 'closed';
  if (minuteOfDay < TSE_HOURS.morningOpen) return 'pre_open';
  if (minuteOfDay < TSE_HOURS.morningClose) return 'morning';
  if (minuteOfDay < TSE_HOURS.afternoonOpen) return 'lunch';
  if (minuteOfDay < TSE_HOURS.continuousEnd) return 'afternoon';
  if (minuteOfDay < TSE_HOURS.afternoonClose) return 'closing_auction';
  return 'closed';
}

/** The exchange's state at an instant (and whether PTS trades). */
export function sessionState(at: Date, options: SessionOptions = {}): SessionStatus {
  const calendar = options.calendar ?? tradingCalendar();
  const p = tokyoParts(at);
  if (options.mode === 'always-open') {
    const pos = alwaysOpenPosition(at, calendar);
    return {
      state: pos.completedMinutes < MORNING_MINUTES ? 'morning' : 'afternoon',
      continuous: true,
      pts_open: true,
      always_open: true,
      date: p.date,
      trading_date: pos.date,
    };
  }
  const businessDay = calendar.isBusinessDay(p.date);
  const state = businessDay ? tokyoPhase(p.minuteOfDay) : 'closed';
  return {
    state,
    continuous: state === 'morning' || state === 'afternoon',
    pts_open: businessDay && p.minuteOfDay >= PTS_HOURS.open && p.minuteOfDay < PTS_HOURS.close,
    always_open: false,
    date: p.date,
    trading_date:
      businessDay && p.minuteOfDay < TSE_HOURS.afternoonClose ? p.date : calendar.nextBusinessDay(p.date),
  };
}

/**
 * The next start of continuous trading strictly after `at` (9:00, or 12:30 during the morning and lunch).
 * In always-open mode the market is open now, so `at` itself.
 */
export function nextOpen(at: Date, options: SessionOptions = {}): Date {
  if (options.mode === 'always-open') return at;
  const calendar = options.calendar ?? tradingCalendar();
  const p = tokyoParts(at);
  if (calendar.isBusinessDay(p.date)) {
    if (p.minuteOfDay < TSE_HOURS.morningOpen) return tokyoInstant(p.date, TSE_HOURS.morningOpen);
    if (p.minuteOfDay < TSE_HOURS.afternoonOpen) {
      return tokyoInstant(p.date, TSE_HOURS.afternoonOpen);
    }
  }
  return tokyoInstant(calendar.nextBusinessDay(p.date), TSE_HOURS.morningOpen);
}

/**
 * The latest daily close (15:30 closing auction) at or before `at`. In always-open mode, the end of the
 * previous session's stretched span: Tokyo midnight starting the current trading date.
 */
export function previousClose(at: Date, options: SessionOptions = {}): Date {
  const calendar = options.calendar ?? tradingCalendar();
  if (options.mode === 'always-open') return tokyoInstant(alwaysOpenPosition(at, calendar).date, 0);
  const p = tokyoParts(at);
  if (calendar.isBusinessDay(p.date) && p.minuteOfDay >= TSE_HOURS.afternoonClose) {
    return tokyoInstant(p.date, TSE_HOURS.afternoonClose);
  }
  return tokyoInstant(calendar.previousBusinessDay(p.date), TSE_HOURS.afternoonClose);
}
