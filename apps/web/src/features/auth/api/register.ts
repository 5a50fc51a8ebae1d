import { ZRegisterRequest, ZRegisterResponse } from '@kabuto/contract';
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '@/shared/api/client';

export const registerFormSchema = ZRegisterRequest;
export type RegisterFormInput = z.input<typeof ZRegisterRequest>;
export type RegisterFormOutput = z.output<typeof ZRegisterRequest>;

export function register(body: RegisterFormOutput) {
  return api.request({ method: 'POST', path: '/auth/register', body, schema: ZRegisterResponse });
}

export function useRegister() {
  return useMutation({ mutationFn: register });
}
