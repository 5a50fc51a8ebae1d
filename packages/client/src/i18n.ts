import type { Locale } from '@kabuto/contract';
import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { CatalogueBundle } from './catalogues.js';

/**
 * The i18n bootstrap of both front ends (ADR 0019): react-i18next with the app's six catalogues (namespace
 * "translation") and the contract's messages (namespace "contract": errors, validation, fields, ledger and
 * message kinds), so that zod message keys such as "validation.phoneFormat" are translated. The language
 * follows the app's session; the page's `lang` follows it too (screen readers, hyphenation).
 *
 * Only the language in use is loaded (issue 21: the six catalogues were a third of the first load): `load`
 * imports its two catalogues on demand, once; a switch of language shows the new one when it has arrived.
 * The catalogue checker keeps every locale complete, so no fallback language is loaded beside it.
 */
export const CONTRACT_NS = 'contract';

export { loadContractMessages, type CatalogueBundle } from './catalogues.js';

export interface I18nOptions {
  /** Loads one locale's catalogues (the app's UI texts, and loadContractMessages). */
  load: (locale: Locale) => Promise<CatalogueBundle>;
  /** The locale the session asks for now. */
  locale: () => Locale;
  /** Calls `listener` whenever the session changes (the locale may have). */
  subscribe: (listener: () => void) => unknown;
  /** What else follows the language (the console's dayjs locale). */
  onLanguage?: (locale: Locale) => void;
}

export interface AppI18n {
  i18n: I18n;
  /** Initializes the instance in the session's locale; call once before the first render. */
  initI18n: () => Promise<void>;
  /**
   * Translates a contract message key known only at run time (a zod issue's message, "ledgerKinds.<kind>",
   * "messageKinds.<kind>"); a key without a text answers itself.
   */
  tContract: (key: string, params?: Record<string, unknown>) => string;
  /** Loads a locale's catalogues if need be and shows it (what a switch of the session's language does). */
  showLanguage: (locale: Locale) => Promise<void>;
  hasContractKey: (key: string) => boolean;
}

export function createAppI18n(options: I18nOptions): AppI18n {
  const i18n = i18next.createInstance();
  const loading = new Map<Locale, Promise<void>>();

  /** Loads a locale's catalogues into the instance, once. */
  function ensure(locale: Locale): Promise<void> {
    let pending = loading.get(locale);
    if (!pending) {
      pending = options.load(locale).then((bundle) => {
        i18n.addResourceBundle(locale, 'translation', bundle.ui, true, true);
        i18n.addResourceBundle(locale, CONTRACT_NS, bundle.contract, true, true);
      });
      pending.catch(() => loading.delete(locale));
      loading.set(locale, pending);
    }
    return pending;
  }

  function applyLanguage(locale: Locale) {
    if (typeof document !== 'undefined') document.documentElement.lang = locale;
    options.onLanguage?.(locale);
  }

  async function initI18n(): Promise<void> {
    const locale = options.locale();
    await i18n.use(initReactI18next).init({
      resources: {},
      partialBundledLanguages: true,
      lng: locale,
      fallbackLng: false,
      ns: ['translation', CONTRACT_NS],
      defaultNS: 'translation',
      interpolation: { escapeValue: false },
      returnNull: false,
    });
    await ensure(locale);
    await i18n.changeLanguage(locale);
    applyLanguage(locale);
    let wanted = locale;
    options.subscribe(() => {
      const next = options.locale();
      if (next === wanted) return;
      wanted = next;
      void ensure(next).then(async () => {
        // a later switch wins over this one's late catalogue
        if (wanted !== next) return;
        await i18n.changeLanguage(next);
        applyLanguage(next);
      });
    });
  }

  return {
    i18n,
    initI18n,
    showLanguage: async (locale) => {
      await ensure(locale);
      await i18n.changeLanguage(locale);
      applyLanguage(locale);
    },
    tContract: (key, params) => i18n.t(key, { ns: CONTRACT_NS, defaultValue: key, ...params }),
    hasContractKey: (key) => i18n.exists(key, { ns: CONTRACT_NS }),
  };
}
