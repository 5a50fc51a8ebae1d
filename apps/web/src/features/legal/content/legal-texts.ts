import type { Locale } from '@kabuto/contract';
import { en } from './en';
import { es } from './es';
import { fr } from './fr';
import { ja } from './ja';
import type { LegalTexts } from './types';
import { zhHans } from './zh-Hans';
import { zhHant } from './zh-Hant';

export const LEGAL_TEXTS: Record<Locale, LegalTexts> = {
  ja,
  'zh-Hans': zhHans,
  'zh-Hant': zhHant,
  en,
  es,
  fr,
};
