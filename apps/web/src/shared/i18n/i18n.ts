import { localeOf } from '@kabuto/contract';
import { createAppI18n } from '@kabuto/client/i18n';
import { UI_MESSAGES } from '@/locales/catalogues';
import { sessionStore } from '../session/session';

/** The web app's i18n (the shared bootstrap, ADR 0019): the six web catalogues, the session's language. */
export const { i18n, initI18n, tContract } = createAppI18n({
  catalogues: UI_MESSAGES,
  locale: () => localeOf(sessionStore.getState().lang),
  subscribe: (listener) => sessionStore.subscribe(listener),
});
