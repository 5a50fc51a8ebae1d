import { ERRORS, type LangCode } from '@kabuto/contract';
import { createApiClient, type ApiClient } from '@kabuto/client/api-client';
import type { TransportTexts } from '@kabuto/client/http';

/**
 * The console's policy on the shared API client (ADR 0019): `Authorization: Bearer <token>`, a 15 s timeout,
 * failures shown to the operator, '' query values left out. A session that is gone (code 401) goes to
 * onUnauthenticated with the server's msg (empty without an envelope) and is not shown twice;
 * OPERATOR_PASSWORD_CHANGE_REQUIRED (1403) opens the password page instead of being shown.
 */
export interface ConsoleApiDeps {
  fetch: typeof fetch;
  /** Origin-relative base, e.g. "/api/console". */
  baseUrl: string;
  getLang: () => LangCode;
  getToken: () => string | null;
  /** Shows a failure to the operator. */
  notify: (message: string) => void;
  texts: () => TransportTexts;
  onUnauthenticated: (msg: string) => void;
  onPasswordChangeRequired: () => void;
  timeoutMs?: number;
}

export function createConsoleApi(deps: ConsoleApiDeps): ApiClient {
  return createApiClient({
    fetch: deps.fetch,
    baseUrl: deps.baseUrl,
    getLang: deps.getLang,
    getToken: deps.getToken,
    authorize: (token) => ({ authorization: `Bearer ${token}` }),
    notify: deps.notify,
    texts: deps.texts,
    onUnauthenticated: (error) => {
      deps.onUnauthenticated(error.msg);
      return error;
    },
    handledCodes: { [ERRORS.OPERATOR_PASSWORD_CHANGE_REQUIRED.code]: deps.onPasswordChangeRequired },
    omitEmptyQuery: true,
    timeoutMs: deps.timeoutMs ?? 15_000,
  });
}
