import { QueryClient } from '@tanstack/react-query';
import { readRetry, readRetryDelay } from '@kabuto/client/read-retry';

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
