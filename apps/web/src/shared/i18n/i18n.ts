import { localeOf } from '@kabuto/contract';
import { createAppI18n, loadContractMessages } from '@kabuto/client/i18n';
import { loadUiCatalogue } from '@/locales/load';
import { sessionStore } from '../session/session';

/** The web app's i18n (the shared bootstrap, ADR 0019): the session's language, its catalogues loaded on demand. */
export const { i18n, initI18n, contractReady, tContract, hasContractKey, showLanguage } = createAppI18n({
  loadUi: loadUiCatalogue,
  loadContract: loadContractMessages,
  locale: () => localeOf(sessionStore.getState().lang),
  subscribe: (listener) => sessionStore.subscribe(listener),
});
