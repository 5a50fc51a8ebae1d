import type { Locale } from '@kabuto/contract';
import type { UiMessages } from './en';

/** One locale's UI catalogue, its own chunk: only the language in use is downloaded. */
export function loadUiMessages(locale: Locale): Promise<UiMessages> {
  switch (locale) {
    case 'ja':
      return import('./ja').then((m) => m.ja);
    case 'zh-Hans':
      return import('./zh-Hans').then((m) => m.zhHans);
    case 'zh-Hant':
      return import('./zh-Hant').then((m) => m.zhHant);
    case 'en':
      return import('./en').then((m) => m.en);
    case 'es':
      return import('./es').then((m) => m.es);
    case 'fr':
      return import('./fr').then((m) => m.fr);
  }
}
