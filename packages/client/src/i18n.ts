import { FALLBACK_LOCALE, LOCALES, MESSAGES, type Locale } from '@kabuto/contract';
import i18next, { type i18n as I18n, type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';

/**
 * The i18n bootstrap of both front ends (ADR 0019): react-i18next with the app's six catalogues (namespace
 * "translation") and the contract's messages (namespace "contract": errors, validation, fields, ledger and
 * message kinds), so that zod message keys such as "validation.phoneFormat" are translated. The language
 * follows the app's session; the page's `lang` follows it too (screen readers, hyphenation).
 */
export const CONTRACT_NS = 'contract';

export interface I18nOptions {
  /** The app's UI catalogues, one per locale. */
  catalogues: Readonly<Record<Locale, object>>;
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
  hasContractKey: (key: string) => boolean;
}

export function createAppI18n(options: I18nOptions): AppI18n {
  const resources: Resource = Object.fromEntries(
    LOCALES.map((locale) => [
      locale,
      { translation: { ...options.catalogues[locale] }, [CONTRACT_NS]: { ...MESSAGES[locale] } },
    ]),
  );
  const i18n = i18next.createInstance();

  function applyLanguage(locale: Locale) {
    if (typeof document !== 'undefined') document.documentElement.lang = locale;
    options.onLanguage?.(locale);
  }

  async function initI18n(): Promise<void> {
    const locale = options.locale();
    await i18n.use(initReactI18next).init({
      resources,
      lng: locale,
      fallbackLng: FALLBACK_LOCALE,
      ns: ['translation', CONTRACT_NS],
      defaultNS: 'translation',
      interpolation: { escapeValue: false },
      returnNull: false,
    });
    applyLanguage(locale);
    let shown = locale;
    options.subscribe(() => {
      const next = options.locale();
      if (next === shown) return;
      shown = next;
      void i18n.changeLanguage(next);
      applyLanguage(next);
    });
  }

  return {
    i18n,
    initI18n,
    tContract: (key, params) => i18n.t(key, { ns: CONTRACT_NS, defaultValue: key, ...params }),
    hasContractKey: (key) => i18n.exists(key, { ns: CONTRACT_NS }),
  };
}
