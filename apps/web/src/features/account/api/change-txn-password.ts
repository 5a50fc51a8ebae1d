import { ZChangeTxnPasswordRequest } from '@kabuto/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '@/shared/api/client';
import { showPasskeyFailure } from '@/shared/passkeys/support';
import { forgetStepUp, stepUp } from '@/shared/passkeys/webauthn';
import { userInfoKeys } from '@/shared/session/user-info-query';
import { ZTxnPasswordResponse } from './set-txn-password';

export const changeTxnPasswordFormSchema = ZChangeTxnPasswordRequest;
export type ChangeTxnPasswordInput = z.input<typeof ZChangeTxnPasswordRequest>;
export type ChangeTxnPasswordOutput = z.output<typeof ZChangeTxnPasswordRequest>;

export function changeTxnPassword(body: ChangeTxnPasswordOutput) {
  return api.request({ method: 'POST', path: '/user/changeTxnPassword', body, schema: ZTxnPasswordResponse });
}

export function useChangeTxnPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: Parameters<typeof changeTxnPassword>[0]) =>
      // confirmed with the passkey, or without one by an SMS code and the old password here (ADR 0031)
      changeTxnPassword({
        ...body,
        step_up_token: await stepUp({ action: 'change_txn_password' }, { txn_password: body.old_password }),
      }),
    onSuccess: () => {
      forgetStepUp();
      return queryClient.invalidateQueries({ queryKey: userInfoKeys.all });
    },
    onError: showPasskeyFailure,
  });
}
