// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS, storedLang } from './storage-keys';

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('storedLang: the language the boot script loads catalogues for', () => {
  it('reads the stored wire code as it is, or null when none is stored', () => {
    expect(storedLang()).toBeNull();
    localStorage.setItem(STORAGE_KEYS.locale, 'en');
    expect(storedLang()).toBe('en');
  });

  it('answers null when storage is blocked (private mode)', () => {
    vi.stubGlobal('localStorage', {
      getItem: () => {
        throw new DOMException('blocked', 'SecurityError');
      },
    });
    expect(storedLang()).toBeNull();
  });
});
