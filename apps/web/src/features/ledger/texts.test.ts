import { LEDGER_ACCOUNTS, LEDGER_ENTRY_KINDS, LOCALES, MESSAGES } from '@kabuto/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { i18n, initI18n } from '@/shared/i18n/i18n';
import { accountLabel, kindLabel } from './texts';

/** Every entry kind of the contract's one list, and every account, has a real label in all six languages. */
beforeAll(async () => {
  await initI18n();
});

describe('transaction log texts', () => {
  it.each(LOCALES)('%s labels every ledger entry kind and account', async (locale) => {
    await i18n.changeLanguage(locale);
    for (const kind of LEDGER_ENTRY_KINDS) {
      // In the language's own catalogue, not by falling back to English...
      expect(MESSAGES[locale].ledgerKinds[kind].trim(), `${locale} ${kind}`).not.toBe('');
      // ...and as the page renders it: a text, never the key or the raw kind.
      const label = kindLabel(i18n.t, kind);
      expect(label, `${locale} ${kind}`).toBe(MESSAGES[locale].ledgerKinds[kind]);
      expect(label).not.toContain('ledgerKinds');
    }
    for (const account of LEDGER_ACCOUNTS) {
      expect(accountLabel(i18n.t, account), `${locale} ${account}`).toBe(MESSAGES[locale].accounts[account]);
    }
  });

  it('shows a kind it does not know as it came', () => {
    expect(kindLabel(i18n.t, 'dividend')).toBe('dividend');
  });
});
