import { ZConsoleUser, ZConsoleUserPage, ZLedgerPage, ZOrder, ZPosition } from '@kabuto/contract';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/shared/client';

/** GET /api/console/users?q=: phone, user id or name */
export const usersQuery = (q: string, limit: number, offset: number) =>
  queryOptions({
    queryKey: ['users', q, limit, offset],
    queryFn: () => api.request({ path: '/users', query: { q, limit, offset }, schema: ZConsoleUserPage }),
    placeholderData: keepPreviousData,
  });

/** GET /api/console/users/:id */
export const userQuery = (id: number) =>
  queryOptions({
    queryKey: ['user', id],
    queryFn: () => api.request({ path: `/users/${id}`, schema: ZConsoleUser }),
  });

export interface LedgerFilter {
  kind?: string;
  from?: string;
  to?: string;
  limit: number;
  offset: number;
}

/** GET /api/console/users/:id/ledger: the user's ledger lines with running balances. */
export const ledgerQuery = (id: number, filter: LedgerFilter) =>
  queryOptions({
    queryKey: ['user', id, 'ledger', filter],
    queryFn: () => api.request({ path: `/users/${id}/ledger`, query: { ...filter }, schema: ZLedgerPage }),
    placeholderData: keepPreviousData,
  });

/** GET /api/console/users/:id/orders */
export const ordersQuery = (id: number) =>
  queryOptions({
    queryKey: ['user', id, 'orders'],
    queryFn: () =>
      api.request({ path: `/users/${id}/orders`, query: { status: 'all' }, schema: z.array(ZOrder) }),
  });

/** GET /api/console/users/:id/positions?status= */
export const positionsQuery = (id: number, status: 'holding' | 'closed') =>
  queryOptions({
    queryKey: ['user', id, 'positions', status],
    queryFn: () =>
      api.request({ path: `/users/${id}/positions`, query: { status }, schema: z.array(ZPosition) }),
  });

/** GET /api/console/users/:id/statement: the CSV statement, saved under the server's file name. */
export async function downloadStatement(id: number): Promise<void> {
  const file = await api.fetchFile({ path: `/users/${id}/statement` });
  const url = URL.createObjectURL(file.blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = file.filename ?? `kabuto-statement-${id}.csv`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => {
    URL.revokeObjectURL(url);
  }, 10_000);
}
