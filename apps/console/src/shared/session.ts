import { LOCALES, type LangCode, type Locale } from '@kabuto/contract';
import { useSyncExternalStore } from 'react';

/**
 * The operator's session in this browser: the bearer token and the console's language, kept in
 * localStorage (the token is the server's; the operator's data is always fetched from /me).
 */
export interface SessionState {
  token: string | null;
  locale: Locale;
}

export const TOKEN_KEY = 'kabuto-console-token';
export const LOCALE_KEY = 'kabuto-console-locale';

const LOCALE_TO_LANG: Record<Locale, LangCode> = {
  ja: 'jp',
  'zh-Hans': 'cn',
  'zh-Hant': 'zh-Hant',
  en: 'en',
  es: 'sp',
  fr: 'fr',
};

/** The wire code (`lang` query) of a catalogue locale. */
export function langOf(locale: Locale): LangCode {
  return LOCALE_TO_LANG[locale];
}

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

function load(): SessionState {
  const s = storage();
  const locale = s?.getItem(LOCALE_KEY);
  return { token: s?.getItem(TOKEN_KEY) ?? null, locale: isLocale(locale) ? locale : 'ja' };
}

let state: SessionState = load();
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function getState(): SessionState {
  return state;
}

function set(next: SessionState) {
  state = next;
  const s = storage();
  if (s !== null) {
    if (next.token === null) s.removeItem(TOKEN_KEY);
    else s.setItem(TOKEN_KEY, next.token);
    s.setItem(LOCALE_KEY, next.locale);
  }
  for (const listener of listeners) listener();
}

export const sessionStore = {
  getState,
  subscribe,
  signIn(token: string) {
    set({ ...state, token });
  },
  clear() {
    set({ ...state, token: null });
  },
  setLocale(locale: Locale) {
    set({ ...state, locale });
  },
};

export function useSession(): SessionState {
  return useSyncExternalStore(subscribe, getState, getState);
}
