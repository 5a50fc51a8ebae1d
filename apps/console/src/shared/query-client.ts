import { QueryClient } from '@tanstack/react-query';
import { isApiError } from '@kabuto/client/api-error';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      // The API client already shows failures; retry only what may be transient.
      retry: (count, error) => count < 1 && isApiError(error) && error.status === 0,
      refetchOnWindowFocus: false,
    },
    mutations: { retry: false },
  },
});
