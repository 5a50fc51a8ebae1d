import { createConsoleApi } from './api-client';
import { i18n } from './i18n';
import { notify } from './notifier';
import { queryClient } from './query-client';
import { langOf, sessionStore } from './session';

/** Where the app goes on a lost session or a required password change (hash routes). */
function goTo(hash: string) {
  if (typeof window !== 'undefined' && window.location.hash !== hash) window.location.hash = hash;
}

export const api = createConsoleApi({
  fetch: (input, init) => fetch(input, init),
  baseUrl: '/api/console',
  getLang: () => langOf(sessionStore.getState().locale),
  getToken: () => sessionStore.getState().token,
  notify: notify.error,
  texts: () => ({
    timeout: i18n.t('api.timeout'),
    network: i18n.t('api.network'),
    badResponse: i18n.t('api.badResponse'),
  }),
  onUnauthenticated: (msg) => {
    const hadSession = sessionStore.getState().token !== null;
    sessionStore.clear();
    queryClient.clear();
    if (hadSession && msg !== '') notify.warning(msg);
    goTo('#/login');
  },
  onPasswordChangeRequired: () => {
    void queryClient.invalidateQueries({ queryKey: ['me'] });
    goTo('#/password');
  },
});
