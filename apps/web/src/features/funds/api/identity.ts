import { ZIdentity, ZIdentitySubmit, type TIdentity } from '@kabuto/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '@/shared/api/client';
import { FUNDS_KEY } from '@/shared/messages/messages-api';
import { userInfoKeys } from '@/shared/session/user-info-query';

export const identityKeys = { detail: (userId: number | null) => [FUNDS_KEY, 'identity', userId] as const };

/** GET /api/identity: the state of the user's real-name verification. */
export function identityQuery(userId: number | null, token: string | null) {
  return queryOptions({
    queryKey: identityKeys.detail(userId),
    queryFn: () => api.request({ path: '/identity', schema: ZIdentity }),
    enabled: token !== null && userId !== null,
  });
}

export const identityFormSchema = ZIdentitySubmit;
export type IdentityFormInput = z.input<typeof ZIdentitySubmit>;
export type IdentityFormOutput = z.output<typeof ZIdentitySubmit>;

/** POST /api/identity: files it (again after a rejection); the answer is the new state. */
export function useSubmitIdentity(userId: number | null) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: IdentityFormOutput) =>
      api.request({ method: 'POST', path: '/identity', body, schema: ZIdentity }),
    onSuccess: (identity: TIdentity) => {
      client.setQueryData(identityKeys.detail(userId), identity);
      void client.invalidateQueries({ queryKey: userInfoKeys.all });
    },
  });
}
