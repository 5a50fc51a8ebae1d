import { ERRORS, OK_CODE, ZFailureEnvelope } from '@kabuto/contract';
import type { z } from 'zod';
import { ApiError, CLIENT_CODES } from './api-error.js';

/**
 * What the web app's and the console's API clients share (ADR 0019): the URL with `lang`, one exchange
 * with a timeout and the caller's cancel signal, and the reading of the `{code, msg, data}` envelope.
 * Each app keeps its own policy on top: which header carries the token, how a failure is shown, what a
 * lost session does.
 */
export { urlOf, type Query } from './url.js';

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

/** Localized texts of the failures that have no envelope. */
export interface TransportTexts {
  timeout: string;
  network: string;
  badResponse: string;
  /** A request the caller cancelled (an upload the user stopped). */
  aborted?: string;
}

export interface ExchangeDeps {
  fetch: typeof fetch;
  texts: () => TransportTexts;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

export interface ExchangeRequest<T> {
  url: string;
  init: Omit<RequestInit, 'signal'>;
  timeoutMs: number;
  /** The caller's cancel signal: its abort fails the exchange with CLIENT_CODES.aborted. */
  signal?: AbortSignal;
  /** Reads the body while the timeout still runs; its errors count as network failures. */
  read: (response: Response) => Promise<T>;
}

/** A body read as JSON: '' is null; text that is not JSON throws a SyntaxError. */
export async function readJson(response: Response | Blob): Promise<unknown> {
  const text = await response.text();
  return text === '' ? null : (JSON.parse(text) as unknown);
}

/**
 * Sends one request and reads its body. Fails with an ApiError of status 0 and no side effect:
 * aborted (the caller cancelled), timeout or network.
 */
export async function exchange<T>(
  deps: ExchangeDeps,
  request: ExchangeRequest<T>,
): Promise<{ response: Response; body: T }> {
  const setTimer = deps.setTimer ?? ((fn: () => void, ms: number) => setTimeout(fn, ms));
  const clearTimer =
    deps.clearTimer ??
    ((handle: unknown) => {
      clearTimeout(handle as ReturnType<typeof setTimeout>);
    });
  const controller = new AbortController();
  const timer = setTimer(() => {
    controller.abort();
  }, request.timeoutMs);
  const external = request.signal;
  const cancel = () => {
    controller.abort();
  };
  if (external?.aborted === true) controller.abort();
  external?.addEventListener('abort', cancel);
  try {
    const response = await deps.fetch(request.url, { ...request.init, signal: controller.signal });
    return { response, body: await request.read(response) };
  } catch (cause) {
    const texts = deps.texts();
    if (external?.aborted === true) {
      throw new ApiError({ code: CLIENT_CODES.aborted, msg: texts.aborted ?? 'aborted', status: 0 });
    }
    if (controller.signal.aborted) {
      throw new ApiError({ code: CLIENT_CODES.timeout, msg: texts.timeout, status: 0 });
    }
    const detail = cause instanceof Error && cause.message !== '' ? cause.message : 'error';
    throw new ApiError({ code: CLIENT_CODES.network, msg: `${texts.network} (${detail})`, status: 0 });
  } finally {
    clearTimer(timer);
    external?.removeEventListener('abort', cancel);
  }
}

/**
 * How an answer that is not a success ends: `unauthenticated` for the session-expired code, or for an
 * HTTP 401 without an envelope (then with an empty msg); `failure` for every other code, and for an answer
 * without an envelope (a bad response carrying the HTTP status).
 */
export type Failure = { kind: 'unauthenticated'; error: ApiError } | { kind: 'failure'; error: ApiError };

export function failureOf(status: number, payload: unknown, badResponse: string): Failure {
  const envelope = ZFailureEnvelope.safeParse(payload);
  if (!envelope.success) {
    if (status === 401) {
      return {
        kind: 'unauthenticated',
        error: new ApiError({ code: ERRORS.UNAUTHENTICATED.code, msg: '', data: payload, status }),
      };
    }
    return {
      kind: 'failure',
      error: new ApiError({ code: CLIENT_CODES.badResponse, msg: badResponse, status }),
    };
  }
  const { code, msg, data } = envelope.data;
  const error = new ApiError({ code, msg: msg === '' ? 'error' : msg, data, status });
  // A failed login is HTTP 401 with its own code: a normal failure.
  return { kind: code === ERRORS.UNAUTHENTICATED.code ? 'unauthenticated' : 'failure', error };
}

/** An answer read as an envelope: its data parsed with the schema, or how it failed. */
export function outcomeOf<S extends z.ZodType>(
  response: Pick<Response, 'status' | 'ok'>,
  payload: unknown,
  schema: S,
  badResponse: string,
): { kind: 'ok'; data: z.output<S> } | Failure {
  const envelope = ZFailureEnvelope.safeParse(payload);
  if (!envelope.success || envelope.data.code !== OK_CODE || !response.ok) {
    return failureOf(response.status, payload, badResponse);
  }
  const parsed = schema.safeParse(envelope.data.data);
  if (parsed.success) return { kind: 'ok', data: parsed.data };
  return {
    kind: 'failure',
    error: new ApiError({
      code: CLIENT_CODES.badResponse,
      msg: badResponse,
      data: parsed.error.issues,
      status: response.status,
    }),
  };
}
