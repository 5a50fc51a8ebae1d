import { ZEmpty } from '@kabuto/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/shared/api/client';
import { sessionStore } from '@/shared/session/session';

const ZLogoutResponse = z.union([ZEmpty, z.null(), z.object({}).loose()]);

export async function logout(): Promise<void> {
  if (sessionStore.getState().token === null) return;
  await api.request({ method: 'POST', path: '/auth/logout', schema: ZLogoutResponse, toast: false });
}

/** Logs out on the server (best effort) and always clears the local session and cached server state. */
export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: logout,
    onSettled: () => {
      sessionStore.clear();
      queryClient.clear();
    },
  });
}
