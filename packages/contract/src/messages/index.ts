import type { Locale } from '../lang.js';
import { en, type Messages } from './en.js';
import { es } from './es.js';
import { fr } from './fr.js';
import { ja } from './ja.js';
import { zhHans } from './zh-Hans.js';
import { zhHant } from './zh-Hant.js';

export type { Messages };
export const MESSAGES: Record<Locale, Messages> = {
  ja,
  'zh-Hans': zhHans,
  'zh-Hant': zhHant,
  en,
  es,
  fr,
};

/** Replaces `{{name}}` placeholders (the i18next syntax, so the web app can use the same strings). */
export function interpolate(
  template: string,
  params: Readonly<Record<string, string | number>> = {},
): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}

/** Looks up a dotted key ("errors.LOGIN_FAILED") in a catalogue; undefined when it is not there. */
export function lookup(locale: Locale, key: string): string | undefined {
  let node: unknown = MESSAGES[locale];
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null || !(part in node)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string' ? node : undefined;
}

export function translate(
  locale: Locale,
  key: string,
  params?: Readonly<Record<string, string | number>>,
): string {
  return interpolate(lookup(locale, key) ?? lookup('en', key) ?? key, params);
}
