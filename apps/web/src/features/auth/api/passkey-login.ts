import { ZLoginResponse, ZPasskeyList, ZWebAuthnOptionsResponse } from '@kabuto/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/shared/api/client';
import { requestOptions } from '@/shared/passkeys/support';
import { sessionStore } from '@/shared/session/session';
import { userInfoKeys } from '@/shared/session/user-info-query';

/**
 * Discoverable sign-in (ADR 0031): no phone number typed; the passkey names its account. SimpleWebAuthn's code
 * is fetched with the tap, beside the options: the login page's first screen does without it (issue 21).
 */
export async function loginWithPasskey() {
  const [{ options }, { startAuthentication }] = await Promise.all([
    api.request({ method: 'POST', path: '/auth/passkey/options', schema: ZWebAuthnOptionsResponse }),
    import('@simplewebauthn/browser'),
  ]);
  const credential = await startAuthentication({ optionsJSON: requestOptions(options) });
  return api.request({
    method: 'POST',
    path: '/auth/passkey/login',
    body: { credential },
    schema: ZLoginResponse,
  });
}

/** Signs in as password sign-in does (useLogin): the same session, the same user info. */
export function usePasskeyLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: loginWithPasskey,
    onSuccess: (data) => {
      queryClient.removeQueries({ queryKey: userInfoKeys.all });
      sessionStore.signIn({ token: data.token, userId: data.user_id, userInfo: data.user_info });
      queryClient.setQueryData(userInfoKeys.detail(data.user_id), data.user_info);
    },
  });
}

/** Whether the signed-in user has no passkey yet (the offer after a password sign-in). */
export async function hasNoPasskey(): Promise<boolean> {
  const list = await api.request({ path: '/passkeys', schema: ZPasskeyList, notify: false });
  return list.items.length === 0;
}
