import { formatYen, sen, type Locale } from '@kabuto/contract';

/** Money for display: sen on the wire, whole yen on screen (rounded toward zero, never up). */
export function yenText(amount: number, locale: Locale): string {
  return formatYen(sen(amount), locale);
}

const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

/** A timestamp in Tokyo time, e.g. "2026/11/24 09:05". Null and unparsable values show as "—". */
export function dateTimeText(iso: string | null | undefined, locale: Locale): string {
  if (iso === null || iso === undefined || iso === '') return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  let format = dateTimeFormats.get(locale);
  if (format === undefined) {
    format = new Intl.DateTimeFormat(locale, {
      timeZone: 'Asia/Tokyo',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hour12: false,
    });
    dateTimeFormats.set(locale, format);
  }
  return format.format(date);
}
