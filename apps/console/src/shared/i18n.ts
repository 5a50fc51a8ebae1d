import { FALLBACK_LOCALE, LOCALES, MESSAGES, type Locale } from '@kabuto/contract';
import i18next, { type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { UI_MESSAGES } from '@/locales/catalogues';
import { applyDayjsLocale } from './locale';
import { sessionStore } from './session';

/**
 * react-i18next with the console's six catalogues (namespace "translation") and the contract's messages
 * (namespace "contract": errors, validation, fields, ledgerKinds, messageKinds), so that zod message keys
 * such as "validation.reasonRequired" and message kinds are translated.
 */
export const CONTRACT_NS = 'contract';

const resources: Resource = Object.fromEntries(
  LOCALES.map((locale) => [locale, { translation: UI_MESSAGES[locale], [CONTRACT_NS]: MESSAGES[locale] }]),
);

export const i18n = i18next.createInstance();

/** The page's language (screen readers, hyphenation) and dayjs' (antd's date pickers) follow the console's. */
function applyLanguage(locale: Locale) {
  if (typeof document !== 'undefined') document.documentElement.lang = locale;
  applyDayjsLocale(locale);
}

export async function initI18n(): Promise<void> {
  const locale = sessionStore.getState().locale;
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
  sessionStore.subscribe(() => {
    const next = sessionStore.getState().locale;
    if (next === shown) return;
    shown = next;
    void i18n.changeLanguage(next);
    applyLanguage(next);
  });
}

/**
 * Translates a contract message key that is only known at run time ("ledgerKinds.<kind>" of a ledger line,
 * "messageKinds.<kind>" of a message, a zod issue's message); a key without a text answers itself.
 */
export function tContract(key: string, params?: Record<string, unknown>): string {
  return i18n.t(key, { ns: CONTRACT_NS, defaultValue: key, ...params });
}

export function hasContractKey(key: string): boolean {
  return i18n.exists(key, { ns: CONTRACT_NS });
}
