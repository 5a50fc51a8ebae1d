import { describe, expect, it } from 'vitest';
import { sen, ZUserInfo, type TUserInfo } from '@kabuto/contract';
import { createSessionStore, memoryStorage, priceColorsOf, STORAGE_KEYS } from './session-store';

const userInfo: TUserInfo = {
  user_id: 7,
  phone: '09012345678',
  invitation_code: 'ABC123',
  real_name_status: 'unverified',
  has_txn_password: false,
  credit_score: 80,
  total_assets: sen(0),
  available_balance: sen(0),
  used_funds: sen(0),
  floating_pl: sen(0),
  created_at: '2025-06-20T00:00:00.000Z',
};

function parseUserInfo(value: unknown): TUserInfo | null {
  const parsed = ZUserInfo.safeParse(value);
  return parsed.success ? parsed.data : null;
}

describe('session store', () => {
  it('defaults the locale to jp when missing and stores it', () => {
    const storage = memoryStorage();
    const store = createSessionStore(storage, () => 'device-1');
    expect(store.getState().lang).toBe('jp');
    expect(storage.getItem(STORAGE_KEYS.locale)).toBe('jp');
  });

  it('defaults the locale to jp when empty or unknown', () => {
    for (const value of ['', 'xx']) {
      const storage = memoryStorage();
      storage.setItem(STORAGE_KEYS.locale, value);
      expect(createSessionStore(storage).getState().lang).toBe('jp');
      expect(storage.getItem(STORAGE_KEYS.locale)).toBe('jp');
    }
  });

  it('keeps a stored locale', () => {
    const storage = memoryStorage();
    storage.setItem(STORAGE_KEYS.locale, 'fr');
    expect(createSessionStore(storage).getState().lang).toBe('fr');
  });

  it('generates the device id once', () => {
    const storage = memoryStorage();
    createSessionStore(storage, () => 'first');
    expect(createSessionStore(storage, () => 'second').getState().deviceId).toBe('first');
  });

  it('restores token, userId and userInfo, and clear removes them', () => {
    const storage = memoryStorage();
    createSessionStore(storage).signIn({ token: 't', userId: 7, userInfo });
    const store = createSessionStore(storage);
    store.restoreUserInfo(parseUserInfo);
    expect(store.getState()).toMatchObject({ token: 't', userId: 7, userInfo });
    store.clear();
    expect(store.getState()).toMatchObject({ token: null, userId: null, userInfo: null });
    expect(storage.getItem(STORAGE_KEYS.token)).toBeNull();
    expect(storage.getItem(STORAGE_KEYS.userInfo)).toBeNull();
  });

  it('ignores a corrupt userInfo and removes it', () => {
    const storage = memoryStorage();
    storage.setItem(STORAGE_KEYS.userInfo, '{not json');
    const store = createSessionStore(storage);
    store.restoreUserInfo(parseUserInfo);
    expect(store.getState().userInfo).toBeNull();
    expect(storage.getItem(STORAGE_KEYS.userInfo)).toBeNull();
  });

  it('drops a stored userInfo that no longer matches the contract', () => {
    const storage = memoryStorage();
    storage.setItem(STORAGE_KEYS.userInfo, JSON.stringify({ ...userInfo, user_id: 'seven' }));
    const store = createSessionStore(storage);
    store.restoreUserInfo(parseUserInfo);
    expect(store.getState().userInfo).toBeNull();
    expect(storage.getItem(STORAGE_KEYS.userInfo)).toBeNull();
  });

  it('checks the stored userInfo only when asked, and never over a newer one', () => {
    const storage = memoryStorage();
    createSessionStore(storage).signIn({ token: 't', userId: 7, userInfo });
    const store = createSessionStore(storage);
    expect(store.getState().userInfo).toBeNull();
    const newer = { ...userInfo, user_id: 8 };
    store.setUserInfo(newer);
    store.restoreUserInfo(parseUserInfo);
    expect(store.getState().userInfo).toEqual(newer);
  });

  it('price colours follow the language until chosen', () => {
    expect(priceColorsOf({ lang: 'jp', priceColorsChoice: null })).toBe('red-up');
    expect(priceColorsOf({ lang: 'en', priceColorsChoice: null })).toBe('green-up');
    expect(priceColorsOf({ lang: 'jp', priceColorsChoice: 'green-up' })).toBe('green-up');
  });
});
