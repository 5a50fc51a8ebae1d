import {
  ZApplication,
  ZApplicationList,
  ZDrawRecord,
  ZOfferingList,
  type TApplicationCreate,
  type TOfferingKind,
} from '@kabuto/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/shared/api/client';

/** IPOs and distributions (issue 16, ADR 0026): /api/ipo/... */
export const ipoKeys = {
  all: () => ['ipo'] as const,
  offerings: (userId: number | null, kind: TOfferingKind) => ['ipo', 'offerings', userId, kind] as const,
  applications: (userId: number | null) => ['ipo', 'applications', userId] as const,
  draw: (id: number) => ['ipo', 'draw', id] as const,
};

export function offeringsQuery(userId: number | null, token: string | null, kind: TOfferingKind) {
  return queryOptions({
    queryKey: ipoKeys.offerings(userId, kind),
    queryFn: () => api.request({ path: '/ipo/offerings', query: { kind }, schema: ZOfferingList }),
    enabled: token !== null,
    staleTime: 5_000,
  });
}

export function applicationsQuery(userId: number | null, token: string | null) {
  return queryOptions({
    queryKey: ipoKeys.applications(userId),
    queryFn: () => api.request({ path: '/ipo/applications', schema: ZApplicationList }),
    enabled: token !== null,
    staleTime: 5_000,
  });
}

export function fetchDrawRecord(id: number) {
  return api.request({ path: `/ipo/offerings/${id}/draw`, schema: ZDrawRecord });
}

/** POST with the attempt's Idempotency-Key (a retry reuses it). */
export function applyFor(input: { id: number; body: TApplicationCreate }, idempotencyKey: string) {
  return api.request({
    method: 'POST',
    path: `/ipo/offerings/${input.id}/applications`,
    body: input.body,
    headers: { 'Idempotency-Key': idempotencyKey },
    schema: ZApplication,
  });
}

export function applicationAction(
  input: { id: number; action: 'withdraw' | 'confirm' | 'decline' },
  idempotencyKey: string,
) {
  return api.request({
    method: 'POST',
    path: `/ipo/applications/${input.id}/${input.action}`,
    headers: { 'Idempotency-Key': idempotencyKey },
    schema: ZApplication,
  });
}
