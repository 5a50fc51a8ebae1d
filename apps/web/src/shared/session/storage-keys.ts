/**
 * The keys of what the app keeps in localStorage (specification §3), apart from the session store so that the
 * boot script can read the stored language without the store's code (boot.ts).
 */
export const STORAGE_KEYS = {
  token: 'token',
  userId: 'userId',
  userInfo: 'userInfo',
  locale: 'locale',
  deviceId: 'deviceId',
  priceColors: 'priceColors',
  tabbarHeight: 'tabbarHeight',
} as const;

function stored(key: string): string | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** The stored language's wire code as it is kept (unchecked), or null when none is or storage is blocked. */
export function storedLang(): string | null {
  return stored(STORAGE_KEYS.locale);
}

/** The stored session token as it is kept (unchecked), or null (boot.ts's first reads; the store owns it). */
export function storedToken(): string | null {
  return stored(STORAGE_KEYS.token);
}
