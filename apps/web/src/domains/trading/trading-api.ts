import {
  IDEMPOTENCY_HEADER,
  ZLedgerMovementPage,
  type LedgerEntryKind,
  ZOrder,
  ZPosition,
  ZTradingRules,
  ZVerifyResult,
  type TClosePositionRequest,
  type TPlaceOrderRequest,
} from '@kabuto/contract';
import { infiniteQueryOptions, queryOptions, type QueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/shared/api/client';
import { userInfoKeys } from '@/shared/session/user-info-query';

/**
 * Trading and ledger calls, shared by the stock detail (order form), the orders pages and the
 * transaction log. Order-creating calls carry an Idempotency-Key (see idempotent.ts).
 */
export type OrdersFilter = 'pending' | 'done' | 'all';
export type PositionsFilter = 'holding' | 'closed';
export type VenueFilter = 'exchange' | 'pts' | 'all';

export const tradingKeys = {
  rules: () => ['trade', 'rules'] as const,
  orders: () => ['trade', 'orders'] as const,
  orderList: (userId: number | null, status: OrdersFilter, venue: VenueFilter = 'all') =>
    ['trade', 'orders', userId, status, venue] as const,
  order: (userId: number | null, orderNo: string) => ['trade', 'order', userId, orderNo] as const,
  positions: () => ['trade', 'positions'] as const,
  positionList: (userId: number | null, status: PositionsFilter) =>
    ['trade', 'positions', userId, status] as const,
  ledger: () => ['ledger'] as const,
  movementPage: (userId: number | null, filter: LedgerFilter) =>
    ['ledger', 'movements', userId, filter.kind, filter.from, filter.to] as const,
};

export const ZOrders = z.array(ZOrder);
export const ZPositions = z.array(ZPosition);

export function rulesQuery() {
  return queryOptions({
    queryKey: tradingKeys.rules(),
    queryFn: () => api.request({ path: '/trade/rules', schema: ZTradingRules }),
    staleTime: 10 * 60_000,
  });
}

export function ordersQuery(
  userId: number | null,
  token: string | null,
  status: OrdersFilter,
  venue: VenueFilter = 'all',
) {
  return queryOptions({
    queryKey: tradingKeys.orderList(userId, status, venue),
    queryFn: () => api.request({ path: '/trade/orders', query: { status, venue }, schema: ZOrders }),
    enabled: token !== null,
    staleTime: 5_000,
  });
}

export function orderQuery(userId: number | null, token: string | null, orderNo: string) {
  return queryOptions({
    queryKey: tradingKeys.order(userId, orderNo),
    queryFn: () => api.request({ path: '/trade/order', query: { order_no: orderNo }, schema: ZOrder }),
    enabled: token !== null && orderNo !== '',
    staleTime: 5_000,
  });
}

export function positionsQuery(userId: number | null, token: string | null, status: PositionsFilter) {
  return queryOptions({
    queryKey: tradingKeys.positionList(userId, status),
    queryFn: () => api.request({ path: '/trade/positions', query: { status }, schema: ZPositions }),
    enabled: token !== null,
    staleTime: 5_000,
  });
}

export interface LedgerFilter {
  kind: LedgerEntryKind | '';
  /** YYYY-MM-DD or '' */
  from: string;
  to: string;
}

export const LEDGER_PAGE_SIZE = 50;

/** The transaction log: the user's movements (one per order, deposit, withdrawal...), newest first. */
export function movementsQuery(userId: number | null, token: string | null, filter: LedgerFilter) {
  return infiniteQueryOptions({
    queryKey: tradingKeys.movementPage(userId, filter),
    queryFn: ({ pageParam }) =>
      api.request({
        path: '/ledger/movements',
        query: {
          kind: filter.kind === '' ? undefined : filter.kind,
          from: filter.from === '' ? undefined : filter.from,
          to: filter.to === '' ? undefined : filter.to,
          limit: LEDGER_PAGE_SIZE,
          offset: pageParam,
        },
        schema: ZLedgerMovementPage,
      }),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((n, p) => n + p.items.length, 0);
      return loaded < last.total && last.items.length > 0 ? loaded : undefined;
    },
    enabled: token !== null,
    staleTime: 5_000,
  });
}

const idempotency = (key: string) => ({ [IDEMPOTENCY_HEADER]: key });

export function placeOrder(body: TPlaceOrderRequest, key: string) {
  return api.request({
    method: 'POST',
    path: '/trade/placeOrder',
    body,
    headers: idempotency(key),
    schema: ZOrder,
  });
}

export function cancelOrder(orderNo: string, key: string) {
  return api.request({
    method: 'POST',
    path: '/trade/cancelOrder',
    body: { order_no: orderNo },
    headers: idempotency(key),
    schema: ZOrder,
  });
}

export function closePosition(body: TClosePositionRequest, key: string) {
  return api.request({
    method: 'POST',
    path: '/trade/closePosition',
    body,
    headers: idempotency(key),
    schema: ZOrder,
  });
}

/** GET /api/ledger/statement: the CSV statement of a period, in the user's language (the client adds lang). */
export function downloadStatement(period: { from: string; to: string }) {
  return api.fetchFile({
    path: '/ledger/statement',
    query: {
      from: period.from === '' ? undefined : period.from,
      to: period.to === '' ? undefined : period.to,
    },
    timeoutMs: 30_000,
  });
}

/** POST /api/ledger/verifyStatement with the CSV text. */
export function verifyStatement(csv: string) {
  return api.request({
    method: 'POST',
    path: '/ledger/verifyStatement',
    text: { contentType: 'text/csv', value: csv },
    schema: ZVerifyResult,
    timeoutMs: 30_000,
  });
}

/** Everything an order, a fill or a close changes: orders, positions, the ledger and the account. */
export function invalidateTrading(client: QueryClient): Promise<void> {
  return Promise.all([
    client.invalidateQueries({ queryKey: tradingKeys.orders() }),
    client.invalidateQueries({ queryKey: ['trade', 'order'] }),
    client.invalidateQueries({ queryKey: tradingKeys.positions() }),
    client.invalidateQueries({ queryKey: tradingKeys.ledger() }),
    client.invalidateQueries({ queryKey: userInfoKeys.all }),
  ]).then(() => undefined);
}

/** Saves a blob as a file through a temporary object URL and an <a download>. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => {
    URL.revokeObjectURL(url);
  }, 1000);
}
