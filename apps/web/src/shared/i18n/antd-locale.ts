import type { Locale } from '@kabuto/contract';
import type enUS from 'antd-mobile/es/locales/en-US';

/** antd-mobile's texts of one language (its buttons' "OK", "Cancel", empty lists). */
export type AntdLocale = typeof enUS;

const loaded = new Map<Locale, AntdLocale>();

/**
 * Loads antd-mobile's texts of one locale, its own chunk, beside the app's catalogues (locales/load.ts): only
 * the language in use is downloaded, not all six in the first load (issue 21).
 */
export async function loadAntdLocale(locale: Locale): Promise<void> {
  if (loaded.has(locale)) return;
  const texts = await importAntdLocale(locale);
  loaded.set(locale, texts);
}

function importAntdLocale(locale: Locale): Promise<AntdLocale> {
  switch (locale) {
    case 'ja':
      return import('antd-mobile/es/locales/ja-JP').then((m) => m.default);
    case 'zh-Hans':
      return import('antd-mobile/es/locales/zh-CN').then((m) => m.default);
    case 'zh-Hant':
      return import('antd-mobile/es/locales/zh-TW').then((m) => m.default);
    case 'en':
      return import('antd-mobile/es/locales/en-US').then((m) => m.default);
    case 'es':
      return import('antd-mobile/es/locales/es-ES').then((m) => m.default);
    case 'fr':
      return import('antd-mobile/es/locales/fr-FR').then((m) => m.default);
  }
}

/** The texts of a loaded locale; undefined before loadAntdLocale has finished for it. */
export function antdLocaleOf(locale: Locale): AntdLocale | undefined {
  return loaded.get(locale);
}
