import { ZNisaQuota, ZTaxReport, ZTaxSummary, type TaxAccount } from '@kabuto/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/shared/api/client';

/** The customer's tax (ADR 0021): GET /api/tax/nisa, /api/tax/summary, /api/tax/report and its CSV. */
export const taxKeys = {
  all: () => ['tax'] as const,
  nisa: (userId: number | null) => ['tax', 'nisa', userId] as const,
  summary: (userId: number | null, year: number) => ['tax', 'summary', userId, year] as const,
  report: (userId: number | null, year: number, account: TaxAccount) =>
    ['tax', 'report', userId, year, account] as const,
};

export function nisaQuery(userId: number | null, token: string | null) {
  return queryOptions({
    queryKey: taxKeys.nisa(userId),
    queryFn: () => api.request({ path: '/tax/nisa', schema: ZNisaQuota }),
    enabled: token !== null,
    staleTime: 10_000,
  });
}

export function summaryQuery(userId: number | null, token: string | null, year: number) {
  return queryOptions({
    queryKey: taxKeys.summary(userId, year),
    queryFn: () => api.request({ path: '/tax/summary', query: { year }, schema: ZTaxSummary }),
    enabled: token !== null,
    staleTime: 10_000,
  });
}

export function reportQuery(userId: number | null, token: string | null, year: number, account: TaxAccount) {
  return queryOptions({
    queryKey: taxKeys.report(userId, year, account),
    queryFn: () => api.request({ path: '/tax/report', query: { year, account }, schema: ZTaxReport }),
    enabled: token !== null,
    staleTime: 10_000,
  });
}

/** GET /api/tax/report.csv: the report as the server writes it (UTF-8 with a BOM, headers in the reader's language). */
export function downloadReport(year: number, account: TaxAccount) {
  return api.fetchFile({ path: '/tax/report.csv', query: { year, account }, timeoutMs: 30_000 });
}
