import {
  dateTimeFormat,
  formatYen,
  MARKET_TIME_ZONE,
  numberFormat,
  type Locale,
  type Sen,
} from '@kabuto/contract';

/** Numbers, money and times for the chosen language; times always in Japan time (Asia/Tokyo). */
export function formatNumber(value: number, locale: Locale, fractionDigits = 0): string {
  return numberFormat(locale, {
    minimumFractionDigits: fractionDigits,
    maximumFractionDigits: fractionDigits,
  }).format(value);
}

export function formatMoney(amount: Sen, locale: Locale): string {
  return formatYen(amount, locale);
}

/** A signed amount (profit and loss): "+¥1,200" / "-¥300". */
export function formatSignedMoney(amount: Sen, locale: Locale): string {
  const text = formatYen(amount, locale);
  return amount > 0 ? `+${text}` : text;
}

export function formatDateTime(iso: string | Date, locale: Locale): string {
  const date = typeof iso === 'string' ? new Date(iso) : iso;
  return dateTimeFormat(locale, {
    timeZone: MARKET_TIME_ZONE,
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(date);
}

export function formatDate(iso: string | Date, locale: Locale): string {
  const date = typeof iso === 'string' ? new Date(iso.length === 10 ? `${iso}T00:00:00+09:00` : iso) : iso;
  return dateTimeFormat(locale, { timeZone: MARKET_TIME_ZONE, dateStyle: 'long' }).format(date);
}

/** Money and instants in one locale, for pure modules that take their formatters as a parameter. */
export function formattersFor(locale: Locale): {
  money: (amount: Sen) => string;
  dateTime: (iso: string) => string;
  date: (iso: string) => string;
  price: (amount: Sen) => string;
} {
  return {
    money: (amount) => formatMoney(amount, locale),
    // a per-unit amount that may have sen (a dividend of ¥37.50, a NAV): its sen shown
    price: (amount) => formatYen(amount, locale, amount % 100 === 0 ? 0 : 2),
    dateTime: (iso) => formatDateTime(iso, locale),
    date: (iso) => formatDate(iso, locale),
  };
}

/** The time of day in Tokyo, hours and minutes ("10:32"): when a shown value last came from the server. */
export function formatTime(instant: Date, locale: Locale): string {
  return dateTimeFormat(locale, { timeZone: MARKET_TIME_ZONE, timeStyle: 'short' }).format(instant);
}
