import { ZEmpty, ZSetTxnPasswordRequest } from '@kabuto/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/shared/api/client';
import { userInfoKeys } from '@/shared/session/user-info-query';

export const setTxnPasswordFormSchema = ZSetTxnPasswordRequest;
export type SetTxnPasswordInput = z.input<typeof ZSetTxnPasswordRequest>;
export type SetTxnPasswordOutput = z.output<typeof ZSetTxnPasswordRequest>;

export const ZTxnPasswordResponse = z.union([ZEmpty, z.object({}).loose(), z.null()]);

export function setTxnPassword(body: SetTxnPasswordOutput) {
  return api.request({ method: 'POST', path: '/user/setTxnPassword', body, schema: ZTxnPasswordResponse });
}

/** Setting the transaction password changes user_info.has_txn_password: refetch the user info. */
export function useSetTxnPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setTxnPassword,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userInfoKeys.all }),
  });
}
