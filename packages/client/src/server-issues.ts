import { fieldIssuesOf, isApiError } from './api-error.js';

/**
 * Puts a validation failure's field issues (already translated by the server) on the named fields of a
 * form: `setError` is react-hook-form's, or any function of that shape. Issues of other fields are left.
 */
export function applyServerIssues<F extends string>(
  error: unknown,
  fields: readonly F[],
  setError: (field: F, error: { type: 'server'; message: string }) => void,
): void {
  for (const issue of fieldIssuesOf(error)) {
    const field = fields.find((f) => f === issue.field);
    if (field !== undefined) setError(field, { type: 'server', message: issue.message });
  }
}

/**
 * Puts a refusal that names one field's value (a wrong password: `TXN_PASSWORD_WRONG`, `PASSWORD_WRONG`)
 * on that field, with the server's message, so that it shows at the field and not only in a passing toast.
 * `fieldOf` maps the envelope's code to the field; other errors are left. True when one was put.
 */
export function applyRefusalToField<F extends string>(
  error: unknown,
  fieldOf: Readonly<Record<number, F>>,
  setError: (field: F, error: { type: 'server'; message: string }) => void,
): boolean {
  if (!isApiError(error)) return false;
  const field = fieldOf[error.code];
  if (field === undefined) return false;
  setError(field, { type: 'server', message: error.msg });
  return true;
}
