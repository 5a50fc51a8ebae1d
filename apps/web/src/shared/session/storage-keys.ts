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

/** The stored language's wire code as it is kept (unchecked), or null when none is or storage is blocked. */
export function storedLang(): string | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage.getItem(STORAGE_KEYS.locale);
  } catch {
    return null;
  }
}
