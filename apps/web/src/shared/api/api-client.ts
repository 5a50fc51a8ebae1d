import { ERRORS, OK_CODE, ZFailureEnvelope, type LangCode } from '@kabuto/contract';
import type { z } from 'zod';
import { ApiError, CLIENT_CODES } from './api-error';

/**
 * The one place that talks to the API and turns failures into toasts (specification §7, §8):
 * adds `lang` and `token`, times out after 5000 ms, parses the envelope with the contract's schemas,
 * shows a 2000 ms failure toast and rejects with an ApiError; on a 401 clears the session, shows the
 * expiry message and opens the login page after 1500 ms (only if the refused token is still the session's:
 * a refusal of a token the app has let go of, or moved on from, says nothing about the session it has now).
 */
export interface ApiClientDeps {
  fetch: typeof fetch;
  /** Origin-relative base, e.g. "/api". */
  baseUrl: string;
  getLang: () => LangCode;
  getToken: () => string | null;
  toast: (message: string, durationMs: number) => void;
  /** Localized client texts. */
  texts: () => {
    timeout: string;
    network: string;
    badResponse: string;
    sessionExpired: string;
    /** A request the caller cancelled (an upload the user stopped). */
    aborted?: string;
  };
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
  /** Extra request headers (e.g. `Idempotency-Key`); lang and token are still added by the client. */
  headers?: Readonly<Record<string, string>>;
  /** A raw text body with its content type (e.g. a CSV file), sent instead of a JSON `body`. */
  text?: { contentType: string; value: string };
  /** A multipart body (an upload), sent instead of a JSON `body`; the browser sets its content type. */
  form?: FormData;
  /** Lets the caller cancel the request; the failure then has the code CLIENT_CODES.aborted. */
  signal?: AbortSignal;
  /** Overrides the client's timeout for this request. */
  timeoutMs?: number;
  /** Sends this token instead of the session's: for a session the app has already let go of (logout). */
  token?: string;
}

export interface FileOptions {
  path: string;
  query?: Query;
  toast?: boolean;
  timeoutMs?: number;
}

/** A downloaded file: its bytes and the name the server suggested (Content-Disposition). */
export interface DownloadedFile {
  blob: Blob;
  filename: string | null;
  contentType: string;
}

export interface ApiClient {
  request: <S extends z.ZodType>(options: RequestOptions<S>) => Promise<z.output<S>>;
  /** GETs a file (not an envelope) with lang and token; a failure envelope is handled like request's. */
  fetchFile: (options: FileOptions) => Promise<DownloadedFile>;
}

/** The file name of a Content-Disposition header (filename*=UTF-8'' preferred over filename=). */
export function filenameOf(disposition: string | null): string | null {
  if (disposition === null) return null;
  const star = /filename\*\s*=\s*(?:UTF-8'')?([^;]+)/i.exec(disposition);
  if (star?.[1] !== undefined) {
    try {
      return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
    } catch {
      // fall back to the plain form
    }
  }
  const plain = /filename\s*=\s*("?)([^";]+)\1/i.exec(disposition);
  return plain?.[2]?.trim() ?? null;
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

  /** The error for a 401 to `token`; ends the session first if that token is still the session's. */
  function sessionExpired(status: number, data: unknown, token: string | null): ApiError {
    const msg = deps.texts().sessionExpired;
    const error = new ApiError({ code: ERRORS.UNAUTHENTICATED.code, msg, data, status });
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

  async function request<S extends z.ZodType>(options: RequestOptions<S>): Promise<z.output<S>> {
    const showToast = options.toast !== false;
    const fail = (error: ApiError): ApiError => {
      if (showToast) deps.toast(error.msg, failureToastMs);
      return error;
    };
    const controller = new AbortController();
    const timer = setTimer(() => {
      controller.abort();
    }, options.timeoutMs ?? timeoutMs);
    const external = options.signal;
    const cancel = () => {
      controller.abort();
    };
    if (external?.aborted === true) controller.abort();
    external?.addEventListener('abort', cancel);
    const headers: Record<string, string> = { ...options.headers, accept: 'application/json' };
    const token = options.token ?? deps.getToken();
    if (token !== null && token !== '') headers.token = token;
    let body: string | FormData | undefined;
    if (options.form !== undefined) {
      body = options.form;
    } else if (options.text !== undefined) {
      headers['content-type'] = options.text.contentType;
      body = options.text.value;
    } else if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }

    let response: Response;
    let payload: unknown;
    try {
      response = await deps.fetch(urlOf(options.path, options.query), {
        method: options.method ?? (body === undefined ? 'GET' : 'POST'),
        headers,
        body,
        signal: controller.signal,
      });
      const text = await response.text();
      payload = text === '' ? null : (JSON.parse(text) as unknown);
    } catch (cause) {
      const texts = deps.texts();
      if (external?.aborted === true) {
        throw new ApiError({ code: CLIENT_CODES.aborted, msg: texts.aborted ?? 'aborted', status: 0 });
      }
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
      external?.removeEventListener('abort', cancel);
    }

    const failure = ZFailureEnvelope.safeParse(payload);
    if (!failure.success) {
      if (response.status === 401) throw sessionExpired(401, payload, token);
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
    if (code === ERRORS.UNAUTHENTICATED.code) throw sessionExpired(response.status, data, token);
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

  async function fetchFile(options: FileOptions): Promise<DownloadedFile> {
    const showToast = options.toast !== false;
    const fail = (error: ApiError): ApiError => {
      if (showToast) deps.toast(error.msg, failureToastMs);
      return error;
    };
    const controller = new AbortController();
    const timer = setTimer(() => {
      controller.abort();
    }, options.timeoutMs ?? timeoutMs);
    const headers: Record<string, string> = {};
    const token = deps.getToken();
    if (token !== null && token !== '') headers.token = token;
    let response: Response;
    let blob: Blob;
    try {
      response = await deps.fetch(urlOf(options.path, options.query), {
        method: 'GET',
        headers,
        signal: controller.signal,
      });
      blob = await response.blob();
    } catch (cause) {
      const texts = deps.texts();
      if (controller.signal.aborted)
        throw fail(new ApiError({ code: CLIENT_CODES.timeout, msg: texts.timeout, status: 0 }));
      const detail = cause instanceof Error && cause.message !== '' ? cause.message : 'error';
      throw fail(
        new ApiError({ code: CLIENT_CODES.network, msg: `${texts.network} (${detail})`, status: 0 }),
      );
    } finally {
      clearTimer(timer);
    }
    const contentType = response.headers.get('content-type') ?? '';
    if (response.ok && !contentType.includes('application/json')) {
      return { blob, filename: filenameOf(response.headers.get('content-disposition')), contentType };
    }
    // A failure (or an unexpected JSON answer): read it as an envelope.
    let payload: unknown = null;
    try {
      const text = await blob.text();
      payload = text === '' ? null : (JSON.parse(text) as unknown);
    } catch {
      payload = null;
    }
    const failure = ZFailureEnvelope.safeParse(payload);
    if (!failure.success) {
      if (response.status === 401) throw sessionExpired(401, payload, token);
      throw fail(
        new ApiError({
          code: CLIENT_CODES.badResponse,
          msg: deps.texts().badResponse,
          status: response.status,
        }),
      );
    }
    const { code, msg, data } = failure.data;
    if (code === ERRORS.UNAUTHENTICATED.code) throw sessionExpired(response.status, data, token);
    throw fail(new ApiError({ code, msg: msg === '' ? 'error' : msg, data, status: response.status }));
  }

  return { request, fetchFile };
}
