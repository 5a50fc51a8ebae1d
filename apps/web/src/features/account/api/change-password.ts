import { ZChangePasswordRequest, ZChangePasswordResponse } from '@kabuto/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '@/shared/api/client';
import { showPasskeyFailure } from '@/shared/passkeys/support';
import { forgetStepUp, stepUp } from '@/shared/passkeys/webauthn';
import { userInfoKeys } from '@/shared/session/user-info-query';

export const changePasswordFormSchema = ZChangePasswordRequest;
export type ChangePasswordInput = z.input<typeof ZChangePasswordRequest>;
export type ChangePasswordOutput = z.output<typeof ZChangePasswordRequest>;

export function changePassword(body: ChangePasswordOutput) {
  return api.request({ method: 'POST', path: '/user/changePassword', body, schema: ZChangePasswordResponse });
}

export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: Parameters<typeof changePassword>[0]) =>
      // confirmed with the passkey, or without one by an SMS code and the old password here (ADR 0031)
      changePassword({
        ...body,
        step_up_token: await stepUp({ action: 'change_password' }, { password: body.old_password }),
      }),
    onSuccess: () => {
      forgetStepUp();
      return queryClient.invalidateQueries({ queryKey: userInfoKeys.all });
    },
    onError: showPasskeyFailure,
  });
}
