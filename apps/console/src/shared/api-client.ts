import { ERRORS, OK_CODE, ZFailureEnvelope, type LangCode } from '@kabuto/contract';
import type { z } from 'zod';
import { ApiError, CLIENT_CODES } from './api-error';

/**
 * The console's one way to the API: adds `lang` and `Authorization: Bearer <token>`, times out, parses the
 * `{code, msg, data}` envelope and the data with the contract's schema, and turns every failure into an
 * ApiError carrying the server's localized msg. A session that is gone (code 401) clears the session and
 * goes back to the sign-in page; OPERATOR_PASSWORD_CHANGE_REQUIRED (1403) opens the password page.
 */
export interface ConsoleApiDeps {
  fetch: typeof fetch;
  /** Origin-relative base, e.g. "/api/console". */
  baseUrl: string;
  getLang: () => LangCode;
  getToken: () => string | null;
  /** Shows a failure to the operator. */
  notify: (message: string) => void;
  texts: () => { timeout: string; network: string; badResponse: string };
  onUnauthenticated: (msg: string) => void;
  onPasswordChangeRequired: () => void;
  timeoutMs?: number;
}

export type Query = Readonly<Record<string, string | number | boolean | null | undefined>>;

export interface RequestOptions<S extends z.ZodType> {
  method?: 'GET' | 'POST' | 'PUT';
  path: string;
  query?: Query;
  body?: unknown;
  schema: S;
  /** false: the caller shows the failure itself (e.g. on a form). */
  notify?: boolean;
}

export interface DownloadedFile {
  blob: Blob;
  filename: string | null;
}

export interface ConsoleApi {
  request: <S extends z.ZodType>(options: RequestOptions<S>) => Promise<z.output<S>>;
  /** GETs bytes (an upload's photo, a CSV statement) with the same headers; failures as `request`. */
  fetchFile: (path: string, query?: Query, notify?: boolean) => Promise<DownloadedFile>;
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

export function createConsoleApi(deps: ConsoleApiDeps): ConsoleApi {
  const timeoutMs = deps.timeoutMs ?? 15_000;

  function urlOf(path: string, query: Query | undefined): string {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
    }
    params.set('lang', deps.getLang());
    return `${deps.baseUrl}${path}?${params.toString()}`;
  }

  function headersOf(): Record<string, string> {
    const headers: Record<string, string> = { accept: 'application/json' };
    const token = deps.getToken();
    if (token !== null && token !== '') headers.authorization = `Bearer ${token}`;
    return headers;
  }

  /** Turns a non-success envelope (or a missing one) into the error to throw, with its side effects. */
  function failureOf(status: number, payload: unknown, notify: boolean): ApiError {
    const envelope = ZFailureEnvelope.safeParse(payload);
    if (!envelope.success) {
      if (status === 401) {
        deps.onUnauthenticated('');
        return new ApiError({ code: ERRORS.UNAUTHENTICATED.code, msg: '', status });
      }
      const error = new ApiError({ code: CLIENT_CODES.badResponse, msg: deps.texts().badResponse, status });
      if (notify) deps.notify(error.msg);
      return error;
    }
    const { code, msg, data } = envelope.data;
    const error = new ApiError({ code, msg: msg === '' ? 'error' : msg, data, status });
    if (code === ERRORS.UNAUTHENTICATED.code) {
      deps.onUnauthenticated(error.msg);
      return error;
    }
    if (code === ERRORS.OPERATOR_PASSWORD_CHANGE_REQUIRED.code) {
      deps.onPasswordChangeRequired();
      return error;
    }
    if (notify) deps.notify(error.msg);
    return error;
  }

  async function send(path: string, init: RequestInit, query: Query | undefined, notify: boolean) {
    const controller = new AbortController();
    const timer = setTimeout(() => {
      controller.abort();
    }, timeoutMs);
    try {
      return await deps.fetch(urlOf(path, query), { ...init, signal: controller.signal });
    } catch (cause) {
      const texts = deps.texts();
      const error = controller.signal.aborted
        ? new ApiError({ code: CLIENT_CODES.timeout, msg: texts.timeout, status: 0 })
        : new ApiError({
            code: CLIENT_CODES.network,
            msg: `${texts.network} (${cause instanceof Error && cause.message !== '' ? cause.message : 'error'})`,
            status: 0,
          });
      if (notify) deps.notify(error.msg);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  async function request<S extends z.ZodType>(options: RequestOptions<S>): Promise<z.output<S>> {
    const notify = options.notify !== false;
    const headers = headersOf();
    const method = options.method ?? (options.body === undefined ? 'GET' : 'POST');
    let body: string | undefined;
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    const response = await send(options.path, { method, headers, body }, options.query, notify);
    let payload: unknown;
    try {
      const text = await response.text();
      payload = text === '' ? null : (JSON.parse(text) as unknown);
    } catch {
      payload = null;
    }
    const envelope = ZFailureEnvelope.safeParse(payload);
    if (!envelope.success || envelope.data.code !== OK_CODE || !response.ok) {
      throw failureOf(response.status, payload, notify);
    }
    const parsed = options.schema.safeParse(envelope.data.data);
    if (!parsed.success) {
      const error = new ApiError({
        code: CLIENT_CODES.badResponse,
        msg: deps.texts().badResponse,
        data: parsed.error.issues,
        status: response.status,
      });
      if (notify) deps.notify(error.msg);
      throw error;
    }
    return parsed.data;
  }

  async function fetchFile(path: string, query?: Query, notifyOption?: boolean): Promise<DownloadedFile> {
    const notify = notifyOption !== false;
    const headers = headersOf();
    headers.accept = '*/*';
    const response = await send(path, { method: 'GET', headers }, query, notify);
    const contentType = response.headers.get('content-type') ?? '';
    const blob = await response.blob();
    if (response.ok && !contentType.includes('application/json')) {
      return { blob, filename: filenameOf(response.headers.get('content-disposition')) };
    }
    let payload: unknown = null;
    try {
      const text = await blob.text();
      payload = text === '' ? null : (JSON.parse(text) as unknown);
    } catch {
      payload = null;
    }
    throw failureOf(response.status, payload, notify);
  }

  return { request, fetchFile };
}
