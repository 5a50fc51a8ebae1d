import { QueryClient } from '@tanstack/react-query';
import { readRetry, readRetryDelay } from '@kabuto/client/read-retry';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      // Reads are idempotent: retry what may pass (the app says it is reconnecting meanwhile).
      retry: readRetry,
      retryDelay: readRetryDelay,
    },
    // A write is never repeated by the client: the user decides, and money routes carry idempotency keys.
    mutations: { retry: false },
  },
});
