import type { Locale } from '@kabuto/contract';
import { loadContractMessages, type CatalogueBundle } from '@kabuto/client/catalogues';
import { loadAntdLocale } from '@/shared/i18n/antd-locale';
import type { UiMessages } from './en';

/** One locale's UI catalogue, its own chunk: only the language in use is downloaded. */
function loadUiMessages(locale: Locale): Promise<UiMessages> {
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

/** Both catalogues of one locale and antd-mobile's texts in it, fetched side by side. */
export async function loadCatalogues(locale: Locale): Promise<CatalogueBundle> {
  const [ui, contract] = await Promise.all([
    loadUiMessages(locale),
    loadContractMessages(locale),
    loadAntdLocale(locale),
  ]);
  return { ui, contract };
}
