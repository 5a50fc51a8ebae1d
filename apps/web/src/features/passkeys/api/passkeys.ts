import { ZEmpty, ZPasskey, ZPasskeyList, ZWebAuthnOptionsResponse } from '@kabuto/contract';
import { startRegistration } from '@simplewebauthn/browser';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/shared/api/client';
import { creationOptions } from '@/shared/passkeys/support';
import { stepUp } from '@/shared/passkeys/webauthn';

export const passkeyKeys = {
  all: ['passkeys'] as const,
  list: (userId: number | null) => [...passkeyKeys.all, 'list', userId] as const,
};

/** GET /api/passkeys */
export function passkeyListQuery(userId: number | null, token: string | null) {
  return queryOptions({
    queryKey: passkeyKeys.list(userId),
    queryFn: () => api.request({ path: '/passkeys', schema: ZPasskeyList }),
    enabled: token !== null && userId !== null,
    // "last used" changes with every sign-in and step-up, none of which goes through this feature
    staleTime: 0,
  });
}

/** POST /api/passkeys/options, the browser's passkey prompt, then POST /api/passkeys. */
export async function addPasskey() {
  const { options } = await api.request({
    method: 'POST',
    path: '/passkeys/options',
    schema: ZWebAuthnOptionsResponse,
  });
  const credential = await startRegistration({ optionsJSON: creationOptions(options) });
  return api.request({ method: 'POST', path: '/passkeys', body: { credential }, schema: ZPasskey });
}

export function useAddPasskey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: addPasskey,
    onSuccess: () => client.invalidateQueries({ queryKey: passkeyKeys.all }),
  });
}

/** POST /api/passkeys/:id/remove, after a step-up naming that passkey. */
export function useRemovePasskey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      const token = await stepUp({ action: 'remove_passkey', passkey_id: id });
      return api.request({
        method: 'POST',
        path: `/passkeys/${id}/remove`,
        body: { step_up_token: token },
        schema: ZEmpty,
      });
    },
    onSuccess: () => client.invalidateQueries({ queryKey: passkeyKeys.all }),
  });
}

/** PATCH /api/passkeys/:id: a name the user will recognise ("iPhone", "office laptop"). */
export function useRenamePasskey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name }: { id: number; name: string }) =>
      api.request({
        method: 'PATCH',
        path: `/passkeys/${id}`,
        body: { name },
        schema: ZPasskey,
        notify: false,
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: passkeyKeys.all }),
  });
}
