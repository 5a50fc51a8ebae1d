import { API_TIMEOUT_MS, FAILURE_TOAST_MS, SESSION_EXPIRED_REDIRECT_MS } from '@kabuto/contract';
import { hasContractKey, i18n, tContract } from '../i18n/i18n';
import { reLaunch } from '../navigation/nav';
import { PAGE_PATHS } from '../navigation/routes';
import { sessionStore } from '../session/session';
import { showToast } from '../ui/overlays';
import { createWebApiClient } from './api-client';
import { withEarlyReads } from './early';

/** The running app's API client (same origin: the server serves the app and /api). */
export const api = createWebApiClient({
  // The first page's reads may already be on their way (early.ts; the boot script sends them).
  fetch: withEarlyReads((input, init) => fetch(input, init)),
  baseUrl: '/api',
  getLang: () => sessionStore.getState().lang,
  getToken: () => sessionStore.getState().token,
  toast: showToast,
  texts: () => ({
    timeout: i18n.t('api.timeout'),
    network: i18n.t('api.network'),
    badResponse: i18n.t('api.badResponse'),
    sessionExpired: hasContractKey('errors.UNAUTHENTICATED')
      ? tContract('errors.UNAUTHENTICATED')
      : undefined,
    aborted: i18n.t('api.aborted'),
  }),
  clearSession: () => {
    sessionStore.clear();
  },
  openLogin: () => {
    reLaunch(PAGE_PATHS.login);
  },
  timeoutMs: API_TIMEOUT_MS,
  failureToastMs: FAILURE_TOAST_MS,
  sessionExpiredRedirectMs: SESSION_EXPIRED_REDIRECT_MS,
});
