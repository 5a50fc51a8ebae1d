import { LOCALES, NEWS_FALLBACK_ORDER } from '@kabuto/contract';
import { describe, expect, it } from 'vitest';
import { pickVersion } from './fallback.js';

const v = (...locales: string[]) => locales.map((locale) => ({ locale, title: locale }));

describe('the fallback order of article languages (ADR 0029)', () => {
  it('names every language exactly once for every reader, the reader first', () => {
    for (const reader of LOCALES) {
      const order = NEWS_FALLBACK_ORDER[reader];
      expect(order[0]).toBe(reader);
      expect([...order].sort()).toEqual([...LOCALES].sort());
    }
  });

  it("shows the reader's own language unmarked", () => {
    expect(pickVersion(v('ja', 'en', 'fr'), 'fr')).toEqual({
      version: { locale: 'fr', title: 'fr' },
      fallback: false,
    });
  });

  it('falls back by the written order, marked', () => {
    // ja and en exist: a French reader gets English, a Spanish reader English, a Chinese reader English
    expect(pickVersion(v('ja', 'en'), 'fr')).toMatchObject({ version: { locale: 'en' }, fallback: true });
    expect(pickVersion(v('ja', 'en'), 'es')).toMatchObject({ version: { locale: 'en' }, fallback: true });
    expect(pickVersion(v('ja', 'en'), 'zh-Hans')).toMatchObject({
      version: { locale: 'en' },
      fallback: true,
    });
    // the other Chinese script comes before English
    expect(pickVersion(v('en', 'zh-Hant'), 'zh-Hans')).toMatchObject({
      version: { locale: 'zh-Hant' },
      fallback: true,
    });
    // a Japanese-only article reaches everyone in Japanese
    for (const reader of LOCALES.filter((l) => l !== 'ja')) {
      expect(pickVersion(v('ja'), reader)).toMatchObject({ version: { locale: 'ja' }, fallback: true });
    }
    // an English reader of a ja + fr article reads Japanese (the firm's language before French)
    expect(pickVersion(v('fr', 'ja'), 'en')).toMatchObject({ version: { locale: 'ja' }, fallback: true });
  });

  it('answers nothing for an article with no version', () => {
    expect(pickVersion([], 'ja')).toBeUndefined();
  });
});
