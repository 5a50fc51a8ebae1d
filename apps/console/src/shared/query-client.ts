import { QueryClient } from '@tanstack/react-query';
import { CLIENT_CODES, isApiError } from '@kabuto/client/api-error';

/** Tries of a read after its first failure, while the failure is a passing one. */
export const READ_RETRIES = 5;

/**
 * A failure that may pass on its own (ADR 0032, 0034): no answer at all (network down, timed out), or a 503
 * (the server or its database is restarting). A refusal (4xx), a server bug (500), a request the operator
 * cancelled or a garbled answer will not change by asking again. The same rule as the web app's.
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

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      // Reads are idempotent: retry what may pass (the console says it is reconnecting meanwhile).
      retry: readRetry,
      retryDelay: readRetryDelay,
      refetchOnWindowFocus: false,
    },
    // A decision (approve, reject, save) is never repeated by the client: the operator decides.
    mutations: { retry: false },
  },
});
