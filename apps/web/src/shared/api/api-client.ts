import { ERRORS, OK_CODE, ZFailureEnvelope, type LangCode } from '@kabuto/contract';
import type { z } from 'zod';
import { ApiError, CLIENT_CODES } from './api-error';

/**
 * The one place that talks to the API and turns failures into toasts (specification §7, §8):
 * adds `lang` and `token`, times out after 5000 ms, parses the envelope with the contract's schemas,
 * shows a 2000 ms failure toast and rejects with an ApiError; on a 401 clears the session, shows the
 * expiry message and opens the login page after 1500 ms.
 */
export interface ApiClientDeps {
  fetch: typeof fetch;
  /** Origin-relative base, e.g. "/api". */
  baseUrl: string;
  getLang: () => LangCode;
  getToken: () => string | null;
  toast: (message: string, durationMs: number) => void;
  /** Localized client texts. */
  texts: () => { timeout: string; network: string; badResponse: string; sessionExpired: string };
  clearSession: () => void;
  openLogin: () => void;
  timeoutMs?: number;
  failureToastMs?: number;
  sessionExpiredRedirectMs?: number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

export type Query = Readonly<Record<string, string | number | boolean | null | undefined>>;

export interface RequestOptions<S extends z.ZodType> {
  method?: 'GET' | 'POST';
  path: string;
  query?: Query;
  body?: unknown;
  schema: S;
  /** Set false to handle a failure without the global toast. */
  toast?: boolean;
}

export interface ApiClient {
  request: <S extends z.ZodType>(options: RequestOptions<S>) => Promise<z.output<S>>;
}

export function createApiClient(deps: ApiClientDeps): ApiClient {
  const timeoutMs = deps.timeoutMs ?? 5000;
  const failureToastMs = deps.failureToastMs ?? 2000;
  const redirectMs = deps.sessionExpiredRedirectMs ?? 1500;
  const setTimer = deps.setTimer ?? ((fn: () => void, ms: number) => setTimeout(fn, ms));
  const clearTimer =
    deps.clearTimer ??
    ((handle: unknown) => {
      clearTimeout(handle as ReturnType<typeof setTimeout>);
    });
  let redirectPending = false;

  function urlOf(path: string, query: Query | undefined): string {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined && value !== null) params.set(key, String(value));
    }
    params.set('lang', deps.getLang());
    return `${deps.baseUrl}${path}?${params.toString()}`;
  }

  function sessionExpired(status: number, data: unknown): ApiError {
    const msg = deps.texts().sessionExpired;
    deps.clearSession();
    deps.toast(msg, failureToastMs);
    if (!redirectPending) {
      redirectPending = true;
      setTimer(() => {
        redirectPending = false;
        deps.openLogin();
      }, redirectMs);
    }
    return new ApiError({ code: ERRORS.UNAUTHENTICATED.code, msg, data, status });
  }

  async function request<S extends z.ZodType>(options: RequestOptions<S>): Promise<z.output<S>> {
    const showToast = options.toast !== false;
    const fail = (error: ApiError): ApiError => {
      if (showToast) deps.toast(error.msg, failureToastMs);
      return error;
    };
    const controller = new AbortController();
    const timer = setTimer(() => {
      controller.abort();
    }, timeoutMs);
    const headers: Record<string, string> = { accept: 'application/json' };
    const token = deps.getToken();
    if (token !== null && token !== '') headers.token = token;
    if (options.body !== undefined) headers['content-type'] = 'application/json';

    let response: Response;
    let payload: unknown;
    try {
      response = await deps.fetch(urlOf(options.path, options.query), {
        method: options.method ?? 'GET',
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: controller.signal,
      });
      const text = await response.text();
      payload = text === '' ? null : (JSON.parse(text) as unknown);
    } catch (cause) {
      const texts = deps.texts();
      if (controller.signal.aborted)
        throw fail(new ApiError({ code: CLIENT_CODES.timeout, msg: texts.timeout, status: 0 }));
      if (cause instanceof SyntaxError) {
        throw fail(new ApiError({ code: CLIENT_CODES.badResponse, msg: texts.badResponse, status: 0 }));
      }
      const detail = cause instanceof Error && cause.message !== '' ? cause.message : 'error';
      throw fail(
        new ApiError({ code: CLIENT_CODES.network, msg: `${texts.network} (${detail})`, status: 0 }),
      );
    } finally {
      clearTimer(timer);
    }

    const failure = ZFailureEnvelope.safeParse(payload);
    if (!failure.success) {
      if (response.status === 401) throw sessionExpired(401, payload);
      throw fail(
        new ApiError({
          code: CLIENT_CODES.badResponse,
          msg: deps.texts().badResponse,
          status: response.status,
        }),
      );
    }
    const { code, msg, data } = failure.data;
    // The session-expired code. (A failed login is HTTP 401 with its own code and is a normal failure.)
    if (code === ERRORS.UNAUTHENTICATED.code) throw sessionExpired(response.status, data);
    if (code !== OK_CODE || !response.ok) {
      throw fail(new ApiError({ code, msg: msg === '' ? 'error' : msg, data, status: response.status }));
    }
    const parsed = options.schema.safeParse(data);
    if (!parsed.success) {
      throw fail(
        new ApiError({
          code: CLIENT_CODES.badResponse,
          msg: deps.texts().badResponse,
          data: parsed.error.issues,
          status: response.status,
        }),
      );
    }
    return parsed.data;
  }

  return { request };
}
