import { describe, expect, it } from 'vitest';
import { ERROR_NAMES } from '../errors.js';
import { LOCALES } from '../lang.js';
import { MESSAGES, interpolate, lookup, translate } from './index.js';

const flatten = (node: object, prefix = ''): [string, string][] =>
  Object.entries(node).flatMap(([k, v]) =>
    typeof v === 'string'
      ? [[`${prefix}${k}`, v] as [string, string]]
      : flatten(v as object, `${prefix}${k}.`),
  );

describe('message catalogues', () => {
  const english = flatten(MESSAGES.en);

  it.each(LOCALES)('%s has every key, no empty text and the same placeholders', (locale) => {
    const entries = new Map(flatten(MESSAGES[locale]));
    expect([...entries.keys()].sort()).toEqual(english.map(([k]) => k).sort());
    for (const [key, en] of english) {
      const text = entries.get(key) ?? '';
      expect(text.trim(), `${locale} ${key}`).not.toBe('');
      const placeholders = (s: string) => (s.match(/\{\{\s*\w+\s*\}\}/g) ?? []).sort();
      expect(placeholders(text), `${locale} ${key}`).toEqual(placeholders(en));
    }
  });

  it('has a message for every error code', () => {
    for (const locale of LOCALES) {
      for (const name of ERROR_NAMES)
        expect(lookup(locale, `errors.${name}`), `${locale} ${name}`).toBeTruthy();
    }
  });

  it('interpolates i18next-style placeholders and falls back to English, then the key', () => {
    expect(interpolate('wait {{seconds}} s', { seconds: 40 })).toBe('wait 40 s');
    expect(translate('ja', 'errors.SMS_RESEND_TOO_SOON', { seconds: 5 })).toBe('再送信は5秒後に行えます');
    expect(translate('fr', 'no.such.key')).toBe('no.such.key');
  });
});
