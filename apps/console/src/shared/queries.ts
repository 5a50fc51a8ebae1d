import { ZOperatorMe, ZSettingProposalList, type TOperator, type TSettingProposal } from '@kabuto/contract';
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

/** GET /api/console/settings/proposals: the four-eyes proposals (ADR 0034), expired ones marked (ADR 0049). */
export const proposalsQuery = queryOptions({
  queryKey: ['setting-proposals'],
  queryFn: () => api.request({ path: '/settings/proposals', schema: ZSettingProposalList }),
});

/** The proposals an administrator could confirm now: unexpired, and proposed by someone else. */
export function awaitingConfirmation(
  items: readonly TSettingProposal[],
  operatorId: number,
): TSettingProposal[] {
  return items.filter((p) => !p.expired && p.proposed_by.id !== operatorId);
}
