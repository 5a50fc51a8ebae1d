import { LOCALES } from '@kabuto/contract';
import { describe, expect, it } from 'vitest';
import { LEGAL_TEXTS } from './legal-texts';

describe('legal texts', () => {
  it.each(LOCALES)('%s has the three documents with the same structure as English, none empty', (locale) => {
    const docs = LEGAL_TEXTS[locale];
    expect(docs.map((d) => d.id)).toEqual(['user', 'security', 'privacy']);
    docs.forEach((doc, i) => {
      expect(doc.sections.length).toBe(LEGAL_TEXTS.en[i]?.sections.length);
      expect(doc.title.trim()).not.toBe('');
      for (const s of doc.sections) {
        expect(s.heading.trim()).not.toBe('');
        for (const p of s.paragraphs) expect(p.trim()).not.toBe('');
      }
    });
  });

  it.each(LOCALES)('%s states the effective date and the withdrawal rules', (locale) => {
    const text = JSON.stringify(LEGAL_TEXTS[locale]);
    expect(text).toMatch(/2025/);
    expect(text).toMatch(/10[,.\s ]?000/);
  });
});
