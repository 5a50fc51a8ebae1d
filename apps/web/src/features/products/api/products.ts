import { ZProductDetail, ZProductList, ZProductRecord, ZProductRecords } from '@kabuto/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/shared/api/client';

/** Follow-up products (issue 17, ADR 0027): GET /api/products, /api/products/:id, /api/products/records. */
export const productKeys = {
  all: ['products'] as const,
  list: (userId: number | null) => ['products', 'list', userId] as const,
  detail: (id: number, userId: number | null) => ['products', 'detail', id, userId] as const,
  records: (userId: number | null) => ['products', 'records', userId] as const,
};

export function productListQuery(userId: number | null) {
  return queryOptions({
    queryKey: productKeys.list(userId),
    queryFn: () => api.request({ path: '/products', schema: ZProductList }),
    staleTime: 10_000,
  });
}

export function productQuery(id: number, userId: number | null) {
  return queryOptions({
    queryKey: productKeys.detail(id, userId),
    queryFn: () => api.request({ path: `/products/${id}`, schema: ZProductDetail }),
    staleTime: 10_000,
  });
}

export function productRecordsQuery(userId: number | null, token: string | null) {
  return queryOptions({
    queryKey: productKeys.records(userId),
    queryFn: () => api.request({ path: '/products/records', schema: ZProductRecords }),
    enabled: token !== null,
  });
}

/** POST /api/products/:id/buy with the attempt's Idempotency-Key. */
export function buyProduct(id: number, amount: string, acknowledgeRisk: boolean, idempotencyKey: string) {
  return api.request({
    method: 'POST',
    path: `/products/${id}/buy`,
    body: { amount, acknowledge_risk: acknowledgeRisk },
    headers: { 'Idempotency-Key': idempotencyKey },
    schema: ZProductRecord,
  });
}

/** POST /api/products/records/:id/sell with the attempt's Idempotency-Key. */
export function sellRecord(id: number, idempotencyKey: string) {
  return api.request({
    method: 'POST',
    path: `/products/records/${id}/sell`,
    headers: { 'Idempotency-Key': idempotencyKey },
    schema: ZProductRecord,
  });
}
