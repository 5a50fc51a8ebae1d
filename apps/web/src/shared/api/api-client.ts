import { ERRORS, type LangCode } from '@kabuto/contract';
import { ApiError } from '@kabuto/client/api-error';
import { createApiClient, type ApiClient } from '@kabuto/client/api-client';
import type { TransportTexts } from '@kabuto/client/http';

/**
 * The web app's policy on the shared API client (specification §7, §8; ADR 0019): the token in the `token`
 * header, times out after 5000 ms, a 2000 ms failure toast; on a 401 clears the session, shows the expiry
 * message and opens the login page after 1500 ms (only if the refused token is still the session's:
 * a refusal of a token the app has let go of, or moved on from, says nothing about the session it has now).
 */
export interface WebApiDeps {
  fetch: typeof fetch;
  /** Origin-relative base, e.g. "/api". */
  baseUrl: string;
  getLang: () => LangCode;
  getToken: () => string | null;
  toast: (message: string, durationMs: number) => void;
  /**
   * Localized client texts. `sessionExpired` is undefined while the contract's messages have not arrived
   * (ADR 0059): the server's own message for the refusal, in the same language, is shown instead.
   */
  texts: () => TransportTexts & { sessionExpired: string | undefined };
  clearSession: () => void;
  openLogin: () => void;
  timeoutMs?: number;
  failureToastMs?: number;
  sessionExpiredRedirectMs?: number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

export function createWebApiClient(deps: WebApiDeps): ApiClient {
  const failureToastMs = deps.failureToastMs ?? 2000;
  const redirectMs = deps.sessionExpiredRedirectMs ?? 1500;
  const setTimer = deps.setTimer ?? ((fn: () => void, ms: number) => setTimeout(fn, ms));
  let redirectPending = false;

  /** The error for a 401 to `token`; ends the session first if that token is still the session's. */
  function sessionExpired(refused: ApiError, token: string | null): ApiError {
    const msg = deps.texts().sessionExpired ?? refused.msg;
    const error = new ApiError({
      code: ERRORS.UNAUTHENTICATED.code,
      msg,
      data: refused.data,
      status: refused.status,
    });
    if (token !== deps.getToken()) return error;
    deps.clearSession();
    deps.toast(msg, failureToastMs);
    if (!redirectPending) {
      redirectPending = true;
      setTimer(() => {
        redirectPending = false;
        deps.openLogin();
      }, redirectMs);
    }
    return error;
  }

  return createApiClient({
    fetch: deps.fetch,
    baseUrl: deps.baseUrl,
    getLang: deps.getLang,
    getToken: deps.getToken,
    authorize: (token) => ({ token }),
    notify: (message) => {
      deps.toast(message, failureToastMs);
    },
    texts: deps.texts,
    onUnauthenticated: sessionExpired,
    timeoutMs: deps.timeoutMs ?? 5000,
    setTimer: deps.setTimer,
    clearTimer: deps.clearTimer,
  });
}
