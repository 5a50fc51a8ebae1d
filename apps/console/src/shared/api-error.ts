/** A failed console call: the envelope's code and msg (already localized by the server), its data, the HTTP status. */
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
export const CLIENT_CODES = { network: -1, timeout: -2, badResponse: -3 } as const;

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** The field issues of a validation failure (code 400): `{field, message}` pairs, already translated. */
export function fieldIssuesOf(error: unknown): { field: string; message: string }[] {
  if (!isApiError(error) || typeof error.data !== 'object' || error.data === null) return [];
  const issues: unknown = (error.data as { issues?: unknown }).issues;
  if (!Array.isArray(issues)) return [];
  return issues.filter(
    (i): i is { field: string; message: string } =>
      typeof i === 'object' &&
      i !== null &&
      typeof (i as { field?: unknown }).field === 'string' &&
      typeof (i as { message?: unknown }).message === 'string',
  );
}
