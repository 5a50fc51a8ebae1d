import type { TServiceSchedule } from '@kabuto/contract';

/** A channel's hours as the page shows them: in Tokyo time, in the reader's own zone when it differs, and now. */
export interface ChannelHours {
  /** the staffed days, e.g. "Mon–Fri" or "月〜金" in the reader's language */
  days: string;
  /** the hours in Tokyo time, "09:00–17:00" */
  tokyo: string;
  /** the same hours in the reader's zone, or null when the zone keeps Tokyo's time */
  local: { zone: string; from: string; to: string; dayShift: -1 | 0 | 1 } | null;
  /** whether the channel is staffed at `now` */
  openNow: boolean;
}

const TOKYO = 'Asia/Tokyo';
const TOKYO_OFFSET_MS = 9 * 3600_000; // Japan keeps no summer time
const DAY_MS = 86_400_000;

/** The reader's IANA time zone, as the browser reports it. */
export function readerTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || TOKYO;
}

/** Weekday names by ISO number (1 Monday … 7 Sunday): 2024-01-01 was a Monday. */
function weekdayName(locale: string, iso: number): string {
  return new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' }).format(
    new Date(Date.UTC(2024, 0, iso)),
  );
}

/** Consecutive days as ranges: [1,2,3,4,5,7] → "Mon–Fri, Sun". */
export function dayRanges(days: readonly number[], locale: string, dash = '–', separator = ', '): string {
  const sorted = [...new Set(days)].sort((a, b) => a - b);
  const runs: Array<[number, number]> = [];
  for (const d of sorted) {
    const last = runs[runs.length - 1];
    if (last && d === last[1] + 1) last[1] = d;
    else runs.push([d, d]);
  }
  return runs
    .map(([a, b]) =>
      a === b ? weekdayName(locale, a) : `${weekdayName(locale, a)}${dash}${weekdayName(locale, b)}`,
    )
    .join(separator);
}

function minutes(hhmm: string): number {
  const [h = '0', m = '0'] = hhmm.split(':');
  return Number(h) * 60 + Number(m);
}

/** Day number (days since the epoch) of a wall-clock date in a zone. */
function dayIn(instant: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(instant);
  return Math.floor(Date.parse(`${parts}T00:00:00Z`) / DAY_MS);
}

/**
 * What a schedule (Tokyo time) means for a reader in `timeZone` at `now`. The reader's times are those of
 * today's opening in Tokyo, so a zone with summer time shows this week's figures; `dayShift` says when the
 * opening falls on the reader's previous or next day.
 */
export function channelHours(
  schedule: TServiceSchedule,
  locale: string,
  now: Date,
  timeZone: string = readerTimeZone(),
  dash = '–',
): ChannelHours {
  const tokyoNow = new Date(now.getTime() + TOKYO_OFFSET_MS);
  const tokyoDay = Math.floor(tokyoNow.getTime() / DAY_MS);
  const isoWeekday = ((tokyoNow.getUTCDay() + 6) % 7) + 1;
  const nowMinutes = tokyoNow.getUTCHours() * 60 + tokyoNow.getUTCMinutes();
  const opens = minutes(schedule.opens);
  const closes = minutes(schedule.closes);
  const openNow = schedule.days.includes(isoWeekday) && nowMinutes >= opens && nowMinutes < closes;

  const at = (m: number) => new Date(tokyoDay * DAY_MS + m * 60_000 - TOKYO_OFFSET_MS);
  const clock = new Intl.DateTimeFormat(locale, {
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone,
  });
  const from = clock.format(at(opens));
  const to = clock.format(at(closes));
  const tokyoClock = new Intl.DateTimeFormat(locale, {
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone: TOKYO,
  });
  const tokyo = `${tokyoClock.format(at(opens))}${dash}${tokyoClock.format(at(closes))}`;
  const sameTime = from === tokyoClock.format(at(opens)) && to === tokyoClock.format(at(closes));
  const shift = dayIn(at(opens), timeZone) - tokyoDay;
  return {
    days: dayRanges(schedule.days, locale, dash),
    tokyo,
    local:
      sameTime && shift === 0
        ? null
        : { zone: timeZone, from, to, dayShift: shift < 0 ? -1 : shift > 0 ? 1 : 0 },
    openNow,
  };
}
