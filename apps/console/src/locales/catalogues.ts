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

export { LOCALE_NAMES } from './names';
