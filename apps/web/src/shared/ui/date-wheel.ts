import { dateTimeFormat, type Locale } from '@kabuto/contract';

/** "2026-11-26" ↔ the picker's Date (a calendar day: the browser's local midnight, no time zone involved). */
export function dateFromIso(iso: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (m === null) return null;
  return new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
}

export function isoFromDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${String(date.getFullYear())}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/**
 * The wheel's labels in the reader's language: "2026年 / 11月 / 26日" in Japanese and Chinese, "2026 /
 * November / 26" in English, "noviembre" in Spanish... from Intl, so that no catalogue has to spell months.
 */
export function dateWheelLabel(locale: Locale, type: string, data: number): string {
  const utc = (y: number, m: number, d: number) => new Date(Date.UTC(y, m, d, 12));
  if (type === 'year')
    return dateTimeFormat(locale, { timeZone: 'UTC', year: 'numeric' }).format(utc(data, 0, 1));
  if (type === 'month') {
    // Chinese writes a month's long name in words (三月): a wheel of figures reads "3月", as Japanese does
    const month = locale === 'ja' || locale.startsWith('zh') ? 'numeric' : 'long';
    return dateTimeFormat(locale, { timeZone: 'UTC', month }).format(utc(2000, data - 1, 1));
  }
  if (type === 'day')
    return dateTimeFormat(locale, { timeZone: 'UTC', day: 'numeric' }).format(utc(2000, 0, data));
  return String(data);
}
