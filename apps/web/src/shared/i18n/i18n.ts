import { FALLBACK_LOCALE, LOCALES, localeOf, MESSAGES, type Locale } from '@kabuto/contract';
import i18next, { type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { UI_MESSAGES } from '@/locales/catalogues';
import { sessionStore } from '../session/session';

/**
 * react-i18next with the six web catalogues (namespace "translation") and the contract's shared
 * messages (namespace "contract": errors, validation, fields), so that the zod schemas' message keys
 * such as "validation.phoneFormat" are translated in forms. The stored locale code picks the catalogue.
 */
export const CONTRACT_NS = 'contract';

const resources: Resource = Object.fromEntries(
  LOCALES.map((locale) => [locale, { translation: UI_MESSAGES[locale], [CONTRACT_NS]: MESSAGES[locale] }]),
);

export const i18n = i18next.createInstance();

function applyDocumentLanguage(locale: Locale) {
  if (typeof document !== 'undefined') document.documentElement.lang = locale;
}

export function currentLocale(): Locale {
  return localeOf(sessionStore.getState().lang);
}

export async function initI18n(): Promise<void> {
  const locale = currentLocale();
  await i18n.use(initReactI18next).init({
    resources,
    lng: locale,
    fallbackLng: FALLBACK_LOCALE,
    ns: ['translation', CONTRACT_NS],
    defaultNS: 'translation',
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  applyDocumentLanguage(locale);
  let shown = locale;
  sessionStore.subscribe(() => {
    const next = currentLocale();
    if (next === shown) return;
    shown = next;
    void i18n.changeLanguage(next);
    applyDocumentLanguage(next);
  });
}

/** Translates a contract message key (a zod issue message such as "validation.accountRequired"). */
export function tContract(key: string, params?: Record<string, string | number>): string {
  return i18n.t(key, { ns: CONTRACT_NS, ...params });
}
