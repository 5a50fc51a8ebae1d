import { CLIENT_CODES, isApiError } from '@kabuto/client/api-error';

/**
 * One Idempotency-Key per order attempt. `send` starts a new attempt with a fresh key; `retry` sends the
 * same attempt again with the SAME key, so that a retry after a network error or a timeout (when nobody
 * knows whether the server got the first request) can never create a second order. A retry is only
 * offered while the last outcome is unknown; an answer from the server (success or refusal) ends the
 * attempt.
 */
export interface IdempotentAction<I, R> {
  send: (input: I) => Promise<R>;
  retry: () => Promise<R>;
  /** Whether the last attempt ended without an answer (network error or timeout) and can be retried. */
  canRetry: () => boolean;
  /** The key of the current attempt (null before the first). */
  currentKey: () => string | null;
}

export function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}

/** A failure that says nothing about whether the server acted: no answer arrived. */
export function isOutcomeUnknown(error: unknown): boolean {
  return (
    isApiError(error) &&
    error.status === 0 &&
    (error.code === CLIENT_CODES.network || error.code === CLIENT_CODES.timeout)
  );
}

export function createIdempotentAction<I, R>(
  perform: (input: I, idempotencyKey: string) => Promise<R>,
  generateKey: () => string = newIdempotencyKey,
): IdempotentAction<I, R> {
  let attempt: { input: I; key: string } | null = null;
  let unknown = false;

  async function run(current: { input: I; key: string }): Promise<R> {
    unknown = false;
    try {
      const result = await perform(current.input, current.key);
      if (attempt === current) attempt = null;
      return result;
    } catch (error) {
      if (attempt === current) {
        unknown = isOutcomeUnknown(error);
        if (!unknown) attempt = null;
      }
      throw error;
    }
  }

  return {
    send(input) {
      const current = { input, key: generateKey() };
      attempt = current;
      return run(current);
    },
    retry() {
      if (attempt === null || !unknown) return Promise.reject(new Error('nothing to retry'));
      return run(attempt);
    },
    canRetry: () => attempt !== null && unknown,
    currentKey: () => attempt?.key ?? null,
  };
}

/**
 * Sends a new attempt, and while its outcome is unknown (network error or timeout) asks the user whether
 * to send it again; every resend reuses the attempt's key. Resolves null when the user gives up.
 */
export async function sendWithRetry<I, R>(
  action: IdempotentAction<I, R>,
  input: I,
  askRetry: () => Promise<boolean>,
): Promise<R | null> {
  let run = () => action.send(input);
  for (;;) {
    try {
      return await run();
    } catch (error) {
      if (!action.canRetry()) throw error;
      if (!(await askRetry())) return null;
      run = () => action.retry();
    }
  }
}
