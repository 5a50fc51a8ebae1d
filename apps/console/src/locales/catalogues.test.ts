import { LOCALES, MESSAGES } from '@kabuto/contract';
import { describe, expect, it } from 'vitest';
import { UI_MESSAGES } from './catalogues';

function leaves(node: unknown, prefix = ''): [string, unknown][] {
  if (typeof node !== 'object' || node === null) return [[prefix, node]];
  return Object.entries(node).flatMap(([key, value]) =>
    leaves(value, prefix === '' ? key : `${prefix}.${key}`),
  );
}

const placeholders = (text: unknown) =>
  typeof text === 'string' ? [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort() : [];

describe('console catalogues', () => {
  const reference = leaves(UI_MESSAGES.en);

  it.each(LOCALES)('%s has exactly the English keys and no empty value', (locale) => {
    const entries = leaves(UI_MESSAGES[locale]);
    expect(entries.map(([k]) => k).sort()).toEqual(reference.map(([k]) => k).sort());
    for (const [key, value] of entries) {
      expect(typeof value, key).toBe('string');
      expect(String(value).trim(), key).not.toBe('');
    }
  });

  it.each(LOCALES)('%s keeps the placeholders of the English text', (locale) => {
    const byKey = new Map(leaves(UI_MESSAGES[locale]));
    for (const [key, value] of reference) {
      expect(placeholders(byKey.get(key)), key).toEqual(placeholders(value));
    }
  });

  it('the contract catalogues used as the second namespace exist for every locale', () => {
    for (const locale of LOCALES) expect(MESSAGES[locale].validation.accountRequired).not.toBe('');
  });
});
