import type { Locale } from '@kabuto/contract';
import { en, type UiMessages } from './en';
import { es } from './es';
import { fr } from './fr';
import { ja } from './ja';
import { zhHans } from './zh-Hans';
import { zhHant } from './zh-Hant';

export type { UiMessages };

export const UI_MESSAGES: Record<Locale, UiMessages> = {
  ja,
  'zh-Hans': zhHans,
  'zh-Hant': zhHant,
  en,
  es,
  fr,
};

/** The language switcher's names, each in its own language. */
export const LOCALE_NAMES: Record<Locale, string> = {
  ja: '日本語',
  'zh-Hans': '简体中文',
  'zh-Hant': '繁體中文',
  en: 'English',
  es: 'Español',
  fr: 'Français',
};
