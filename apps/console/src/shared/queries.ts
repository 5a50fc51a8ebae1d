import { ZOperatorMe, type TOperator } from '@kabuto/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './client';
import { useSession } from './session';

/** GET /api/console/me: the signed-in operator (answered even before the one-time password is changed). */
export const meQuery = (token: string | null) =>
  queryOptions({
    queryKey: ['me', token],
    queryFn: () => api.request({ path: '/me', schema: ZOperatorMe }),
    enabled: token !== null,
    staleTime: 60_000,
  });

export function useMe() {
  const { token } = useSession();
  return useQuery(meQuery(token));
}

export function isAdministrator(operator: TOperator | undefined): boolean {
  return operator?.role === 'administrator';
}
