import { LOCALES, MESSAGES } from '@kabuto/contract';
import { catalogueProblems } from '@kabuto/client/catalogue-check';
import { describe, expect, it } from 'vitest';
import { UI_MESSAGES } from './catalogues';

describe('console catalogues', () => {
  it.each(LOCALES)('%s has exactly the English keys, no empty value and the same placeholders', (locale) => {
    expect(catalogueProblems(UI_MESSAGES, locale)).toEqual([]);
  });

  it('the contract catalogues used as the second namespace exist for every locale', () => {
    for (const locale of LOCALES) expect(MESSAGES[locale].validation.accountRequired).not.toBe('');
  });
});
