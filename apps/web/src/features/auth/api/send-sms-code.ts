import { ZSendSmsCodeResponse, type ZSendSmsCodeRequest } from '@kabuto/contract';
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '@/shared/api/client';

export type SendSmsCodeInput = z.output<typeof ZSendSmsCodeRequest>;

export function sendSmsCode(body: SendSmsCodeInput) {
  return api.request({ method: 'POST', path: '/auth/sendSmsCode', body, schema: ZSendSmsCodeResponse });
}

export function useSendSmsCode() {
  return useMutation({ mutationFn: sendSmsCode });
}
