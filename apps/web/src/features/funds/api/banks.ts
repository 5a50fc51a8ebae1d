import { ZZenginList } from '@kabuto/contract';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '@/shared/api/client';
import { FUNDS_KEY } from '@/shared/messages/messages-api';

export const bankKeys = {
  all: [FUNDS_KEY, 'banks'] as const,
  banks: (q: string) => [...bankKeys.all, 'list', q] as const,
  branches: (bankCode: string, q: string) => [...bankKeys.all, 'branches', bankCode, q] as const,
};

/** GET /api/banks?q=: Zengin banks by code, name, kana or romaji (30 at most). */
export function banksQuery(q: string, enabled: boolean) {
  return queryOptions({
    queryKey: bankKeys.banks(q),
    queryFn: ({ signal }) => api.request({ path: '/banks', query: { q }, schema: ZZenginList, signal }),
    enabled,
    staleTime: 60 * 60_000,
    placeholderData: keepPreviousData,
  });
}

/** GET /api/banks/:code/branches?q=: the bank's branches, searched the same way. */
export function branchesQuery(bankCode: string, q: string, enabled: boolean) {
  return queryOptions({
    queryKey: bankKeys.branches(bankCode, q),
    queryFn: ({ signal }) =>
      api.request({ path: `/banks/${bankCode}/branches`, query: { q }, schema: ZZenginList, signal }),
    enabled: enabled && /^\d{4}$/.test(bankCode),
    staleTime: 60 * 60_000,
    placeholderData: keepPreviousData,
  });
}
