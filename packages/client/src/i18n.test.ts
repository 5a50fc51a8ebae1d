import { describe, expect, it, vi } from 'vitest';
import type { Locale } from '@kabuto/contract';
import { createAppI18n, CONTRACT_NS } from './i18n.js';

/** An app's i18n over catalogues that answer at once, with the locale the test sets. */
function setup() {
  let locale: Locale = 'ja';
  const listeners: (() => void)[] = [];
  const loadUi = vi.fn((l: Locale) => Promise.resolve({ hello: `hello ${l}` }));
  const loadContract = vi.fn((l: Locale) => Promise.resolve({ errors: { X: `error ${l}` } }));
  const app = createAppI18n({
    loadUi,
    loadContract,
    locale: () => locale,
    subscribe: (listener) => listeners.push(listener),
  });
  const switchTo = (next: Locale) => {
    locale = next;
    for (const listener of listeners) listener();
  };
  return { app, loadUi, loadContract, switchTo };
}

describe('createAppI18n: the contract messages now or after the first screen (ADR 0059)', () => {
  it('waits for both catalogues by default', async () => {
    const { app, loadContract } = setup();
    await app.initI18n();
    expect(app.i18n.t('hello')).toBe('hello ja');
    expect(app.tContract('errors.X')).toBe('error ja');
    expect(loadContract).toHaveBeenCalledOnce();
  });

  it("with contract: 'later' starts with the UI texts only, and contractReady brings the messages, once", async () => {
    const { app, loadContract } = setup();
    await app.initI18n({ contract: 'later' });
    expect(app.i18n.t('hello')).toBe('hello ja');
    expect(loadContract).not.toHaveBeenCalled();
    expect(app.hasContractKey('errors.X')).toBe(false);
    expect(app.tContract('errors.X')).toBe('errors.X');

    const added = vi.fn();
    app.i18n.store.on('added', added);
    await Promise.all([app.contractReady(), app.contractReady()]);
    expect(loadContract).toHaveBeenCalledOnce();
    expect(added).toHaveBeenCalledWith('ja', CONTRACT_NS, expect.anything());
    expect(app.tContract('errors.X')).toBe('error ja');
  });

  it('tries again after a failed load', async () => {
    const { app, loadContract } = setup();
    await app.initI18n({ contract: 'later' });
    loadContract.mockImplementationOnce(() => Promise.reject(new Error('offline')));
    await expect(app.contractReady()).rejects.toThrow('offline');
    await app.contractReady();
    expect(app.tContract('errors.X')).toBe('error ja');
  });

  it('a switch of language shows the new one with both its catalogues', async () => {
    const { app, loadUi, loadContract, switchTo } = setup();
    await app.initI18n({ contract: 'later' });
    switchTo('fr');
    await vi.waitFor(() => {
      expect(app.i18n.language).toBe('fr');
    });
    expect(loadUi).toHaveBeenLastCalledWith('fr');
    expect(loadContract).toHaveBeenLastCalledWith('fr');
    expect(app.tContract('errors.X')).toBe('error fr');
    await app.showLanguage('en');
    expect(app.tContract('errors.X')).toBe('error en');
    await app.contractReady();
    expect(loadContract).toHaveBeenCalledTimes(2);
  });
});
