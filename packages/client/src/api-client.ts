import type { LangCode } from '@kabuto/contract';
import type { z } from 'zod';
import { ApiError, CLIENT_CODES } from './api-error.js';
import {
  exchange,
  failureOf,
  filenameOf,
  outcomeOf,
  readJson,
  urlOf,
  type ExchangeRequest,
  type Failure,
  type Query,
  type TransportTexts,
} from './http.js';

/**
 * The one API client of the web app and the console (ADR 0019): adds `lang` and the token, times out,
 * parses the `{code, msg, data}` envelope and the data with the contract's schema, and rejects every failure
 * with an ApiError carrying the server's localized msg. What differs between the two front ends is the
 * policy passed in: the header that carries the token, how a failure is shown, what a lost session does, and
 * codes an app answers itself (the console's required password change).
 */
export interface ApiClientDeps {
  fetch: typeof fetch;
  /** Origin-relative base, e.g. "/api". */
  baseUrl: string;
  getLang: () => LangCode;
  getToken: () => string | null;
  /** The request headers that carry a (non-empty) token. */
  authorize: (token: string) => Record<string, string>;
  /** Shows a failure (not called for `notify: false`, a lost session, a cancelled request or a handled code). */
  notify: (message: string) => void;
  texts: () => TransportTexts;
  /** A lost session, refused for `sentToken`: does what the app does then and answers the error to reject with. */
  onUnauthenticated: (error: ApiError, sentToken: string | null) => ApiError;
  /** Failure codes the app answers itself, without showing the failure. */
  handledCodes?: Readonly<Record<number, () => void>>;
  /** Leave '' query values out of the URL. */
  omitEmptyQuery?: boolean;
  timeoutMs: number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

export type { Query };

export interface RequestOptions<S extends z.ZodType> {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH';
  path: string;
  query?: Query;
  body?: unknown;
  schema: S;
  /** false: the caller shows the failure itself (e.g. on a form). */
  notify?: boolean;
  /** Extra request headers (e.g. `Idempotency-Key`); lang and the token are still added by the client. */
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
  notify?: boolean;
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
  /** GETs a file (not an envelope) with lang and the token; a failure envelope is handled like request's. */
  fetchFile: (options: FileOptions) => Promise<DownloadedFile>;
}

/** A body that is not JSON: a bad response, or a lost session when the status is 401. */
const UNREADABLE = Symbol('unreadable');

export function createApiClient(deps: ApiClientDeps): ApiClient {
  const url = (path: string, query: Query | undefined) =>
    urlOf(deps.baseUrl, path, query, deps.getLang(), deps.omitEmptyQuery === true);

  function headersOf(token: string | null, extra?: Readonly<Record<string, string>>): Record<string, string> {
    return { ...extra, ...(token !== null && token !== '' ? deps.authorize(token) : {}) };
  }

  /** The error to reject with, after the side effects of its kind. */
  function settle(failure: Failure, token: string | null, notify: boolean): ApiError {
    if (failure.kind === 'unauthenticated') return deps.onUnauthenticated(failure.error, token);
    const handled = deps.handledCodes?.[failure.error.code];
    if (handled !== undefined) handled();
    else if (notify) deps.notify(failure.error.msg);
    return failure.error;
  }

  async function send<T>(
    request: Omit<ExchangeRequest<T>, 'timeoutMs'> & { timeoutMs: number | undefined },
    notify: boolean,
  ): Promise<{ response: Response; body: T }> {
    try {
      return await exchange(deps, { ...request, timeoutMs: request.timeoutMs ?? deps.timeoutMs });
    } catch (error) {
      const failure = error as ApiError;
      if (notify && failure.code !== CLIENT_CODES.aborted) deps.notify(failure.msg);
      throw failure;
    }
  }

  async function request<S extends z.ZodType>(options: RequestOptions<S>): Promise<z.output<S>> {
    const notify = options.notify !== false;
    const token = options.token ?? deps.getToken();
    const headers = headersOf(token, { ...options.headers, accept: 'application/json' });
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
    const { response, body: payload } = await send(
      {
        url: url(options.path, options.query),
        init: { method: options.method ?? (body === undefined ? 'GET' : 'POST'), headers, body },
        timeoutMs: options.timeoutMs,
        signal: options.signal,
        read: async (r) => {
          try {
            return await readJson(r);
          } catch (cause) {
            if (cause instanceof SyntaxError) return UNREADABLE;
            throw cause;
          }
        },
      },
      notify,
    );
    if (payload === UNREADABLE) {
      const badResponse = deps.texts().badResponse;
      const failure: Failure =
        response.status === 401
          ? failureOf(401, null, badResponse)
          : {
              kind: 'failure',
              error: new ApiError({ code: CLIENT_CODES.badResponse, msg: badResponse, status: 0 }),
            };
      throw settle(failure, token, notify);
    }
    const outcome = outcomeOf(response, payload, options.schema, deps.texts().badResponse);
    if (outcome.kind === 'ok') return outcome.data;
    throw settle(outcome, token, notify);
  }

  async function fetchFile(options: FileOptions): Promise<DownloadedFile> {
    const notify = options.notify !== false;
    const token = deps.getToken();
    const { response, body: blob } = await send(
      {
        url: url(options.path, options.query),
        init: { method: 'GET', headers: headersOf(token, { accept: '*/*' }) },
        timeoutMs: options.timeoutMs,
        read: (r) => r.blob(),
      },
      notify,
    );
    const contentType = response.headers.get('content-type') ?? '';
    if (response.ok && !contentType.includes('application/json')) {
      return { blob, filename: filenameOf(response.headers.get('content-disposition')), contentType };
    }
    // A failure (or an unexpected JSON answer): read it as an envelope.
    const payload = await readJson(blob).catch(() => null);
    throw settle(failureOf(response.status, payload, deps.texts().badResponse), token, notify);
  }

  return { request, fetchFile };
}
