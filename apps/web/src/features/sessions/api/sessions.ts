import { ZEmpty, ZSessionList } from '@kabuto/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/shared/api/client';

export const sessionKeys = {
  all: ['sessions'] as const,
  list: (userId: number | null) => [...sessionKeys.all, 'list', userId] as const,
};

/** GET /api/sessions: the user's signed-in sessions, this one marked. */
export function sessionListQuery(userId: number | null, token: string | null) {
  return queryOptions({
    queryKey: sessionKeys.list(userId),
    queryFn: () => api.request({ path: '/sessions', schema: ZSessionList }),
    enabled: token !== null && userId !== null,
    staleTime: 0,
  });
}

/** POST /api/sessions/:id/revoke: that device is signed out at once. */
export function useEndSession() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      api.request({ method: 'POST', path: `/sessions/${id}/revoke`, body: {}, schema: ZEmpty }),
    onSuccess: () => client.invalidateQueries({ queryKey: sessionKeys.all }),
  });
}
