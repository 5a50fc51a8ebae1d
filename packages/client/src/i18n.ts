import type { Locale } from '@kabuto/contract';
import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';

/**
 * The i18n bootstrap of both front ends (ADR 0019): react-i18next with the app's six catalogues (namespace
 * "translation") and the contract's messages (namespace "contract": errors, validation, fields, ledger and
 * message kinds), so that zod message keys such as "validation.phoneFormat" are translated. The language
 * follows the app's session; the page's `lang` follows it too (screen readers, hyphenation).
 *
 * Only the language in use is loaded (issue 21: the six catalogues were a third of the first load): `loadUi` and
 * `loadContract` import its two catalogues on demand, once; a switch of language shows the new one when both
 * have arrived. The catalogue checker keeps every locale complete, so no fallback language is loaded beside it.
 *
 * The contract's messages may come after the first render (`initI18n({ contract: 'later' })`, ADR 0059): the
 * pages a visitor opens first show none of them until the user acts, so on a phone they need not share the
 * line with the first screen's code. `contractReady` loads them (once) and says when they are in.
 */
export const CONTRACT_NS = 'contract';

export { loadContractMessages } from './catalogues.js';

export interface I18nOptions {
  /** Loads one locale's UI texts (and whatever else the app shows in that language). */
  loadUi: (locale: Locale) => Promise<object>;
  /** Loads one locale's contract messages (loadContractMessages). */
  loadContract: (locale: Locale) => Promise<object>;
  /** The locale the session asks for now. */
  locale: () => Locale;
  /** Calls `listener` whenever the session changes (the locale may have). */
  subscribe: (listener: () => void) => unknown;
  /** What else follows the language (the console's dayjs locale). */
  onLanguage?: (locale: Locale) => void;
}

export interface AppI18n {
  i18n: I18n;
  /**
   * Initializes the instance in the session's locale; call once before the first render. It waits for both
   * catalogues, or with `contract: 'later'` for the UI texts only (then call `contractReady` before anything
   * shows a contract message).
   */
  initI18n: (options?: { contract?: 'now' | 'later' }) => Promise<void>;
  /** Loads the contract's messages of the language shown, if need be; resolves once they are in. */
  contractReady: () => Promise<void>;
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
  const loading = new Map<string, Promise<void>>();

  /** Loads one of a locale's catalogues into the instance, once (again after a failure). */
  function once(ns: string, locale: Locale, load: (locale: Locale) => Promise<object>): Promise<void> {
    const key = `${ns}:${locale}`;
    let pending = loading.get(key);
    if (!pending) {
      pending = load(locale).then((catalogue) => {
        i18n.addResourceBundle(locale, ns, catalogue, true, true);
      });
      pending.catch(() => loading.delete(key));
      loading.set(key, pending);
    }
    return pending;
  }

  const ensureUi = (locale: Locale) => once('translation', locale, options.loadUi);
  const ensureContract = (locale: Locale) => once(CONTRACT_NS, locale, options.loadContract);
  /** Both catalogues of a locale, fetched side by side. */
  const ensure = (locale: Locale) =>
    Promise.all([ensureUi(locale), ensureContract(locale)]).then(() => undefined);
  /** The locale shown, or about to be (a switch waiting for its catalogues). */
  let wanted: Locale | undefined;
  /** i18next's own initialization, once started: a catalogue is added to the instance after it. */
  let initialized: Promise<unknown> = Promise.resolve();

  function applyLanguage(locale: Locale) {
    if (typeof document !== 'undefined') document.documentElement.lang = locale;
    options.onLanguage?.(locale);
  }

  async function initI18n({ contract = 'now' }: { contract?: 'now' | 'later' } = {}): Promise<void> {
    const locale = options.locale();
    wanted = locale;
    initialized = i18n.use(initReactI18next).init({
      resources: {},
      partialBundledLanguages: true,
      lng: locale,
      fallbackLng: false,
      ns: ['translation', CONTRACT_NS],
      defaultNS: 'translation',
      interpolation: { escapeValue: false },
      returnNull: false,
    });
    await initialized;
    await (contract === 'later' ? ensureUi(locale) : ensure(locale));
    await i18n.changeLanguage(locale);
    applyLanguage(locale);
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
    contractReady: () => initialized.then(() => ensureContract(wanted ?? options.locale())),
    showLanguage: async (locale) => {
      wanted = locale;
      await ensure(locale);
      await i18n.changeLanguage(locale);
      applyLanguage(locale);
    },
    tContract: (key, params) => i18n.t(key, { ns: CONTRACT_NS, defaultValue: key, ...params }),
    hasContractKey: (key) => i18n.exists(key, { ns: CONTRACT_NS }),
  };
}
