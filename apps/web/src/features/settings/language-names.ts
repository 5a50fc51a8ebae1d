import type { LangCode } from '@kabuto/contract';

/** Each language in its own name (deliberately not translated). */
export const LANGUAGE_NAMES: Record<LangCode, string> = {
  jp: '日本語',
  cn: '简体中文',
  'zh-Hant': '繁體中文',
  en: 'English',
  sp: 'Español',
  fr: 'Français',
};
