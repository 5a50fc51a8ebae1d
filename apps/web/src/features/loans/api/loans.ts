import {
  ZLoan,
  ZLoanOverview,
  ZLoanPage,
  ZLoanQuote,
  type Sen,
  type TLoanApply,
  type TLoanRepay,
} from '@kabuto/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/shared/api/client';

/** Query keys of the loans feature: every loan mutation invalidates `all`. */
export const loanKeys = {
  all: ['loans'] as const,
  overview: (userId: number | null) => [...loanKeys.all, 'overview', userId] as const,
  quote: (userId: number | null, amount: Sen | null) => [...loanKeys.all, 'quote', userId, amount] as const,
  records: (userId: number | null) => [...loanKeys.all, 'records', userId] as const,
};

/** GET /api/loans/overview: limits, the product's terms, the free period, what would block an application. */
export function loanOverviewQuery(userId: number | null, token: string | null) {
  return queryOptions({
    queryKey: loanKeys.overview(userId),
    queryFn: () => api.request({ path: '/loans/overview', schema: ZLoanOverview }),
    enabled: token !== null && userId !== null,
  });
}

/** GET /api/loans/quote?amount=: the calculator, by the terms a disbursement today would fix. */
export function loanQuoteQuery(userId: number | null, token: string | null, amount: Sen | null) {
  return queryOptions({
    queryKey: loanKeys.quote(userId, amount),
    queryFn: () => api.request({ path: '/loans/quote', query: { amount: amount ?? 0 }, schema: ZLoanQuote }),
    enabled: token !== null && userId !== null && amount !== null && amount > 0,
    staleTime: 30_000,
  });
}

/** GET /api/loans: the records, newest first, with the total to repay. */
export function loanRecordsQuery(userId: number | null, token: string | null) {
  return queryOptions({
    queryKey: loanKeys.records(userId),
    queryFn: () => api.request({ path: '/loans', schema: ZLoanPage }),
    enabled: token !== null && userId !== null,
  });
}

/** POST /api/loans with the attempt's Idempotency-Key. */
export function applyForLoan(body: TLoanApply, idempotencyKey: string) {
  return api.request({
    method: 'POST',
    path: '/loans',
    body,
    headers: { 'Idempotency-Key': idempotencyKey },
    schema: ZLoan,
  });
}

/** POST /api/loans/:id/repay: the whole amount owed, as the confirm prompt showed it. */
export function repayLoan(input: { id: number } & TLoanRepay, idempotencyKey: string) {
  return api.request({
    method: 'POST',
    path: `/loans/${input.id}/repay`,
    body: { amount: input.amount },
    headers: { 'Idempotency-Key': idempotencyKey },
    schema: ZLoan,
  });
}
