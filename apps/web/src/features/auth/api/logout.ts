import { ZEmpty } from '@kabuto/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/shared/api/client';
import { sessionStore } from '@/shared/session/session';

const ZLogoutResponse = z.union([ZEmpty, z.null(), z.object({}).loose()]);

/**
 * Lets go of the session here first, then ends it on the server with its token. The live socket drops it
 * at once, so the server's word that the session has ended, pushed on that socket while this request is
 * answered, is not taken for an expiry (the expiry message would show on a logout).
 */
export async function logout(): Promise<void> {
  const token = sessionStore.getState().token;
  if (token === null) return;
  sessionStore.clear();
  await api.request({ method: 'POST', path: '/auth/logout', schema: ZLogoutResponse, notify: false, token });
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
