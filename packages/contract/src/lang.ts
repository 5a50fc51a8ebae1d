/**
 * Languages. The specification's wire codes (`lang` query, stored `locale`) are jp, cn, en, sp, fr;
 * the runtime also accepts zh-Hant. Catalogues are named by BCP 47 tags.
 */
export const LANG_CODES = ['jp', 'cn', 'zh-Hant', 'en', 'sp', 'fr'] as const;
export type LangCode = (typeof LANG_CODES)[number];

export const LOCALES = ['ja', 'zh-Hans', 'zh-Hant', 'en', 'es', 'fr'] as const;
export type Locale = (typeof LOCALES)[number];

export const DEFAULT_LANG: LangCode = 'jp';
export const FALLBACK_LOCALE: Locale = 'en';

const LANG_TO_LOCALE: Record<LangCode, Locale> = {
  jp: 'ja',
  cn: 'zh-Hans',
  'zh-Hant': 'zh-Hant',
  en: 'en',
  sp: 'es',
  fr: 'fr',
};

export function isLangCode(value: unknown): value is LangCode {
  return typeof value === 'string' && (LANG_CODES as readonly string[]).includes(value);
}

/** Maps a wire code to its catalogue; anything unknown falls back to the default language (jp). */
export function localeOf(lang: unknown): Locale {
  return LANG_TO_LOCALE[isLangCode(lang) ? lang : DEFAULT_LANG];
}

/** Languages whose readers expect a rise in red (the Japanese and Chinese convention). */
export function risesInRedByDefault(lang: LangCode): boolean {
  return lang === 'jp' || lang === 'cn' || lang === 'zh-Hant';
}
