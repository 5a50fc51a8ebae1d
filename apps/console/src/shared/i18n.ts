import { createAppI18n } from '@kabuto/client/i18n';
import { UI_MESSAGES } from '@/locales/catalogues';
import { applyDayjsLocale } from './locale';
import { sessionStore } from './session';

/**
 * The console's i18n (the shared bootstrap, ADR 0019): the six console catalogues, the session's locale;
 * dayjs (antd's date pickers) follows the language too.
 */
export const { i18n, initI18n, tContract, hasContractKey } = createAppI18n({
  catalogues: UI_MESSAGES,
  locale: () => sessionStore.getState().locale,
  subscribe: (listener) => sessionStore.subscribe(listener),
  onLanguage: applyDayjsLocale,
});
