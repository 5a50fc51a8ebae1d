import {
  DEFAULT_LANG,
  isLangCode,
  risesInRedByDefault,
  type LangCode,
  type TUserInfo,
} from '@kabuto/contract';
import { STORAGE_KEYS } from './storage-keys';

/**
 * What the app keeps locally (specification §3): token, userId, userInfo, locale and an anonymous device
 * id, plus the price colour preference. A tiny external store read with useSyncExternalStore.
 */
export { STORAGE_KEYS } from './storage-keys';

export type PriceColors = 'red-up' | 'green-up';

export interface StorageLike {
  getItem: (key: string) => string | null;
  setItem: (key: string, value: string) => void;
  removeItem: (key: string) => void;
}

export interface SessionState {
  token: string | null;
  userId: number | null;
  userInfo: TUserInfo | null;
  lang: LangCode;
  deviceId: string;
  /** null: follow the language's convention. */
  priceColorsChoice: PriceColors | null;
}

export interface SessionStore {
  getState: () => SessionState;
  subscribe: (listener: () => void) => () => void;
  signIn: (session: { token: string; userId: number; userInfo: TUserInfo }) => void;
  setUserInfo: (userInfo: TUserInfo) => void;
  /**
   * Restores the stored userInfo, checked by `parse` (the contract's schema), once: the store itself does not
   * import the schemas, so that zod stays out of the app's first load (issue 21). user-info-query.ts, the one
   * reader of `userInfo`, calls it when it loads. A stored copy that does not parse is removed.
   */
  restoreUserInfo: (parse: (value: unknown) => TUserInfo | null) => void;
  clear: () => void;
  setLang: (lang: LangCode) => void;
  setPriceColors: (choice: PriceColors) => void;
}

export function memoryStorage(): StorageLike {
  const map = new Map<string, string>();
  return {
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => {
      map.set(key, value);
    },
    removeItem: (key) => {
      map.delete(key);
    },
  };
}

function readUserInfo(raw: string, parse: (value: unknown) => TUserInfo | null): TUserInfo | null {
  try {
    return parse(JSON.parse(raw));
  } catch {
    return null;
  }
}

function readUserId(raw: string | null): number | null {
  if (raw === null || !/^\d+$/.test(raw)) return null;
  const n = Number(raw);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

function randomId(): string {
  return globalThis.crypto.randomUUID();
}

export function createSessionStore(storage: StorageLike, generateId: () => string = randomId): SessionStore {
  const storedLang = storage.getItem(STORAGE_KEYS.locale);
  const lang: LangCode = isLangCode(storedLang) ? storedLang : DEFAULT_LANG;
  if (storedLang !== lang) storage.setItem(STORAGE_KEYS.locale, lang);

  let deviceId = storage.getItem(STORAGE_KEYS.deviceId);
  if (deviceId === null || deviceId === '') {
    deviceId = generateId();
    storage.setItem(STORAGE_KEYS.deviceId, deviceId);
  }

  const storedColors = storage.getItem(STORAGE_KEYS.priceColors);
  const token = storage.getItem(STORAGE_KEYS.token);

  let state: SessionState = {
    token: token === '' ? null : token,
    userId: readUserId(storage.getItem(STORAGE_KEYS.userId)),
    userInfo: null,
    lang,
    deviceId,
    priceColorsChoice: storedColors === 'red-up' || storedColors === 'green-up' ? storedColors : null,
  };
  const listeners = new Set<() => void>();
  /** The stored userInfo not yet checked (restoreUserInfo); null once checked or replaced. */
  let storedUserInfo = storage.getItem(STORAGE_KEYS.userInfo);

  function set(patch: Partial<SessionState>) {
    state = { ...state, ...patch };
    for (const listener of listeners) listener();
  }

  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    signIn({ token: newToken, userId, userInfo }) {
      storedUserInfo = null;
      storage.setItem(STORAGE_KEYS.token, newToken);
      storage.setItem(STORAGE_KEYS.userId, String(userId));
      storage.setItem(STORAGE_KEYS.userInfo, JSON.stringify(userInfo));
      set({ token: newToken, userId, userInfo });
    },
    setUserInfo(userInfo) {
      storedUserInfo = null;
      storage.setItem(STORAGE_KEYS.userInfo, JSON.stringify(userInfo));
      set({ userInfo, userId: userInfo.user_id });
    },
    restoreUserInfo(parse) {
      if (storedUserInfo === null) return;
      const userInfo = storedUserInfo === '' ? null : readUserInfo(storedUserInfo, parse);
      storedUserInfo = null;
      if (userInfo === null) storage.removeItem(STORAGE_KEYS.userInfo);
      else set({ userInfo });
    },
    clear() {
      storedUserInfo = null;
      storage.removeItem(STORAGE_KEYS.token);
      storage.removeItem(STORAGE_KEYS.userId);
      storage.removeItem(STORAGE_KEYS.userInfo);
      storage.removeItem(STORAGE_KEYS.tabbarHeight);
      set({ token: null, userId: null, userInfo: null });
    },
    setLang(next) {
      storage.setItem(STORAGE_KEYS.locale, next);
      set({ lang: next });
    },
    setPriceColors(choice) {
      storage.setItem(STORAGE_KEYS.priceColors, choice);
      set({ priceColorsChoice: choice });
    },
  };
}

/** The effective price colours: the stored choice, or the language's convention. */
export function priceColorsOf(state: Pick<SessionState, 'lang' | 'priceColorsChoice'>): PriceColors {
  return state.priceColorsChoice ?? (risesInRedByDefault(state.lang) ? 'red-up' : 'green-up');
}
