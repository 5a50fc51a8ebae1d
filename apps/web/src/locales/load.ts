import type { Locale } from '@kabuto/contract';
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

/**
 * One locale's UI catalogue, with antd-mobile's texts in that language fetched beside it. The contract's
 * messages are loaded apart (`loadContractMessages`): the first screen does not wait for them (ADR 0059).
 */
export async function loadUiCatalogue(locale: Locale): Promise<UiMessages> {
  const [ui] = await Promise.all([loadUiMessages(locale), loadAntdLocale(locale)]);
  return ui;
}
