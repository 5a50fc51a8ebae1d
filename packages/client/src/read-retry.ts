import { useQueryClient, type Query, type QueryClient } from '@tanstack/react-query';
import { useCallback, useSyncExternalStore } from 'react';
import { CLIENT_CODES, isApiError } from './api-error.js';

/**
 * The retry of reads shared by the web app and the console (issue 22, ADR 0032 and 0034): which failures are
 * retried, how often, and whether the screen should say it is reconnecting. Writes are never retried here.
 */

/** Tries of a read after its first failure, while the failure is a passing one. */
export const READ_RETRIES = 5;

/**
 * A failure that may pass on its own: no answer at all (network down, timed out), or a 503 (the server or its
 * database is restarting). A refusal (4xx), a server bug (500), a request the user cancelled or a garbled
 * answer will not change by asking again.
 */
export function isTransient(error: unknown): boolean {
  if (!isApiError(error)) return false;
  if (error.status === 503) return true;
  return error.status === 0 && error.code !== CLIENT_CODES.aborted && error.code !== CLIENT_CODES.badResponse;
}

/** Reads are retried with backoff (1, 2, 4, 8, then 10 s between tries) while the failure is transient. */
export function readRetry(failureCount: number, error: unknown): boolean {
  return failureCount < READ_RETRIES && isTransient(error);
}
export const readRetryDelay = (attempt: number): number => Math.min(1000 * 2 ** attempt, 10_000);

/** Whether a query on screen last failed for a passing reason (and has not succeeded since). */
function waitsForServer(query: Query): boolean {
  return (
    query.getObserversCount() > 0 &&
    query.state.fetchFailureCount > 0 &&
    isTransient(query.state.fetchFailureReason)
  );
}

export function isReconnecting(client: QueryClient): boolean {
  return client.getQueryCache().getAll().some(waitsForServer);
}

/**
 * True while a read the screen shows cannot reach the server (no answer, or 503 while the server or its
 * database restarts) and is being retried; false again at the first success.
 */
export function useReconnecting(): boolean {
  const client = useQueryClient();
  const subscribe = useCallback(
    (onChange: () => void) => client.getQueryCache().subscribe(onChange),
    [client],
  );
  return useSyncExternalStore(subscribe, () => isReconnecting(client));
}
