import type { Locale } from '@kabuto/contract';

/** The language switcher's names, each in its own language. */
export const LOCALE_NAMES: Record<Locale, string> = {
  ja: '日本語',
  'zh-Hans': '简体中文',
  'zh-Hant': '繁體中文',
  en: 'English',
  es: 'Español',
  fr: 'Français',
};
