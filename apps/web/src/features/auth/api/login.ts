import { ZLoginRequest, ZLoginResponse, ZSmsCode, type TLoginResponse } from '@kabuto/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/shared/api/client';
import { sessionStore } from '@/shared/session/session';
import { userInfoKeys } from '@/shared/session/user-info-query';

/** The login form: the contract's request, with the agreement as a checkbox (false until ticked). */
export const loginFormSchema = ZLoginRequest.extend({
  agree: z.boolean().refine((v) => v, { error: 'validation.agreementRequired' }),
  // shown once the server throttles the account (ADR 0030): empty means "no code"
  sms_code: z.union([z.literal(''), ZSmsCode]).optional(),
});
export type LoginFormInput = z.input<typeof loginFormSchema>;
export type LoginFormOutput = z.output<typeof loginFormSchema>;

export function login(body: LoginFormOutput): Promise<TLoginResponse> {
  return api.request({
    method: 'POST',
    path: '/auth/login',
    body: {
      account: body.account,
      password: body.password,
      agree: true,
      ...(body.sms_code ? { sms_code: body.sms_code } : {}),
    },
    schema: ZLoginResponse,
  });
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: (data) => {
      queryClient.removeQueries({ queryKey: userInfoKeys.all });
      sessionStore.signIn({ token: data.token, userId: data.user_id, userInfo: data.user_info });
      queryClient.setQueryData(userInfoKeys.detail(data.user_id), data.user_info);
    },
  });
}
