import { createAppI18n, loadContractMessages } from '@kabuto/client/i18n';
import { loadUiMessages } from '@/locales/load';
import { applyDayjsLocale } from './locale';
import { sessionStore } from './session';

/**
 * The console's i18n (the shared bootstrap, ADR 0019): the session's locale, its catalogues loaded on demand;
 * dayjs (antd's date pickers) follows the language too.
 */
export const { i18n, initI18n, tContract, hasContractKey } = createAppI18n({
  loadUi: loadUiMessages,
  loadContract: loadContractMessages,
  locale: () => sessionStore.getState().locale,
  subscribe: (listener) => sessionStore.subscribe(listener),
  onLanguage: applyDayjsLocale,
});
