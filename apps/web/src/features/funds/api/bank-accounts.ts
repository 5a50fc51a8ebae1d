import type { ZBankAccountCreate } from '@kabuto/contract';
import {
  ZBankAccount,
  ZBankAccountInput,
  ZBankAccountList,
  ZBankAccountLog,
  ZLoginPassword,
} from '@kabuto/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/shared/api/client';
import { showPasskeyFailure } from '@/shared/passkeys/support';
import { forgetStepUp, stepUp } from '@/shared/passkeys/webauthn';
import { FUNDS_KEY } from '@/shared/messages/messages-api';

export const bankAccountKeys = {
  all: [FUNDS_KEY, 'bank-accounts'] as const,
  list: (userId: number | null) => [...bankAccountKeys.all, 'list', userId] as const,
  log: (userId: number | null) => [...bankAccountKeys.all, 'log', userId] as const,
};

/** GET /api/bank-accounts: the user's accounts (replaced ones included, newest first). */
export function bankAccountsQuery(userId: number | null, token: string | null) {
  return queryOptions({
    queryKey: bankAccountKeys.list(userId),
    queryFn: () => api.request({ path: '/bank-accounts', schema: ZBankAccountList }),
    enabled: token !== null && userId !== null,
  });
}

/** GET /api/bank-accounts/log: every change to them. */
export function bankAccountLogQuery(userId: number | null, token: string | null) {
  return queryOptions({
    queryKey: bankAccountKeys.log(userId),
    queryFn: () => api.request({ path: '/bank-accounts/log', schema: ZBankAccountLog }),
    enabled: token !== null && userId !== null,
  });
}

/** The form's fields (the login password is asked for separately, at the end). */
export const bankAccountFormSchema = ZBankAccountInput;
export type BankAccountFormInput = z.input<typeof bankAccountFormSchema>;
export type BankAccountFormOutput = z.output<typeof bankAccountFormSchema>;

export const loginPasswordSchema = z.object({ login_password: ZLoginPassword });

export type BankAccountCreateBody = z.output<typeof ZBankAccountCreate>;

/** POST /api/bank-accounts: adds an account, or replaces one (replaces_id). */
export function useAddBankAccount() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: BankAccountCreateBody) => {
      // confirmed for this very account with the passkey, or by an SMS code naming it (ADR 0031)
      const stepUpToken = await stepUp(
        {
          action: 'bank_account',
          bank_code: body.bank_code,
          branch_code: body.branch_code,
          account_number: body.account_number,
          yucho: body.yucho,
          replaces_id: body.replaces_id,
        },
        { password: body.login_password },
      );
      return api.request({
        method: 'POST',
        path: '/bank-accounts',
        body: { ...body, step_up_token: stepUpToken },
        schema: ZBankAccount,
        notify: false,
      });
    },
    onSuccess: () => {
      forgetStepUp();
      return client.invalidateQueries({ queryKey: bankAccountKeys.all });
    },
    onError: showPasskeyFailure,
  });
}
