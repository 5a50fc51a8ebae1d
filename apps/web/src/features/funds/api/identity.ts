import { ZAccountApplication, ZIdentityApplication, type TIdentityApplication } from '@kabuto/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '@/shared/api/client';
import { FUNDS_KEY } from '@/shared/messages/messages-api';
import { userInfoKeys } from '@/shared/session/user-info-query';
import { brokerageKeys } from '@/domains/opening/brokerage-api';

export const identityKeys = { detail: (userId: number | null) => [FUNDS_KEY, 'identity', userId] as const };

/** GET /api/identity: the state of the user's account application (real-name verification). */
export function identityQuery(userId: number | null, token: string | null) {
  return queryOptions({
    queryKey: identityKeys.detail(userId),
    queryFn: () => api.request({ path: '/identity', schema: ZIdentityApplication }),
    enabled: token !== null && userId !== null,
  });
}

export const identityFormSchema = ZAccountApplication;
export type IdentityFormInput = z.input<typeof ZAccountApplication>;
export type IdentityFormOutput = z.output<typeof ZAccountApplication>;

/** POST /api/identity: files the application (again after a rejection); the answer is the new state. */
export function useSubmitIdentity(userId: number | null) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: IdentityFormOutput) =>
      api.request({ method: 'POST', path: '/identity', body, schema: ZIdentityApplication }),
    onSuccess: (identity: TIdentityApplication) => {
      client.setQueryData(identityKeys.detail(userId), identity);
      void client.invalidateQueries({ queryKey: userInfoKeys.all });
      void client.invalidateQueries({ queryKey: brokerageKeys.all });
    },
  });
}
