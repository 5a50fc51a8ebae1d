import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/shared/api/client';
import { marketKeys } from '@/domains/market/market-api';
import { useSession } from '@/shared/session/session';

/** POST /api/search/addHistory {query} and POST /api/search/clearHistory {} (login required). */
export function useAddHistory() {
  const client = useQueryClient();
  const userId = useSession((s) => s.userId);
  return useMutation({
    mutationFn: (query: string) =>
      api.request({
        method: 'POST',
        path: '/search/addHistory',
        body: { query },
        schema: z.unknown(),
        notify: false,
      }),
    onSettled: () => client.invalidateQueries({ queryKey: marketKeys.history(userId) }),
  });
}

export function useClearHistory() {
  const client = useQueryClient();
  const userId = useSession((s) => s.userId);
  return useMutation({
    mutationFn: () =>
      api.request({ method: 'POST', path: '/search/clearHistory', body: {}, schema: z.unknown() }),
    onSuccess: () => {
      client.setQueryData(marketKeys.history(userId), []);
    },
    onSettled: () => client.invalidateQueries({ queryKey: marketKeys.history(userId) }),
  });
}
