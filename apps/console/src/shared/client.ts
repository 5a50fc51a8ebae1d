import { createConsoleApi, type ConsoleApiDeps } from './api-client';
import { i18n } from './i18n';
import { notify } from './notifier';
import { queryClient } from './query-client';
import { langOf, sessionStore } from './session';

/** Where the app goes on a lost session or a required password change (hash routes). */
function goTo(hash: string) {
  if (typeof window !== 'undefined' && window.location.hash !== hash) window.location.hash = hash;
}

const deps = {
  fetch: (input: RequestInfo | URL, init?: RequestInit) => fetch(input, init),
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
} satisfies Omit<ConsoleApiDeps, 'baseUrl'>;

export const api = createConsoleApi({ ...deps, baseUrl: '/api/console' });

/**
 * The public API under /api (market data that any visitor may read), e.g. the universe's stocks for a
 * product's constituents; same language, toasts and session handling as `api`.
 */
export const publicApi = createConsoleApi({ ...deps, baseUrl: '/api' });
