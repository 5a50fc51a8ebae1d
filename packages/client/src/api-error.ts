import type { FieldIssue } from '@kabuto/contract';

/**
 * A failed call, in the web app and the console alike: the envelope's code and msg (already localized by
 * the server), its data, and the HTTP status (0 when there was no readable answer).
 */
export class ApiError extends Error {
  readonly code: number;
  readonly msg: string;
  readonly data: unknown;
  readonly status: number;

  constructor(init: { code: number; msg: string; data?: unknown; status: number }) {
    super(init.msg);
    this.name = 'ApiError';
    this.code = init.code;
    this.msg = init.msg;
    this.data = init.data ?? null;
    this.status = init.status;
  }
}

/** Client-side codes for failures without an envelope. */
export const CLIENT_CODES = { network: -1, timeout: -2, badResponse: -3, aborted: -4 } as const;

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** The field issues of a validation failure (code 400): `{field, rule, message}`, already translated. */
export function fieldIssuesOf(error: unknown): FieldIssue[] {
  if (!isApiError(error) || typeof error.data !== 'object' || error.data === null) return [];
  const issues: unknown = (error.data as { issues?: unknown }).issues;
  if (!Array.isArray(issues)) return [];
  return issues.filter(
    (i): i is FieldIssue =>
      typeof i === 'object' &&
      i !== null &&
      typeof (i as { field?: unknown }).field === 'string' &&
      typeof (i as { message?: unknown }).message === 'string',
  );
}
