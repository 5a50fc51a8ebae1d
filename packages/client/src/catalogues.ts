import type { Locale, Messages } from '@kabuto/contract';

/*
 * The loaders of one locale's catalogues, apart from i18next: the web app's boot script starts them before the
 * app's code has arrived (apps/web/src/boot.ts, issue 21), and must not bring i18next into its own chunk.
 */

/**
 * The contract's messages of one locale, each its own chunk. Static import paths, so that the bundler
 * splits them.
 */
export function loadContractMessages(locale: Locale): Promise<Messages> {
  switch (locale) {
    case 'ja':
      return import('@kabuto/contract/messages/ja').then((m) => m.ja);
    case 'zh-Hans':
      return import('@kabuto/contract/messages/zh-Hans').then((m) => m.zhHans);
    case 'zh-Hant':
      return import('@kabuto/contract/messages/zh-Hant').then((m) => m.zhHant);
    case 'en':
      return import('@kabuto/contract/messages/en').then((m) => m.en);
    case 'es':
      return import('@kabuto/contract/messages/es').then((m) => m.es);
    case 'fr':
      return import('@kabuto/contract/messages/fr').then((m) => m.fr);
  }
}
