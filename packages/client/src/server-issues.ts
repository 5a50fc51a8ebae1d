import { fieldIssuesOf } from './api-error.js';

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
